/* Setting up a game and changing its house rules. */

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


/* Setup: tapping someone from the book fills the next empty seat without reloading the page;
   a person already in a seat can't be tapped again (clear their box to free them). */
if (setup) {
  var chips = setup.querySelectorAll(".person-chip");
  var seatInputs = function () {
    return Array.prototype.slice.call(setup.querySelectorAll("input[name^='player-']"));
  };
  var key = function (name) { return name.trim().replace(/\s+/g, " ").toLowerCase(); };
  var markSeated = function () {
    var seated = {};
    seatInputs().forEach(function (input) { if (input.value.trim()) seated[key(input.value)] = true; });
    chips.forEach(function (chip) { chip.disabled = Boolean(seated[key(chip.dataset.person)]); });
  };
  chips.forEach(function (chip) {
    chip.addEventListener("click", function (event) {
      var empty = seatInputs().find(function (input) { return !input.value.trim(); });
      if (!empty) return;  // the server says every seat is taken
      event.preventDefault();
      var more = empty.closest("details");
      if (more) more.open = true;
      empty.value = chip.dataset.person;
      empty.dispatchEvent(new Event("input", {bubbles: true}));
      markSeated();
      // The tapped button is now disabled: keep focus on the next person to pick, if any.
      var nextChip = Array.prototype.find.call(chips, function (other) { return !other.disabled; });
      (nextChip || empty).focus();
    });
  });
  setup.addEventListener("input", markSeated);
}
