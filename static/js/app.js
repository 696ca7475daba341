/* Small progressive enhancements; every page works without this file. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

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

  /* Round entry: a chosen photo is sent at once (the "Read" button is for pages without this
     script); one over the upload limit is refused here, before a long upload. */
  document.querySelectorAll(".photo-field input[type=file]").forEach(function (input) {
    var field = input.closest(".photo-field");
    var button = field.querySelector(".photo-read");
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      if (!file || !button) return;
      var errorId = input.id + "-error";
      var old = document.getElementById(errorId);
      if (old) old.remove();
      var limit = Number(input.dataset.maxBytes || 0);
      if (limit && file.size > limit) {
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
      field.classList.add("reading");
      var status = document.createElement("p");
      status.className = "help";
      status.setAttribute("role", "status");
      status.textContent = "Reading the photo… this takes a few seconds.";
      field.appendChild(status);
      if (input.form.requestSubmit) input.form.requestSubmit(button); else button.click();
    });
  });

  /* Tile picker: show how many tiles are picked. */
  var tileForm = document.querySelector(".tile-form");
  if (tileForm) {
    var counter = document.getElementById("tile-count");
    var showCount = function () {
      var picked = tileForm.querySelectorAll("input[name=tile]:checked");
      var pips = 0;
      picked.forEach(function (box) {
        box.value.split("-").forEach(function (half) { pips += Number(half); });
      });
      counter.textContent = picked.length + " tile" + (picked.length === 1 ? "" : "s") +
        " picked, " + pips + " pips before the blank rule.";
    };
    tileForm.addEventListener("change", showCount);
    showCount();
  }

  /* Setup: keep "as the preset (...)" labels and the deal preview current. */
  var setup = document.getElementById("setup-form");
  var presetData = document.getElementById("preset-values");
  if (setup && presetData) {
    var presets = JSON.parse(presetData.textContent);
    var words = function (value) {
      if (value === true) return "yes";
      if (value === false) return "no";
      if (typeof value === "object") return "custom";
      return String(value).replace(/_/g, " ");
    };
    var relabel = function () {
      var values = presets[setup.elements.preset.value] || presets.standard;
      setup.querySelectorAll("option[data-preset-label]").forEach(function (option) {
        var key = option.dataset.presetLabel;
        var shown = key === "set_max" ? "double-" + values[key] : words(values[key]);
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
