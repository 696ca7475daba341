/* The referee page. */
import { drawStaticOverlays, keepPhotoBack, shrinkPhoto } from "./photo.js";

/* A fresh ruling gets the focus, so it is in view and read out at once. */
var ruling = document.getElementById("ruling");
if (ruling) ruling.focus();

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
