/* The thinking-time countdown of table discipline (RULES §7): counts down from the
   moment the turn started, beeps and vibrates at zero, and then shows the button
   that records the timeout penalty (one tap, through the page's penalty form).
   It keeps the elapsed seconds on its element (data-thinking) and in every
   input[data-thinking], so a move can carry its thinking time. Attached by
   [data-countdown]; it follows the element when the page refreshes its main. */
(function () {
  "use strict";
  var TICK_MS = 250;
  var MAX_SECONDS = 86400;  // the longest thinking time a move may carry
  var clock = null;  // {el, seconds, elapsed, start, expired}
  var audio = null;

  /* Browsers start sound only after a tap: open the audio context on the first one. */
  function unlockAudio() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) { return; }
    try {
      if (!audio) { audio = new Ctx(); }
      if (audio.state === "suspended" && audio.resume) { audio.resume(); }
    } catch (e) { audio = null; }
  }
  document.addEventListener("pointerdown", unlockAudio, true);
  document.addEventListener("keydown", unlockAudio, true);

  function beep() {
    unlockAudio();
    if (!audio) { return; }
    try {
      [0, 0.35].forEach(function (at) {
        var osc = audio.createOscillator();
        var gain = audio.createGain();
        osc.type = "square";
        osc.frequency.value = 880;
        gain.gain.value = 0.15;
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.start(audio.currentTime + at);
        osc.stop(audio.currentTime + at + 0.25);
      });
    } catch (e) { /* no sound on this device: the screen still says it */ }
  }

  function vibrate() {
    if (navigator.vibrate) {
      try { navigator.vibrate([300, 120, 300]); } catch (e) { /* not allowed */ }
    }
  }

  function format(seconds) {
    var s = Math.max(0, seconds);
    var rest = s % 60;
    return Math.floor(s / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function attach(el) {
    var text = {};
    try { text = JSON.parse(el.getAttribute("data-text") || "{}"); } catch (e) { text = {}; }
    clock = {
      el: el,
      text: text,
      seconds: parseInt(el.getAttribute("data-seconds"), 10) || 0,
      elapsed: parseInt(el.getAttribute("data-elapsed"), 10) || 0,
      start: Date.now(),
      expired: false
    };
  }

  function expire(c) {
    c.expired = true;
    c.el.classList.add("expired");
    c.el.setAttribute("data-expired", "");
    var label = c.el.querySelector(".countdown-label");
    if (label && c.text.expired) { label.textContent = c.text.expired; }
    var tap = c.el.querySelector("[data-countdown-tap]");
    if (tap) { tap.hidden = false; }
    beep();
    vibrate();
  }

  function tick() {
    var el = document.querySelector("[data-countdown]");
    if (!el) { clock = null; return; }
    if (!clock || clock.el !== el) { attach(el); }
    var c = clock;
    var elapsed = c.elapsed + Math.floor((Date.now() - c.start) / 1000);
    var thinking = String(Math.min(elapsed, MAX_SECONDS));
    el.setAttribute("data-thinking", thinking);
    var fields = /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("input[data-thinking]"));
    for (var i = 0; i < fields.length; i++) { fields[i].value = thinking; }
    var left = el.querySelector("[data-countdown-left]");
    var shown = format(c.seconds - elapsed);
    if (left && left.textContent !== shown) { left.textContent = shown; }
    if (!c.expired && elapsed >= c.seconds) { expire(c); }
  }

  function start() {
    tick();
    setInterval(tick, TICK_MS);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); }
  else { start(); }
})();
