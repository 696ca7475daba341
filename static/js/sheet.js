/* The scoresheet: the round form, and the live refresh of the sheet. */
import { showLocalTimes } from "./common.js";
import { sendPhotosWhenChosen } from "./photo.js";

/* Round entry: "went out" disables that player's points box. What was typed there is kept
   aside, not thrown away, and comes back when "went out" is unticked. */
function pointsBoxOf(element) {
  var fieldset = element.closest("fieldset");
  return fieldset && fieldset.querySelector("input[inputmode=numeric]");
}
function playerOf(element) {
  var legend = element.closest("fieldset").querySelector("legend");
  return legend ? (legend.dataset.name || legend.textContent.trim()) : "This player";
}
function syncWentOut(box) {
  var points = pointsBoxOf(box);
  if (!points) return;
  if (box.checked) {
    if (points.value) points.dataset.kept = points.value;
    points.value = "";
  } else {
    if (!points.value && points.dataset.kept) points.value = points.dataset.kept;
    delete points.dataset.kept;
  }
  points.disabled = box.checked;
}

/* Only one player goes out in a round: a second "went out" is said at that box the moment it
   is ticked (the server refuses it on save too, but that is too late and too far away). */
var wentOutBoxes = Array.prototype.slice.call(document.querySelectorAll("input.went-out"));
var tickedOrder = wentOutBoxes.filter(function (box) { return box.checked; });
function names(list) {
  if (list.length <= 2) return list.join(" and ");
  return list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
}
function sayTooManyOut() {
  tickedOrder = tickedOrder.filter(function (box) { return box.checked; });
  wentOutBoxes.forEach(function (box) {
    if (box.checked && tickedOrder.indexOf(box) < 0) tickedOrder.push(box);
  });
  wentOutBoxes.forEach(function (box, seat) {
    var id = "out-" + seat + "-error";
    var old = document.getElementById(id);
    var earlier = tickedOrder.slice(0, tickedOrder.indexOf(box));
    if (!box.checked || !earlier.length) {
      if (old) {
        old.remove();
        box.removeAttribute("aria-invalid");
        box.removeAttribute("aria-describedby");
      }
      return;
    }
    var others = earlier.map(playerOf);
    var message = names(others) + (others.length > 1 ? " are" : " is") +
      " already marked as going out; only one player goes out in a round (none when it is " +
      "blocked). Untick one of them.";
    if (old && old.textContent === message) return;
    if (old) old.remove();
    var said = document.createElement("p");
    said.className = "field-error";
    said.id = id;
    said.setAttribute("role", "alert");
    said.textContent = message;
    box.closest(".entry-row").insertAdjacentElement("afterend", said);
    box.setAttribute("aria-invalid", "true");
    box.setAttribute("aria-describedby", id);
  });
}
wentOutBoxes.forEach(function (box) {
  syncWentOut(box);
  box.addEventListener("change", function () {
    syncWentOut(box);
    sayTooManyOut();
  });
});
sayTooManyOut();

/* Round entry: a 0 typed without "went out" is asked about once per player: most often the
   player went out and "went out" was meant. */
var askedAboutZero = {};
wentOutBoxes.forEach(function (box, seat) {
  var points = pointsBoxOf(box);
  if (!points) return;
  points.addEventListener("change", function () {
    if (!/^\s*0+\s*$/.test(points.value) || box.checked || askedAboutZero[seat]) return;
    askedAboutZero[seat] = true;
    var name = playerOf(box);
    var question = document.createElement("div");
    question.className = "zero-question";
    question.setAttribute("role", "group");
    question.setAttribute("aria-labelledby", "zero-" + seat + "-question");
    var words = document.createElement("p");
    words.id = "zero-" + seat + "-question";
    words.textContent = "Did " + name + " go out?";
    question.appendChild(words);
    var answer = function (label, className, wentOut) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "button " + className;
      button.textContent = label;
      button.addEventListener("click", function () {
        question.remove();
        if (wentOut) {
          box.checked = true;
          box.dispatchEvent(new Event("change", {bubbles: true}));
          box.focus();
        } else {
          points.focus();
        }
      });
      question.appendChild(button);
    };
    answer("Yes, " + name + " went out", "primary", true);
    answer("No, 0 points", "secondary", false);
    box.closest(".entry-row").insertAdjacentElement("afterend", question);
  });
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
      values[input.name] = input.type === "checkbox" ? input.checked :
        input.value || input.dataset.kept || "";
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
        if (kept === true && !input.checked) input.checked = true;
      } else if (!input.value && typeof kept === "string" && kept) {
        input.value = kept;
      }
    });
  }
  /* A box "went out" disabled keeps its typed score aside: that is saved in the draft too. */
  wentOutBoxes.forEach(syncWentOut);
  sayTooManyOut();
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
      /* Marks a background copy: the server keeps the one-time "saved" messages for a real
         visit and never re-sends the session cookie (companion/sessions.py). */
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
    var headers = {Accept: "application/json", "X-Live-Refresh": "1"};
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
