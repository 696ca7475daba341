/* The tile picker: ticked tiles, and the chips and photo of a hand read from a photo. */
import { drawPhotoOverlay, drawStaticOverlays, PHOTO_BACK_PREFIX, sendPhotosWhenChosen } from "./photo.js";

sendPhotosWhenChosen();

/* Tile picker: show how many tiles are picked, and which, with their points. */
var tileForm = document.querySelector(".tile-form");
if (tileForm) {
  var counter = document.getElementById("tile-count");
  var pickedSummary = document.getElementById("picked-summary");
  var tilePoints = pickedSummary ? JSON.parse(pickedSummary.dataset.tilePoints || "{}") : {};
  var showCount = function () {
    var picked = tileForm.querySelectorAll("input[name=tile]:checked");
    var pips = 0;
    var points = 0;
    var labels = [];
    picked.forEach(function (box) {
      box.value.split("-").forEach(function (half) { pips += Number(half); });
      points += tilePoints[box.value] || 0;
      labels.push(box.value);
    });
    counter.textContent = picked.length + " tile" + (picked.length === 1 ? "" : "s") +
      " picked, " + pips + " pips before the blank rule.";
    if (pickedSummary) {
      pickedSummary.textContent = labels.length ? "Picked " + labels.length + " tile" +
        (labels.length === 1 ? "" : "s") + ": " + labels.join(", ") + " — " + points +
        " point" + (points === 1 ? "" : "s") + "." : "No tiles picked yet.";
    }
  };
  tileForm.addEventListener("change", showCount);
  showCount();

  var chipList = document.getElementById("photo-chips");
  var dataScript = document.querySelector(".photo-overlay-data");
  if (chipList && dataScript) {
    var data = JSON.parse(dataScript.textContent);
    var figure = document.querySelector(".photo-overlay");
    var editor = document.getElementById("chip-editor");
    var setMax = Number(chipList.dataset.setMax);
    var chips = data.chips.map(function (chip) {
      return {number: chip.number, label: chip.label, unsure: chip.unsure, fromPhoto: true};
    });
    var nextNumber = chips.length + 1;
    var editing = null;
    var boxFor = function (label) {
      return tileForm.querySelector('input[name=tile][value="' + label + '"]');
    };
    var inSet = function (label) { return label in data.tile_points; };
    var describe = function (chip, counted, twice) {
      if (!inSet(chip.label)) return "not in a double-" + setMax + " set: change it";
      if (twice && !counted) return "read twice, the set has one: change or remove it";
      if (twice) return "read twice: check this tile";
      if (chip.unsure) return "check this tile";
      return "";
    };
    var render = function () {
      var seen = {};
      var count = {};
      chips.forEach(function (chip) { count[chip.label] = (count[chip.label] || 0) + 1; });
      var total = 0;
      var shown = {};
      chipList.textContent = "";
      chips.forEach(function (chip, index) {
        var counted = inSet(chip.label) && !seen[chip.label];
        if (counted) { seen[chip.label] = true; total += data.tile_points[chip.label]; }
        var note = describe(chip, counted, count[chip.label] > 1);
        var item = document.createElement("li");
        item.className = "chip-item";
        var button = document.createElement("button");
        button.type = "button";
        button.className = "chip-button" + (note ? " unsure" : "") + (counted ? "" : " not-counted");
        button.dataset.index = String(index);
        button.setAttribute("aria-expanded", editing === index ? "true" : "false");
        button.setAttribute("aria-controls", "chip-editor");
        var parts = [
          ["chip-number", String(chip.number)],
          ["chip-label", chip.label],
          ["chip-note", note ? "? " + note : ""],
          ["chip-total", counted ? "total " + total : "not counted"]
        ];
        parts.forEach(function (part) {
          if (!part[1]) return;
          var span = document.createElement("span");
          span.className = part[0];
          span.textContent = part[1];
          button.appendChild(span);
        });
        var hidden = document.createElement("span");
        hidden.className = "visually-hidden";
        hidden.textContent = chip.fromPhoto ? ", change or remove" : ", added, change or remove";
        button.appendChild(hidden);
        item.appendChild(button);
        chipList.appendChild(item);
        if (chip.fromPhoto) shown[chip.number] = {label: chip.label, unsure: Boolean(note)};
      });
      data.chips.forEach(function (chip) {
        if (!chips.some(function (c) { return c.number === chip.number; })) shown[chip.number] = null;
      });
      if (figure) drawPhotoOverlay(figure, data, shown);
    };
    var syncBoxes = function () {
      var wanted = {};
      chips.forEach(function (chip) { wanted[chip.label] = true; });
      tileForm.querySelectorAll("input[name=tile]").forEach(function (box) {
        box.checked = Boolean(wanted[box.value]);
      });
      showCount();
    };
    var closeEditor = function (focusChip) {
      var index = editing;
      editing = null;
      editor.hidden = true;
      editor.textContent = "";
      render();
      if (focusChip && index !== null) {
        var target = chipList.querySelector('button[data-index="' + Math.min(index, chips.length - 1) + '"]');
        if (target) target.focus(); else chipList.focus();
      }
    };
    var pad = function (legend, value, onPick) {
      var set = document.createElement("fieldset");
      var title = document.createElement("legend");
      title.textContent = legend;
      set.appendChild(title);
      var grid = document.createElement("div");
      grid.className = "number-pad";
      for (var n = 0; n <= setMax; n += 1) {
        var key = document.createElement("button");
        key.type = "button";
        key.textContent = String(n);
        key.setAttribute("aria-pressed", n === value ? "true" : "false");
        key.addEventListener("click", onPick.bind(null, n));
        grid.appendChild(key);
      }
      set.appendChild(grid);
      return set;
    };
    /* The number pads open where the tap was: under the photo for a tile or shape tapped on
       it, under the list for a chip, so the player never has to scroll to find them. */
    var editorHome = editor.previousElementSibling;
    var placeEditor = function (anchor) {
      var after = anchor || editorHome;
      if (after.nextElementSibling !== editor) after.insertAdjacentElement("afterend", editor);
    };
    var openEditor = function (index, focusSelector, anchor) {
      if (anchor !== undefined || editing !== index) placeEditor(anchor);
      editing = index;
      render();
      var chip = chips[index];
      var halves = chip.label.split("-").map(Number);
      editor.textContent = "";
      var title = document.createElement("p");
      title.id = "chip-editor-title";
      title.className = "chip-editor-title";
      title.textContent = "Tile " + chip.number + ": " + chip.label + ". Tap the right number for either half.";
      editor.appendChild(title);
      var change = function (which, n) {
        var next = halves.slice();
        next[which] = n;
        chip.label = Math.max(next[0], next[1]) + "-" + Math.min(next[0], next[1]);
        chip.unsure = false;
        syncBoxes();
        openEditor(index, '[data-half="' + which + '"] button:nth-child(' + (n + 1) + ")");
      };
      var first = pad("First half", halves[0], function (n) { change(0, n); });
      first.dataset.half = "0";
      var second = pad("Second half", halves[1], function (n) { change(1, n); });
      second.dataset.half = "1";
      editor.appendChild(first);
      editor.appendChild(second);
      var actions = document.createElement("div");
      actions.className = "actions";
      var remove = document.createElement("button");
      remove.type = "button";
      remove.className = "button danger";
      remove.textContent = "Remove tile " + chip.number;
      remove.addEventListener("click", function () {
        chips.splice(index, 1);
        syncBoxes();
        closeEditor(true);
      });
      var done = document.createElement("button");
      done.type = "button";
      done.className = "button primary";
      done.textContent = "Done";
      done.addEventListener("click", function () { closeEditor(true); });
      actions.appendChild(done);
      actions.appendChild(remove);
      editor.appendChild(actions);
      editor.hidden = false;
      var focus = focusSelector && editor.querySelector(focusSelector);
      (focus || editor.querySelector('[data-half="0"] button[aria-pressed="true"]') || done).focus();
    };
    /* A tile the photo missed, or a shape it saw but did not count ("not counted — a tile?"):
       the same two number pads, and the tile is added to the list. */
    var openAdder = function (hint, anchor) {
      placeEditor(anchor);
      editing = "new";
      render();
      var halves = [null, null];
      var draw = function (focusSelector) {
        editor.textContent = "";
        var title = document.createElement("p");
        title.id = "chip-editor-title";
        title.className = "chip-editor-title";
        title.textContent = (hint ? "A shape on the photo that was not counted. If it is a tile, " :
          "A tile the photo missed: ") + "tap its two numbers.";
        editor.appendChild(title);
        [0, 1].forEach(function (which) {
          var set = pad(which ? "Second half" : "First half", halves[which], function (n) {
            halves[which] = n;
            draw('[data-half="' + which + '"] button:nth-child(' + (n + 1) + ")");
          });
          set.dataset.half = String(which);
          editor.appendChild(set);
        });
        var label = halves[0] === null || halves[1] === null ? null :
          Math.max(halves[0], halves[1]) + "-" + Math.min(halves[0], halves[1]);
        var already = Boolean(label) && chips.some(function (chip) { return chip.label === label; });
        if (already) {
          var note = document.createElement("p");
          note.className = "field-error";
          note.setAttribute("role", "alert");
          note.textContent = label + " is in the list already, and a set has one of each.";
          editor.appendChild(note);
        }
        var actions = document.createElement("div");
        actions.className = "actions";
        var add = document.createElement("button");
        add.type = "button";
        add.className = "button primary";
        add.textContent = label ? "Add " + label : "Add the tile";
        add.disabled = !label || already;
        add.addEventListener("click", function () {
          chips.push({number: nextNumber, label: label, unsure: false, fromPhoto: false});
          nextNumber += 1;
          if (hint) hint.classList.add("added");
          syncBoxes();
          editing = chips.length - 1;
          closeEditor(true);
        });
        var cancel = document.createElement("button");
        cancel.type = "button";
        cancel.className = "button secondary";
        cancel.textContent = "Cancel";
        cancel.addEventListener("click", function () { closeEditor(false); });
        actions.appendChild(add);
        actions.appendChild(cancel);
        editor.appendChild(actions);
        editor.hidden = false;
        var focus = focusSelector && editor.querySelector(focusSelector);
        (focus || editor.querySelector('[data-half="0"] button')).focus();
      };
      draw(null);
    };
    chipList.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-index]");
      if (!button) return;
      var index = Number(button.dataset.index);
      if (editing === index) closeEditor(true); else openEditor(index);
    });
    /* A tap on a tile's outline on the photo opens its chip too (the chips are the way in
       for keyboards and screen readers). */
    if (figure) {
      figure.addEventListener("click", function (event) {
        var hint = event.target.closest && event.target.closest(".hint");
        if (hint) { openAdder(hint, figure); return; }
        var group = event.target.closest && event.target.closest(".read-tile");
        if (!group) return;
        var number = Number(group.dataset.number);
        var index = chips.findIndex(function (chip) { return chip.fromPhoto && chip.number === number; });
        if (index >= 0) openEditor(index, null, figure);
      });
    }
    editor.addEventListener("keydown", function (event) {
      if (event.key === "Escape") closeEditor(true);
    });
    /* Ticking a tile in the grid adds it to the list; unticking one takes it out. */
    tileForm.addEventListener("change", function (event) {
      var box = event.target;
      if (!box || box.name !== "tile") return;
      if (box.checked && !chips.some(function (chip) { return chip.label === box.value; })) {
        chips.push({number: nextNumber, label: box.value, unsure: false, fromPhoto: false});
        nextNumber += 1;
      } else if (!box.checked) {
        chips = chips.filter(function (chip) { return chip.label !== box.value; });
      }
      if (editing !== null) { editing = null; editor.hidden = true; editor.textContent = ""; }
      render();
    });
    document.querySelectorAll(".add-missed").forEach(function (link) {
      link.addEventListener("click", function (event) {
        event.preventDefault();
        openAdder(null, link.closest("p"));
      });
    });
    /* Once the tiles are saved the photo is no longer needed in this tab. */
    tileForm.addEventListener("submit", function (event) {
      if (!figure || (event.submitter && event.submitter.classList.contains("photo-read"))) return;
      try { window.sessionStorage.removeItem(PHOTO_BACK_PREFIX + figure.dataset.photoKey); }
      catch (error) { /* nothing kept */ }
    });
    chipList.tabIndex = -1;
    render();
    syncBoxes();
  }
}

drawStaticOverlays();
