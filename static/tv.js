/// <reference path="core.js" />
/// <reference path="live.js" />
/* The table view: follows the game by itself (live.js: server-
   sent events, or polling tv.json); shows the totals, the live board (its
   tiles drawn by core.js's sk.tile, the last move marked), the player to
   move, the last move and the turn's clock (labelled: the thinking time
   left, or the time this turn has taken). A name
   breaks only between words: one whose longest word is wider than its card
   gets a smaller font (tv.css comes close; fitName makes it exact). */
(function () {
  "use strict";
  var CELL = 100;
  var sk = /** @type {SkCore & SkLive} */ (window.scorekeeper);
  var root = document.querySelector("[data-tv]");
  var holder = document.querySelector("[data-tv-state]");
  if (!root || !holder) { return; }
  var state = JSON.parse(holder.textContent);
  var strings = sk.json(root.getAttribute("data-text"));
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
    var box = /** @type {HTMLElement} */ (document.querySelector("[data-tv-clock]"));
    if (!el || !box) { return; }
    box.hidden = !state.timer;
    if (!state.timer) { return; }
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
  function fitNames() { root.querySelectorAll(".tv-name").forEach(fitName); fitStatus(); }
  /* A TV cannot scroll: shrink the status lines (tv.css's --fit) until the
     turn, the last move and the bag fit in what the scores leave. */
  function fitStatus() {
    var box = /** @type {HTMLElement | null} */ (document.querySelector(".tv-status"));
    if (!box) { return; }
    box.style.removeProperty("--fit");
    var fit = 1;
    for (var i = 0; i < 6 && box.scrollHeight > box.clientHeight + 1 && fit > 0.3; i += 1) {
      fit *= Math.sqrt(box.clientHeight / box.scrollHeight) * 0.97;
      box.style.setProperty("--fit", fit.toFixed(3));
    }
  }

  /* The board as it stands, fitted to its frame with half a cell around it. */
  function drawBoard() {
    var svg = document.querySelector("[data-tv-board]");
    if (!svg) { return; }
    var tiles = state.board || [];
    svg.textContent = "";
    var r0 = 0, r1 = 0, c0 = 0, c1 = 0;
    tiles.forEach(function (t, i) {
      r0 = i ? Math.min(r0, t[0]) : t[0]; r1 = i ? Math.max(r1, t[0]) : t[0];
      c0 = i ? Math.min(c0, t[1]) : t[1]; c1 = i ? Math.max(c1, t[1]) : t[1];
      svg.appendChild(sk.tile(t[2], t[3], {cls: "t", x: t[1] * CELL, y: t[0] * CELL, size: CELL}));
    });
    (state.last_cells || []).forEach(function (rc) {
      sk.svg("rect", {"class": "last", x: rc[1] * CELL - 3, y: rc[0] * CELL - 3, width: CELL + 6,
                      height: CELL + 6, rx: 14}, svg);
    });
    var w = Math.max(c1 - c0 + 2, 5), h = Math.max(r1 - r0 + 2, 5);
    svg.setAttribute("viewBox", [((c0 + c1 + 1) / 2 - w / 2) * CELL, ((r0 + r1 + 1) / 2 - h / 2) * CELL,
                                 w * CELL, h * CELL].join(" "));
    svg.setAttribute("data-tiles", String(tiles.length));
    sk.countLabel(svg, tiles.length);
  }

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
      var name = /** @type {HTMLElement} */ (card.querySelector(".tv-name"));
      if (name.textContent !== p.name) {
        name.textContent = p.name;
        name.style.setProperty("--word", String(Math.max.apply(null, p.name.split(/\s+/).map(function (w) { return w.length; }))));
        fitName(name);
      }
      card.querySelector("[data-tv-total]").textContent = p.score;
      card.classList.toggle("current", p.current);
      card.classList.toggle("excluded", p.excluded);
      /** @type {HTMLElement} */ (card.querySelector("[data-tv-left]")).hidden = !p.left;
      if (p.current) { card.setAttribute("aria-current", "true"); } else { card.removeAttribute("aria-current"); }
    });
    document.querySelector("[data-tv-turn]").textContent = next.turn_line;
    document.querySelector("[data-tv-last]").textContent = next.last_line;
    document.querySelector("[data-tv-bag]").textContent = next.bag;
    root.setAttribute("data-tv-key", next.key);
    drawBoard();
    fitStatus();
    setTimer();
  }

  root.setAttribute("data-tv-key", state.key);
  drawBoard();
  fitNames();
  window.addEventListener("resize", fitNames);
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(fitNames); }
  setTimer();
  setInterval(tick, 1000);
  sk.follow(root, show);
})();
