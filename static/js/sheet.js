/* The scoresheet: the round form, and the live refresh of the sheet. */
import { showLocalTimes } from "./common.js";
import { sendPhotosWhenChosen } from "./photo.js";

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

sendPhotosWhenChosen();

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
