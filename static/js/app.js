/* Small progressive enhancements; every page works without this file. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  /* Times: the server writes them in UTC; show them in the phone's own time zone. */
  var showLocalTimes = function (root) {
    root.querySelectorAll("time[datetime]").forEach(function (element) {
      var moment = new Date(element.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      element.textContent = moment.toLocaleString(undefined, {
        day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
      });
    });
  };
  showLocalTimes(document);

  /* Ask before destructive buttons. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.classList && form.classList.contains("js-confirm")) {
      if (!window.confirm(form.dataset.confirm || "Are you sure?")) event.preventDefault();
    }
  });

  /* Referee: a fresh ruling gets the focus, so it is in view and read out at once. */
  var ruling = document.getElementById("ruling");
  if (ruling) ruling.focus();

  /* Round entry: "went out" empties and disables that player's points box. */
  function syncWentOut(box) {
    var fieldset = box.closest("fieldset");
    var points = fieldset && fieldset.querySelector("input[inputmode=numeric]");
    if (!points) return;
    if (box.checked) { points.value = ""; }
    points.disabled = box.checked;
  }
  document.querySelectorAll("input.went-out").forEach(function (box) {
    syncWentOut(box);
    box.addEventListener("change", function () { syncWentOut(box); });
  });

  /* Round entry: keep what was typed while the scorekeeper goes to pick someone's tiles, and
     put it back into the boxes that are still empty when they return. */
  var DRAFT_MAX_AGE_MS = 30 * 60 * 1000;
  document.querySelectorAll("form[data-draft-key]").forEach(function (form) {
    var key = form.dataset.draftKey;
    var fields = function () {
      return form.querySelectorAll("input[type=text], input[type=checkbox]");
    };
    var save = function () {
      var values = {};
      fields().forEach(function (input) {
        values[input.name] = input.type === "checkbox" ? input.checked : input.value;
      });
      try {
        window.sessionStorage.setItem(key, JSON.stringify({at: Date.now(), values: values}));
      } catch (error) { /* private mode: nothing kept */ }
    };
    var draft = null;
    try { draft = JSON.parse(window.sessionStorage.getItem(key) || "null"); } catch (error) { draft = null; }
    if (draft && Date.now() - draft.at < DRAFT_MAX_AGE_MS) {
      fields().forEach(function (input) {
        var kept = draft.values[input.name];
        if (input.type === "checkbox") {
          if (kept === true && !input.checked) {
            input.checked = true;
            if (input.classList.contains("went-out")) syncWentOut(input);
          }
        } else if (!input.value && typeof kept === "string" && kept) {
          input.value = kept;
        }
      });
    }
    form.addEventListener("input", save);
    form.addEventListener("change", save);
    form.addEventListener("submit", function (event) {
      /* Reading a photo only leads to the tile picker; the draft is still needed after it. */
      if (event.submitter && event.submitter.classList.contains("photo-read")) return;
      try { window.sessionStorage.removeItem(key); } catch (error) { /* ignore */ }
    });
  });

  /* A photo is shrunk on the phone before it is sent: its long side to what the photo reader
     uses (vision.pipeline.READ_LONG_SIDE), as a JPEG, turned upright by its EXIF orientation.
     Resolves to null when the photo should go as it is (small already, or this browser can't
     decode it, e.g. HEIC outside Safari): the full file is the fallback. */
  var SEND_LONG_SIDE = 2000;
  var SHRINK_MAX_PIXELS = 50000000; /* vision.decode.MAX_PIXELS: a bigger photo goes as it is,
                                       for the server to refuse in plain words */
  function shrinkPhoto(file) {
    if (!window.createImageBitmap || !window.HTMLCanvasElement ||
        !HTMLCanvasElement.prototype.toBlob) return Promise.resolve(null);
    return window.createImageBitmap(file, {imageOrientation: "from-image"}).then(function (bitmap) {
      var scale = SEND_LONG_SIDE / Math.max(bitmap.width, bitmap.height);
      if (scale >= 1 || bitmap.width * bitmap.height > SHRINK_MAX_PIXELS) {
        bitmap.close();
        return null;
      }
      var canvas = document.createElement("canvas");
      canvas.width = Math.round(bitmap.width * scale);
      canvas.height = Math.round(bitmap.height * scale);
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      return new Promise(function (resolve) { canvas.toBlob(resolve, "image/jpeg", 0.9); });
    }).catch(function () { return null; });
  }

  /* The photo sent is kept in this tab for the page that shows what was read on it (the
     server keeps no photo). Too big for the tab's storage: the list shows without it. */
  var PHOTO_BACK_PREFIX = "photo-back:";
  var PHOTO_BACK_MAX_CHARS = 3500000;
  function keepPhotoBack(key, blob) {
    return new Promise(function (resolve) {
      try { window.sessionStorage.removeItem(PHOTO_BACK_PREFIX + key); } catch (error) { /* none */ }
      if (!window.FileReader || blob.size * 1.4 > PHOTO_BACK_MAX_CHARS) { resolve(); return; }
      var reader = new FileReader();
      reader.onload = function () {
        try { window.sessionStorage.setItem(PHOTO_BACK_PREFIX + key, String(reader.result)); }
        catch (error) { /* full: the list still shows what was read */ }
        resolve();
      };
      reader.onerror = function () { resolve(); };
      reader.readAsDataURL(blob);
    });
  }

  /* Round entry and picker: a chosen photo is shrunk and sent at once (the "Read" button is for
     pages without this script); one still over the upload limit is refused here. */
  document.querySelectorAll(".photo-field input[type=file]").forEach(function (input) {
    var field = input.closest(".photo-field");
    var button = field.querySelector(".photo-read");
    var sending = false;
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      if (!file || !button || sending) return;
      var errorId = input.id + "-error";
      var old = document.getElementById(errorId);
      if (old) old.remove();
      field.classList.add("reading");
      var status = document.createElement("p");
      status.className = "help";
      status.setAttribute("role", "status");
      status.textContent = "Reading the photo… this takes a few seconds.";
      field.appendChild(status);
      sending = true;
      shrinkPhoto(file).then(function (small) {
        var sent = file;
        if (small && window.DataTransfer) {
          try {
            var list = new DataTransfer();
            sent = new File([small], (file.name || "photo").replace(/\.[^.]*$/, "") + ".jpg",
              {type: "image/jpeg"});
            list.items.add(sent);
            input.files = list.files;
          } catch (error) { sent = file; }
        }
        var limit = Number(input.dataset.maxBytes || 0);
        if (limit && sent.size > limit) {
          sending = false;
          field.classList.remove("reading");
          status.remove();
          var message = document.createElement("p");
          message.className = "field-error";
          message.id = errorId;
          message.setAttribute("role", "alert");
          message.textContent = "This photo is too large to send (the limit is " +
            Math.round(limit / (1024 * 1024)) + " MB). Take it again at a lower resolution " +
            "or choose a smaller file.";
          field.insertAdjacentElement("afterend", message);
          input.setAttribute("aria-describedby", errorId);
          input.setAttribute("aria-invalid", "true");
          input.value = "";
          return;
        }
        var key = new URL(button.formAction, window.location.href).pathname;
        return keepPhotoBack(key, sent).then(function () {
          if (input.form.requestSubmit) input.form.requestSubmit(button); else button.click();
        });
      });
    });
  });

  /* The photo back with what was read drawn on it (templates/_photo_overlay.html): the kept
     photo under the server's outlines, or the outlines alone when the photo can't be shown.
     `shown` (optional) maps a tile's number to its current reading, or to null once removed.
     Kept free of the picker so that other pages can draw a reading too. */
  function drawPhotoOverlay(figure, data, shown) {
    var svg = figure.querySelector(".photo-lines");
    if (shown) {
      svg.querySelectorAll(".read-tile").forEach(function (group) {
        var number = Number(group.dataset.number);
        if (!(number in shown)) return;
        var now = shown[number];
        var text = group.querySelector("text");
        group.classList.toggle("removed", now === null);
        group.classList.toggle("unsure", now !== null && now.unsure);
        /* The server left room for the longest text a label can show; on a crowded photo
           that is the number alone, and the chips carry the reading. */
        if ("numberOnly" in group.dataset) return;
        if (now === null) text.textContent = number + ": removed";
        else text.textContent = number + ": " + now.label + (now.unsure ? " ?" : "");
      });
    }
    if (figure.dataset.drawn) return;
    figure.dataset.drawn = "1";
    var img = figure.querySelector(".photo-back");
    var noPhoto = function () {
      figure.classList.add("no-photo");
      var note = document.createElement("p");
      note.className = "help";
      note.textContent = "The photo itself can't be shown here: the outlines show where the tiles were read.";
      figure.appendChild(note);
      figure.hidden = false;
    };
    var kept = null;
    try { kept = window.sessionStorage.getItem(PHOTO_BACK_PREFIX + figure.dataset.photoKey); }
    catch (error) { kept = null; }
    if (!kept) { noPhoto(); return; }
    img.onload = function () {
      var shape = img.naturalWidth / img.naturalHeight;
      /* A photo of another shape is not the one read: don't draw on it. */
      if (Math.abs(shape - data.width / data.height) > 0.02 * shape) { noPhoto(); return; }
      figure.hidden = false;
    };
    img.onerror = noPhoto;
    img.src = kept;
  }
  window.drawPhotoOverlay = drawPhotoOverlay;

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
      var openEditor = function (index, focusSelector) {
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
          var group = event.target.closest && event.target.closest(".read-tile");
          if (!group) return;
          var number = Number(group.dataset.number);
          var index = chips.findIndex(function (chip) { return chip.fromPhoto && chip.number === number; });
          if (index >= 0) openEditor(index);
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
          var picker = document.getElementById("tile-picker");
          picker.scrollIntoView({block: "start"});
          var firstBox = picker.querySelector("input[name=tile]");
          (firstBox || picker).focus();
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

  /* Referee: the photo sent is kept in the tab too (shrunk like any other), so the page
     that comes back can show the tiles in dispute outlined on it. */
  document.querySelectorAll("form.dispute-form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      var button = event.submitter;
      if (!button || button.name !== "photo-target" || form.dataset.photoKept) return;
      var input = form.querySelector("input[type=file][name=photo]");
      var file = input && input.files && input.files[0];
      if (!file || !form.requestSubmit) return;
      event.preventDefault();
      var key = new URL(button.formAction, window.location.href).pathname;
      shrinkPhoto(file).then(function (small) { return small || file; }, function () { return file; })
        .then(function (sent) { return keepPhotoBack(key, sent); })
        .then(function () {
          form.dataset.photoKept = "1";
          form.requestSubmit(button);
          delete form.dataset.photoKept;
        });
    });
  });

  /* Any other photo overlay on the page (the picker draws its own as the chips change). */
  document.querySelectorAll(".photo-overlay").forEach(function (figure) {
    var script = figure.nextElementSibling;
    if (figure.dataset.drawn || !script || !script.classList.contains("photo-overlay-data")) return;
    drawPhotoOverlay(figure, JSON.parse(script.textContent));
  });

  /* Setup: keep "as the preset (...)" labels and the deal preview current. */
  var setup = document.getElementById("setup-form");
  var presetData = document.getElementById("preset-values");
  if (setup && presetData) {
    var presets = JSON.parse(presetData.textContent);
    var wordsData = document.getElementById("value-words");
    var valueWords = wordsData ? JSON.parse(wordsData.textContent) : {};
    var words = function (value, key) {
      if (value === true) return "yes";
      if (value === false) return "no";
      if (typeof value === "object") return "custom";
      var known = valueWords[key] && valueWords[key][String(value)];
      return known || String(value).replace(/_/g, " ");
    };
    var relabel = function () {
      var values = presets[setup.elements.preset.value] || presets.standard;
      setup.querySelectorAll("option[data-preset-label]").forEach(function (option) {
        var key = option.dataset.presetLabel;
        var shown = key === "set_max" ? "double-" + values[key] : words(values[key], key);
        option.textContent = "As the preset (" + shown + ")";
      });
      setup.querySelectorAll("input[data-preset-placeholder]").forEach(function (input) {
        input.placeholder = "as the preset (" + values[input.dataset.presetPlaceholder] + ")";
      });
    };
    var preview = document.getElementById("deal-preview");
    var timer = null;
    var refresh = function () {
      if (!preview || !setup.dataset.previewUrl) return;
      var params = new URLSearchParams(new FormData(setup));
      params.delete("csrf_token");
      fetch(setup.dataset.previewUrl + "?" + params.toString(), {headers: {Accept: "application/json"}})
        .then(function (response) { return response.json(); })
        .then(function (data) {
          preview.textContent = "";
          var line = document.createElement("p");
          if (data.error) {
            line.className = "field-error";
            line.textContent = data.error;
          } else {
            line.textContent = data.hand_size + " tiles each for " + data.players + " players · " +
              data.boneyard + " in the boneyard after the deal · " + data.set_tiles +
              "-tile double-" + data.set_max + " set · " + data.rounds + " rounds";
          }
          preview.appendChild(line);
        })
        .catch(function () { /* the server-rendered preview stays */ });
    };
    setup.addEventListener("input", function () {
      relabel();
      window.clearTimeout(timer);
      timer = window.setTimeout(refresh, 250);
    });
    setup.addEventListener("change", function () { relabel(); refresh(); });
  }

  /* Scoresheet: poll the JSON API (ETag, so an unchanged game costs a 304) and swap in the
     parts of the page that changed. */
  var game = document.getElementById("game");
  if (game && game.dataset.api && window.fetch && window.DOMParser) {
    var etag = null;
    var version = Number(game.dataset.version);
    var editing = game.dataset.mode === "edit";
    var notice = document.getElementById("live-notice");
    var busy = false;
    var swapParts = function () {
      return fetch(game.dataset.page, {
        /* Tells the server not to hand this background copy the one-time "saved" messages. */
        headers: {Accept: "text/html", "X-Live-Refresh": "1"}, credentials: "same-origin"
      })
        .then(function (response) { return response.text(); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html");
          document.querySelectorAll("[data-live]").forEach(function (part) {
            var replacement = fresh.getElementById(part.id);
            if (replacement) part.innerHTML = replacement.innerHTML;
          });
          showLocalTimes(document);
        });
    };
    var poll = function () {
      if (busy || document.hidden) return;
      busy = true;
      var headers = {Accept: "application/json"};
      if (etag) headers["If-None-Match"] = etag;
      fetch(game.dataset.api, {headers: headers, cache: "no-store"})
        .then(function (response) {
          if (response.status === 304) return null;
          if (response.status === 404) {
            window.clearInterval(ticker);
            if (notice) {
              notice.hidden = false;
              notice.textContent = "This game has been deleted.";
            }
            return null;
          }
          if (!response.ok) throw new Error(String(response.status));
          etag = response.headers.get("ETag");
          return response.json();
        })
        .then(function (data) {
          if (!data || data.version === version) return null;
          version = data.version;
          /* The swapped-in parts are new nodes, which screen readers may not announce, so say
             the standings in a live region that stays put. */
          var summary = document.getElementById("live-summary");
          if (summary && data.standings) {
            summary.textContent = "Scores updated. " + data.standings.map(function (name) {
              return name + " " + data.totals[name];
            }).join(", ") + (data.finished ? ". Game over." : ".");
          }
          if (editing && notice) {
            notice.hidden = false;
            notice.textContent = "The scores changed on another phone. The table below is current; " +
              "reload before saving a round.";
          }
          return swapParts();
        })
        .catch(function () { /* offline for a moment: try again on the next tick */ })
        .then(function () { busy = false; });
    };
    var ticker = window.setInterval(poll, 1000);
  }
})();
