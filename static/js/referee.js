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
  var layAgainstEngine = function () {
    var engine = document.getElementById("engine");
    var against = document.querySelectorAll("input[name=act0-a]");
    var chosen = Array.prototype.some.call(against, function (radio) { return radio.checked; });
    if (firstTurn.checked && engine && !chosen) {
      against.forEach(function (radio) { radio.checked = radio.value === engine.value; });
    }
  };
  firstTurn.addEventListener("change", function () {
    showFirstTurn();
    layAgainstEngine();
  });
  /* Ticked before this script ran (a slow phone): the same as a tick now. */
  showFirstTurn();
  layAgainstEngine();
}

/* Referee: the photo sent is kept in the tab too (shrunk like any other), so the page
   that comes back can show the tiles in dispute outlined on it. */
document.querySelectorAll("form.dispute-form").forEach(function (form) {
  form.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (!button || button.name !== "photo-target" || form.dataset.photoKept) return;
    var table = button.value === "table";
    var input = form.querySelector("input[type=file][name=" + (table ? "table-photo" : "photo") + "]");
    var file = input && input.files && input.files[0];
    if (!file || !form.requestSubmit) return;
    event.preventDefault();
    /* The table's photo is kept apart from the hand's: both may be on one page. */
    var key = new URL(button.formAction, window.location.href).pathname + (table ? "?table" : "");
    shrinkPhoto(file).then(function (small) { return small || file; }, function () { return file; })
      .then(function (sent) { return keepPhotoBack(key, sent); })
      .then(function () {
        form.dataset.photoKept = "1";
        form.requestSubmit(button);
        delete form.dataset.photoKept;
      });
  });
});

/* A table photo is read as soon as it is taken (the button is for pages without this
   script). */
var tablePhoto = document.getElementById("table-photo");
var tableRead = document.querySelector("button.table-read-button");
if (tablePhoto && tableRead) {
  tablePhoto.addEventListener("change", function () {
    if (!tablePhoto.files || !tablePhoto.files.length || !tableRead.form.requestSubmit) return;
    var status = document.createElement("p");
    status.className = "help";
    status.setAttribute("role", "status");
    status.textContent = "Reading the table… this takes a few seconds.";
    tablePhoto.closest(".photo-field").appendChild(status);
    tableRead.form.requestSubmit(tableRead);
  });
}

/* Whose train is whose: a train's owner set, the page comes back with the other trains
   following in seat order and their ends moved to their owners' rows. */
var ownersButton = document.querySelector("button.owners-button");
if (ownersButton && ownersButton.form.requestSubmit) {
  ownersButton.hidden = true;
  var ownersSet = ownersButton.form.querySelector("input[name=owners-set]");
  document.querySelectorAll("select.train-owner").forEach(function (select) {
    select.addEventListener("change", function () {
      var set = ownersSet.value.split(" ").filter(Boolean);
      if (set.indexOf(select.dataset.train) < 0) set.push(select.dataset.train);
      ownersSet.value = set.join(" ");
      ownersButton.form.requestSubmit(ownersButton);
    });
  });
}

/* Tapping a train on the photo goes to its "Whose is it?" select and opens it. */
document.querySelectorAll(".table-overlay .train-line").forEach(function (line) {
  line.addEventListener("click", function () {
    var select = document.getElementById("owner-" + (Number(line.dataset.train) - 1));
    if (!select) return;
    select.scrollIntoView({block: "center"});
    select.focus({preventScroll: true});
    try { if (select.showPicker) select.showPicker(); } catch (error) { /* focus is enough */ }
  });
});

drawStaticOverlays();
