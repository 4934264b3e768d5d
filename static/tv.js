/* The table view (issue 10): follows the game by itself (live.js: server-
   sent events, or polling tv.json); shows
   the totals, the player to move, the last move and the turn's timer. A name
   breaks only between words: one whose longest word is wider than its card
   gets a smaller font (tv.css comes close; fitName makes it exact). */
(function () {
  "use strict";
  var root = document.querySelector("[data-tv]");
  var holder = document.querySelector("[data-tv-state]");
  if (!root || !holder) { return; }
  var state = JSON.parse(holder.textContent);
  var strings = JSON.parse(root.getAttribute("data-text") || "{}");
  var turnStarted = 0;

  function setTimer() {
    turnStarted = state.timer ? Date.now() - state.timer.elapsed * 1000 : 0;
    tick();
  }
  function clock(seconds) {
    var sign = seconds < 0 ? "-" : "";
    seconds = Math.abs(seconds);
    var s = seconds % 60;
    return sign + Math.floor(seconds / 60) + ":" + (s < 10 ? "0" : "") + s;
  }
  function tick() {
    var el = document.querySelector("[data-tv-timer]");
    if (!el) { return; }
    if (!state.timer) { el.hidden = true; return; }
    el.hidden = false;
    var elapsed = Math.max(0, Math.floor((Date.now() - turnStarted) / 1000));
    var limit = state.timer.seconds;
    if (limit) {
      var left = limit - elapsed;
      el.textContent = left > 0 ? clock(left) : strings.expired || clock(0);
      el.classList.toggle("expired", left <= 0);
    } else {
      el.textContent = clock(elapsed);
    }
  }

  /* Shrink a name's font until no word sticks out of its card: from the full
     size (--size), not tv.css's estimate, which errs on the small side. */
  function fitName(el) {
    el.style.fontSize = "var(--size)";
    for (var i = 0; i < 3 && el.scrollWidth > el.clientWidth + 1; i += 1) {
      var size = parseFloat(getComputedStyle(el).fontSize);
      el.style.fontSize = Math.floor(size * el.clientWidth / el.scrollWidth * 10) / 10 + "px";
    }
  }
  function fitNames() { root.querySelectorAll(".tv-name").forEach(fitName); }

  function show(next) {
    if (!next || next.key === state.key) { return; }
    var ended = next.status !== state.status;
    var seats = next.players.length !== state.players.length;
    state = next;
    document.dispatchEvent(new CustomEvent("sk:state", {detail: {state: next}}));
    // The final screen (or back from it) is drawn by the server, once the
    // final sentence has been said (speech.js).
    if (ended || seats) { (window.skAfterSpeech || function (go) { go(); })(function () { window.location.reload(); }); return; }
    next.players.forEach(function (p, i) {
      var card = root.querySelector('[data-tv-player="' + i + '"]');
      if (!card) { return; }
      var name = card.querySelector(".tv-name");
      if (name.textContent !== p.name) {
        name.textContent = p.name;
        name.style.setProperty("--word", String(Math.max.apply(null, p.name.split(/\s+/).map(function (w) { return w.length; }))));
        fitName(name);
      }
      card.querySelector("[data-tv-total]").textContent = p.score;
      card.classList.toggle("current", p.current);
      card.classList.toggle("excluded", p.excluded);
      if (p.current) { card.setAttribute("aria-current", "true"); } else { card.removeAttribute("aria-current"); }
    });
    document.querySelector("[data-tv-turn]").textContent = next.turn_line;
    document.querySelector("[data-tv-last]").textContent = next.last_line;
    document.querySelector("[data-tv-bag]").textContent = next.bag;
    root.setAttribute("data-tv-key", next.key);
    setTimer();
  }

  root.setAttribute("data-tv-key", state.key);
  fitNames();
  window.addEventListener("resize", fitNames);
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(fitNames); }
  setTimer();
  setInterval(tick, 1000);
  window.scorekeeper.follow(root, show);
})();
