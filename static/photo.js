/// <reference path="core.js" />
/// <reference path="net.js" />
/// <reference path="board-hooks.js" />
/* A photo of the board as the move (CONTRACT §12): the camera button's photo goes
   to the server, which reads the new tiles; they join the pending move through
   the board's hook (window.scorekeeper.board.propose), so the usual preview,
   fixing by tap and Confirm follow. Tiles the reader was unsure of are marked
   on the board (overlay "photo-low") and named in the status line for screen
   readers; the marks go once a tile is changed or the move is stored. Every
   sentence comes from the page or the server's answer, in the page's language.
   Listens on the document: table.js may swap <main> after a move. A bundle of
   its own: static/later.js fetches it once a photo is taken (the game page's 30 KB). */
(function () {
  "use strict";
  var KIND = "photo-low";
  var unsure = [];  // [[row, col, colour, shape], ...] proposed and still as read

  var sk = /** @type {SkCore & SkNet & SkBoard} */ (window.scorekeeper);
  function hook() { return sk.board; }
  /* The status line: `lines` shown, `quiet` read by screen readers only (the
     board shows the same by its marks), so the sticky entry stays low and
     leaves the board's cells free to tap. */
  function show(box, lines, cls, quiet) {
    var status = box.querySelector("[data-photo-status]");
    if (!status) { return; }
    status.textContent = "";
    status.className = "photo-status" + (cls ? " " + cls : "");
    lines.filter(Boolean).forEach(function (line, i) {
      var span = document.createElement("span");
      span.textContent = (i ? " " : "") + line;
      status.appendChild(span);
    });
    (quiet || []).forEach(function (line) {
      var span = document.createElement("span");
      span.className = "sr-only";
      span.textContent = " " + line;
      status.appendChild(span);
    });
  }
  function mark() {
    var board = hook();
    if (board) { board.overlay(unsure.map(function (t) { return [t[0], t[1]]; }), KIND); }
  }

  function upload(box, input) {
    var file = input.files && input.files[0];
    if (!file) { return; }
    var text = sk.json(box.getAttribute("data-text"));
    var body = new FormData();
    body.append("image", file);
    input.disabled = true;
    box.setAttribute("aria-busy", "true");
    show(box, [text.reading], "busy");
    sk.net.send("POST", box.getAttribute("data-url"), body).then(function (res) {
      if (res.status === 200 && res.data.tiles) {
        propose(box, res.data);
      } else if (res.status === 503) {
        show(box, [text.busy], "error");
      } else {
        var error = (res.data && res.data.error) || {};
        show(box, [error.message || sk.fill(text.failed, {status: res.status})], "error");
      }
    }, function () {
      show(box, [text.offline], "error");
    }).then(function () {
      input.disabled = false;
      box.removeAttribute("aria-busy");
      input.value = "";  // the same photo may be chosen again
    });
  }

  function propose(box, data) {
    var board = hook();
    var tiles = data.tiles.map(function (t) { return [t.row, t.col, t.color, t.shape]; });
    unsure = [];
    if (tiles.length && board) {
      // The photo's move replaces whatever was tapped so far.
      var clear = /** @type {HTMLButtonElement} */ (document.querySelector("[data-clear]"));
      if (clear && !clear.disabled) { clear.click(); }
      board.propose(tiles);
      unsure = data.tiles.filter(function (t) { return t.low; })
        .map(function (t) { return [t.row, t.col, t.color, t.shape]; });
      // A tap on an unsure tile opens the picker with the reader's likely
      // kinds first (best first): fixed in two taps. Without "likely", the
      // tile's own reading.
      board.choices(data.tiles.filter(function (t) { return t.low; }).map(function (t) {
        return [t.row, t.col, t.likely && t.likely.length ? t.likely : [[t.color, t.shape]]];
      }));
    }
    mark();
    var labels = data.tiles.filter(function (t) { return t.low && t.label; })
      .map(function (t) { return t.label + "."; });
    show(box, [data.text, data.warning], data.warning ? "warning" : "", labels);
    proposed = tiles.map(function (t) { return t.join("|"); }).sort().join(";");
  }
  var proposed = null;  // the photo's move as proposed, until the player changes it

  document.addEventListener("change", function (ev) {
    var input = /** @type {HTMLInputElement} */ (ev.target);
    if (!input.matches || !input.matches("[data-photo-input]")) { return; }
    var box = input.closest("[data-photo]");
    if (box) { upload(box, input); }
  });

  var board = hook();
  if (board) {
    // A tile fixed by a tap is no longer the reader's guess: its mark goes.
    board.on("pending", function (pending) {
      var now = {};
      (pending || []).forEach(function (p) { now[p.join("|")] = true; });
      var still = unsure.filter(function (t) { return now[t.join("|")]; });
      if (still.length !== unsure.length) { unsure = still; mark(); }
      // Once the player changes the move, the preview line speaks for it: the
      // photo's sentences go (a warning about the stored board stays).
      var key = Object.keys(now).sort().join(";");
      var box = document.querySelector("[data-photo]");
      if (proposed !== null && key !== proposed && box) {
        proposed = null;
        var status = box.querySelector("[data-photo-status]");
        if (status && !status.classList.contains("warning")) { show(box, [], ""); }
      }
    });
    board.on("confirmed", function () {
      unsure = [];
      board.choices([]);
      mark();
      var box = document.querySelector("[data-photo]");
      if (box) { show(box, [], ""); }
    });
  }
})();
