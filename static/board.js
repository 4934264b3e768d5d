/// <reference path="core.js" />
/// <reference path="board-hooks.js" />
/// <reference path="board-draw.js" />
/// <reference path="board-view.js" />
/// <reference path="board-picker.js" />
/// <reference path="board-pending.js" />
/* The game page's board: draws the tiles from the game state, pans and zooms by
   touch, gathers a placing move by taps and shows what the server says of it.
   This file starts a board `b` on each <main> that has one (table.js swaps in
   the final screen, or back, without a reload) and wires its keys and buttons;
   the work is in its parts, each a file of its own, loaded before it
   (web/assets.py's game bundle):

     board-hooks.js    window.scorekeeper.board: overlay, propose, choices, on
     board-draw.js     drawing: tiles, free and dead cells, marks, overlays
     board-view.js     zoom and pan, fitting, gestures, keeping cells in sight
     board-picker.js   the server's options per cell, the picker
     board-pending.js  the pending move: taps, preview, Confirm, a new state

   The state each part reads and writes is on `b`: state, tiles, occupied,
   unseen, pending, selected, cursor, badCells, busy, view, dead. */
(function () {
  "use strict";
  var sk = /** @type {SkCore & SkBoard & SkBoardDraw & SkBoardView & SkBoardPicker & SkBoardPending} */ (window.scorekeeper);
  var parts = sk.boardParts;
  var stop = null;  // ends the board of the page swapped out

  function init(main) {
    var svg = main.querySelector("[data-board]");
    var holder = main.querySelector("[data-game-state]");
    if (!svg || !holder) { return; }
    var b = {
      main: main, svg: svg,
      // A set counted per colour (Qwirkle Cubes) counts pending tiles per colour too.
      perColor: svg.hasAttribute("data-supply-per-color"),
      // Colour-blind letters and every sentence come from the page, in its language.
      letters: sk.json(svg.getAttribute("data-letters")),
      text: sk.json(svg.getAttribute("data-text")),
      api: svg.getAttribute("data-api"),
      picker: main.querySelector("[data-picker]"),
      preview: main.querySelector("[data-preview]"),
      confirmBtn: main.querySelector("[data-confirm]"),
      removeBtn: main.querySelector("[data-remove]"),
      clearBtn: main.querySelector("[data-clear]"),
      pending: [], selected: null, cursor: null, badCells: [], busy: false, view: null
    };
    b.defaultText = b.preview ? b.preview.textContent : "";
    b.t = function (name, vars) { return sk.fill(b.text[name] || name, vars); };
    /* The board's tiles as [row, col, colour, shape], by cell, and the kinds unseen. */
    b.take = function (next) {
      b.state = next;
      b.tiles = next.board.map(function (t) { return [t.row, t.col, t.color, t.shape]; });
      b.occupied = {};
      b.tiles.forEach(function (tile) { b.occupied[tile[0] + "," + tile[1]] = tile; });
      sk.countLabel(svg, b.tiles.length);
      b.unseen = {};
      next.unseen.forEach(function (u) { b.unseen[u.color + " " + u.shape] = u.count; });
    };
    b.lastCells = function () {
      var last = b.state.last_move;
      return last && last.type === "place" ? last.tiles.map(function (t) { return [t.row, t.col]; }) : [];
    };
    b.take(JSON.parse(holder.textContent));
    b.edit = svg.hasAttribute("data-edit") && b.state.status === "active";
    var unhook = parts.hooks(b);
    parts.draw(b);
    parts.view(b);
    parts.picker(b);
    parts.pending(b);
    keys(b);

    document.addEventListener("sk:state", b.onState);
    stop = function () {
      document.removeEventListener("sk:state", b.onState);
      if (b.sizer) { b.sizer.disconnect(); }
      unhook();
    };
    if (b.confirmBtn) { sk.onTap(b.confirmBtn.parentNode, "[data-confirm]", b.confirmMove); }
    if (b.removeBtn) { b.removeBtn.addEventListener("click", function () { b.clear(false); }); }
    if (b.clearBtn) { b.clearBtn.addEventListener("click", function () { b.clear(true); }); }

    b.drawBoard();
    b.drawEntry();
    b.drawOverlays();
    if (!b.restoreView()) { b.fit(); }
    svg.setAttribute("data-drawn", String(b.tiles.length));
    if (window.performance && performance.mark) { performance.mark("board-drawn"); }
    b.askFirstOptions();
  }

  /* Keyboard: arrows move a cursor over the board, Enter or Space taps its
     cell and puts the focus on the picker's first tile that fits. */
  function keys(b) {
    var svg = b.svg;
    var spoken = b.main.querySelector("[data-board-cursor]");
    function cellName(r, c) {
      var names = b.text.names || {};
      var at = {row: r, col: c};
      var tile = b.occupied[r + "," + c];
      if (tile) { return b.t("cell_tile", Object.assign({tile: names[tile[2] + " " + tile[3]] || ""}, at)); }
      var i = b.isPending(r, c);
      if (i >= 0) { return b.t("cell_pending", Object.assign({tile: names[b.pending[i].color + " " + b.pending[i].shape] || ""}, at)); }
      if (b.dead[r + "," + c]) { return b.t("cell_dead", at); }
      return b.t(b.slots()[r + "," + c] ? "cell_free" : "cell_empty", at);
    }
    function startCursor() {
      if (b.selected) { return b.selected.slice(); }
      var focus = b.focusCells();
      var free = b.slots();
      var best = null, bestD = Infinity;
      var from = focus.length ? focus[focus.length - 1] : [0, 0];
      Object.keys(free).forEach(function (k) {
        var d = Math.abs(free[k][0] - from[0]) + Math.abs(free[k][1] - from[1]);
        if (d < bestD && !b.dead[k]) { bestD = d; best = free[k]; }
      });
      return (best || from).slice();
    }
    b.showCursor = function () {
      b.drawMarks();
      if (spoken) { spoken.textContent = cellName(b.cursor[0], b.cursor[1]); }
      // The cursor's cell on screen, at a size one can see.
      b.showCell(b.cursor[0], b.cursor[1]);
    };
    svg.addEventListener("keydown", function (ev) {
      var moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
      if (!b.edit) { return; }
      if (!b.cursor) { b.cursor = startCursor(); }
      if (moves[ev.key]) {
        b.cursor = [b.cursor[0] + moves[ev.key][0], b.cursor[1] + moves[ev.key][1]];
      } else if (ev.key === "Enter" || ev.key === " ") {
        b.focusPicker = !b.filled(b.cursor[0], b.cursor[1]);
        b.tap(b.cursor[0], b.cursor[1]);
      } else if (ev.key === "Escape" && b.selected) {
        b.selected = null;
        b.closePicker();
      } else { return; }
      ev.preventDefault();
      b.showCursor();
    });
    svg.addEventListener("focus", function () {
      // From the keyboard only: a finger or a mouse on the board is no cursor.
      var keyboard = true;
      try { keyboard = svg.matches(":focus-visible"); } catch (e) { keyboard = true; }
      if (b.edit && !b.cursor && keyboard) { b.cursor = startCursor(); b.showCursor(); }
    });
  }

  sk.onMain(function (main) {
    if (stop) { stop(); stop = null; }
    if (main && main.querySelector("[data-board]")) { init(main); }
  });
})();
