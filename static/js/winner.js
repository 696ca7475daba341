/* The winner card: share the picture and its text from the phone's share sheet (Web Share API
   with a file), or, where the browser can't share files, offer the download and a copy button.
   Without script the download link and the text are there already. */
var box = document.getElementById("share-card");
var shareButton = document.getElementById("share-button");
var copyButton = document.getElementById("copy-button");
var status = document.getElementById("share-status");
var textBox = document.getElementById("share-text");

function say(words) { if (status) status.textContent = words; }

function cardFile() {
  return fetch(box.dataset.card, {credentials: "same-origin"})
    .then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.blob();
    })
    .then(function (blob) { return new File([blob], box.dataset.file, {type: "image/png"}); });
}

function canShareFiles(file) {
  return typeof navigator.share === "function" && typeof navigator.canShare === "function" &&
    navigator.canShare({files: [file]});
}

if (box && shareButton) {
  shareButton.closest(".js-only").hidden = false;
  shareButton.addEventListener("click", function () {
    cardFile()
      .then(function (file) {
        if (!canShareFiles(file)) {
          say("This browser can't share pictures: download the picture and copy the text below.");
          document.getElementById("share-fallback").scrollIntoView({block: "nearest"});
          return null;
        }
        return navigator.share({files: [file], text: textBox.value, title: "Mexican Train"})
          .then(function () { say("Shared."); })
          .catch(function (error) {
            if (error && error.name === "AbortError") return;
            say("Sharing didn't work: download the picture and copy the text below.");
          });
      })
      .catch(function () { say("The picture could not be loaded; check the connection and try again."); });
  });
}

if (copyButton && textBox) {
  copyButton.hidden = false;
  copyButton.addEventListener("click", function () {
    var done = function () { say("Text copied."); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(textBox.value).then(done, function () {
        textBox.select();
        say("Select the text and copy it.");
      });
    } else {
      textBox.select();
      say(document.execCommand && document.execCommand("copy") ? "Text copied." : "Select the text and copy it.");
    }
  });
}
