/* Says the score aloud: after each move, the device speaks the
   move in the page's language with the browser's own speechSynthesis
   ("Anna: 12 points, Qwirkle!"), and at the end the winner and the totals.

   The sentences come from the server (text.py, through the catalogs): each
   state carries its "spoken" sentence (the game page's in last_move, the TV's
   at the top). This script only listens for the "sk:state" event table.js and
   tv.js send with every new state, whoever entered the move; it speaks when
   the state has more moves than the last one it saw (not for an undo or a
   rename). The switch is off until turned on, and remembered per device in
   localStorage. Chrome speaks only after a user gesture, so the switch's own
   tap says a first short sentence. A device with no voice for the page's
   language says so once and speaks with the nearest voice.

   A bundle of its own: static/later.js loads it only on a device that
   turned the switch on, or on the switch's first tap. */
(function () {
  "use strict";
  var KEY = "scorekeeper.speech";
  var synth = window.speechSynthesis;
  if (!synth || !window.SpeechSynthesisUtterance) { return; }
  var strings = {};
  var turn = null;
  var warned = false;
  var pending = 0;
  var waiting = [];

  function wanted() {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }
  function remember(on) {
    try {
      if (on) { localStorage.setItem(KEY, "on"); } else { localStorage.removeItem(KEY); }
    } catch (e) { /* private mode: the switch still works on this page */ }
  }
  function fill(template, vars) {
    var out = template || "";
    Object.keys(vars).forEach(function (k) { out = out.split("%(" + k + ")s").join(vars[k]); });
    return out;
  }

  /* The voice for the page's language: the exact tag (nl-NL), else the same
     language elsewhere (nl-BE), else the device's default. */
  function voiceFor(tag) {
    var voices = synth.getVoices() || [];
    var base = tag.split("-")[0].toLowerCase();
    var norm = function (v) { return (v.lang || "").replace("_", "-").toLowerCase(); };
    var exact = voices.filter(function (v) { return norm(v) === tag.toLowerCase(); })[0];
    if (exact) { return {voice: exact, near: false}; }
    var same = voices.filter(function (v) { return norm(v).split("-")[0] === base; })[0];
    if (same) { return {voice: same, near: false}; }
    var fallback = voices.filter(function (v) { return v.default; })[0] || voices[0] || null;
    return {voice: fallback, near: voices.length > 0};
  }
  function note(message) {
    var el = /** @type {HTMLElement} */ (document.querySelector("[data-speech-note]"));
    if (!el) { return; }
    el.textContent = message;
    el.hidden = !message;
  }
  /* Once per device and language: no voice of its own, the nearest instead. */
  function warnOnce(found) {
    if (!found.near || warned) { return; }
    warned = true;
    var key = KEY + ".warned." + strings.lang;
    try { if (localStorage.getItem(key)) { return; } localStorage.setItem(key, "1"); } catch (e) { /* shown anyway */ }
    note(fill(strings.no_voice, {language: strings.language || strings.lang,
                                 voice: found.voice ? found.voice.name + " (" + found.voice.lang + ")" : "–"}));
  }

  function speak(sentence) {
    if (!sentence) { return; }
    var utter = new SpeechSynthesisUtterance(sentence);
    utter.lang = strings.lang || document.documentElement.lang || "en";
    var found = voiceFor(utter.lang);
    if (found.voice) { utter.voice = found.voice; }
    warnOnce(found);
    pending += 1;
    var done = function () {
      pending = Math.max(0, pending - 1);
      if (!pending) { waiting.splice(0).forEach(function (go) { go(); }); }
    };
    utter.onend = done;
    utter.onerror = function (ev) {
      // Chrome refuses to speak on a page nobody has tapped yet (a TV after
      // a reload): say what unblocks it.
      if (ev && ev.error === "not-allowed") { note(strings.blocked); }
      done();
    };
    synth.speak(utter);
  }

  /* Run `go` once nothing is being said (the TV reloads for its final screen
     only after the final sentence). */
  window.skAfterSpeech = function (go) {
    if (!pending || !wanted()) { go(); return; }
    waiting.push(go);
    setTimeout(function () { if (waiting.indexOf(go) >= 0) { waiting.splice(waiting.indexOf(go), 1); go(); } }, 15000);
  };

  // Any tap on the page lets the browser speak: the note has done its job.
  document.addEventListener("pointerdown", function () {
    var el = document.querySelector("[data-speech-note]");
    if (el && el.textContent === strings.blocked) { note(""); }
  });

  function bind(button) {
    if (!button || button.getAttribute("data-speech-bound")) { return; }
    button.setAttribute("data-speech-bound", "1");
    try {
      strings = Object.assign(JSON.parse(button.getAttribute("data-text") || "{}"),
                              JSON.parse(button.getAttribute("data-voice") || "{}"));
    } catch (e) { strings = {}; }
    button.hidden = false;
    button.setAttribute("aria-pressed", wanted() ? "true" : "false");
    button.addEventListener("click", function () {
      var on = !wanted();
      remember(on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
      synth.cancel();
      if (on) { speak(strings.on); } else { note(""); }
    });
  }
  function startTurn() {
    // A state may have come while this script was on its way (later.js).
    var seen = window.skSpeech && window.skSpeech.turn;
    if (typeof seen === "number") { turn = seen; return; }
    var holder = document.querySelector("[data-game-state], [data-tv-state]");
    if (!holder) { return; }
    try { turn = JSON.parse(holder.textContent).turn; } catch (e) { turn = null; }
  }

  document.addEventListener("sk:state", function (ev) {
    var state = ev.detail && ev.detail.state;
    if (!state || typeof state.turn !== "number") { return; }
    var fresh = turn !== null && state.turn > turn;
    turn = state.turn;
    if (!fresh || !wanted()) { return; }
    speak(state.last_move ? state.last_move.spoken : state.spoken);
  });
  // The final screen replaces <main> (table.js): its switch is a new element.
  document.addEventListener("sk:main", function () { bind(document.querySelector("[data-speech]")); });
  bind(document.querySelector("[data-speech]"));
  startTurn();
})();
