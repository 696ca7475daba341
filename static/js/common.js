/* Every page: small progressive enhancements. Every page works without any script; each
   page's own module (sheet.js, picker.js, referee.js, setup.js) imports what it needs. */

document.documentElement.classList.add("js");

/* Times: the server writes them in UTC; show them in the phone's own time zone. */
export function showLocalTimes(root) {
  root.querySelectorAll("time[datetime]").forEach(function (element) {
    var moment = new Date(element.getAttribute("datetime"));
    if (isNaN(moment.getTime())) return;
    element.textContent = moment.toLocaleString(undefined, {
      day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
    });
  });
}
showLocalTimes(document);

/* Ask before destructive buttons. */
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (form.classList && form.classList.contains("js-confirm")) {
    if (!window.confirm(form.dataset.confirm || "Are you sure?")) event.preventDefault();
  }
});
