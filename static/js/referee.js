/* The referee page. */
import { drawStaticOverlays, keepPhotoBack, shrinkPhoto } from "./photo.js";

/* A fresh ruling gets the focus, so it is in view and read out at once. */
var ruling = document.getElementById("ruling");
if (ruling) ruling.focus();

/* After a photo, what was read is in view (the form's address names it too, for pages
   without this script; the focus makes a screen reader start there). */
var read = document.getElementById("photo-read");
if (read && !ruling) {
  read.scrollIntoView({block: "start"});
  read.focus({preventScroll: true});
}

/* On a first turn the trains nobody has played on are not started (dispute.py reads a train
   left as it is that way), and the first tile is laid against the engine. */
var firstTurn = document.querySelector("form.dispute-form input[name=first]");
if (firstTurn) {
  var showFirstTurn = function () {
    var first = firstTurn.checked;
    document.querySelectorAll("select.train-end").forEach(function (select) {
      var usual = select.querySelector('option[value=""]');
      usual.textContent = first ? usual.dataset.firstTurn : usual.dataset.usual;
      select.querySelector('option[value="started"]').hidden = !first;
      select.querySelector('option[value="none"]').hidden = first;
    });
  };
  firstTurn.addEventListener("change", function () {
    showFirstTurn();
    var engine = document.getElementById("engine");
    var against = document.querySelectorAll("input[name=act0-a]");
    var chosen = Array.prototype.some.call(against, function (radio) { return radio.checked; });
    if (firstTurn.checked && engine && !chosen) {
      against.forEach(function (radio) { radio.checked = radio.value === engine.value; });
    }
  });
  showFirstTurn();
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

drawStaticOverlays();
