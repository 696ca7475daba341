/* Photos: shrunk on the phone before they are sent, kept in the tab to be shown back with
   what was read drawn over them. Used by the round form, the tile picker and the referee. */

/* A photo is shrunk on the phone before it is sent: its long side to what the photo reader
   uses (vision.pipeline.READ_LONG_SIDE), as a JPEG, turned upright by its EXIF orientation.
   Resolves to null when the photo should go as it is (small already, or this browser can't
   decode it, e.g. HEIC outside Safari): the full file is the fallback. */
var SEND_LONG_SIDE = 2000;
var SHRINK_MAX_PIXELS = 50000000; /* vision.decode.MAX_PIXELS: a bigger photo goes as it is,
                                     for the server to refuse in plain words */
export function shrinkPhoto(file) {
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
export var PHOTO_BACK_PREFIX = "photo-back:";
var PHOTO_BACK_MAX_CHARS = 3500000;
export function keepPhotoBack(key, blob) {
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
export function sendPhotosWhenChosen() {
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
}

/* The photo back with what was read drawn on it (templates/_photo_overlay.html): the kept
   photo under the server's outlines, or the outlines alone when the photo can't be shown.
   `shown` (optional) maps a tile's number to its current reading, or to null once removed.
   Kept free of the picker so that other pages can draw a reading too. */
export function drawPhotoOverlay(figure, data, shown) {
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

/* Any other photo overlay on the page (the picker draws its own as the chips change). */
export function drawStaticOverlays() {
  document.querySelectorAll(".photo-overlay").forEach(function (figure) {
    var script = figure.nextElementSibling;
    if (figure.dataset.drawn || !script || !script.classList.contains("photo-overlay-data")) return;
    drawPhotoOverlay(figure, JSON.parse(script.textContent));
  });
}
