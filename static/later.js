/* Scripts a page fetches only once they are needed, so that a game page
   stays within 30 KB on the wire (benchmarks/bench_page.py): each is a bundle of its own
   (web/assets.py) named by the data-src of the element that needs it.
   - static/hints.js, when the hints are on for this game on this device
     (hints.js remembers it), or once their switch is turned on: hints.js
     then reads the switch as it is.
   - static/photo.js, once a photo is taken: the input keeps the photo, and
     its "change" is passed on to photo.js.
   - static/speech.js, on a device that turned the say-aloud switch on, or
     at the switch's first tap (passed on to it once it is there). This shows
     the switch where the browser can speak, and keeps the last turn a state
     said: speech.js speaks only moves newer than it. */
(function () {
  "use strict";
  var asked = {};
  function load(holder, then) {
    var url = holder && holder.getAttribute("data-src"), script;
    if (!url || asked[url]) { return; }
    asked[url] = script = document.createElement("script");
    script.src = url;
    script.onload = then || null;
    document.head.appendChild(script);
  }
  function remembered(key, value) {
    try { return localStorage.getItem(key) === value; } catch (e) { return false; }
  }

  function hints() {
    var section = document.querySelector("[data-hints]");
    if (section && remembered("sk-hints-" + section.getAttribute("data-game"), "1")) { load(section); }
  }
  document.addEventListener("change", function (ev) {
    var input = /** @type {Element} */ (ev.target), photo = input.closest && input.closest("[data-photo]");
    if (input.matches && input.matches("[data-hints-toggle]")) { load(input.closest("[data-hints]")); }
    if (!photo || !input.matches("[data-photo-input]") || asked[photo.getAttribute("data-src")]) { return; }
    load(photo, function () { input.dispatchEvent(new Event("change", {bubbles: true})); });
  });
  document.addEventListener("sk:main", hints);
  hints();

  if (!window.speechSynthesis || !window.SpeechSynthesisUtterance) { return; }
  var speech = window.skSpeech = {turn: null};
  function speechSwitch() { return /** @type {HTMLElement} */ (document.querySelector("[data-speech]")); }
  function show() {
    var button = speechSwitch();
    if (!button || asked[button.getAttribute("data-src")]) { return; }
    button.hidden = false;
    button.onclick = function () {
      button.onclick = null;
      // speech.js binds this same switch on its arrival: the tap is its.
      load(button, function () { button.click(); });
    };
  }
  document.addEventListener("sk:state", function (ev) { speech.turn = (ev.detail.state || {}).turn; });
  document.addEventListener("sk:main", show);
  if (remembered("scorekeeper.speech", "on")) { load(speechSwitch()); }
  show();
})();
