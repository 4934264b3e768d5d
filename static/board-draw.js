/// <reference path="core.js" />
/// <reference path="board-hooks.js" />
/* The game board's drawing (one part of board.js's board `b`): the tiles of
   the game state, the last move's marks, the free cells (a dead one darker,
   with its name), the pending tiles, the marks of the chosen cell, of the
   keyboard cursor and of the cells an engine refusal names, and the other
   scripts' overlays. A redraw touches only what changed: every change of the
   DOM costs a slow phone a style pass over the board. Each tile is sk.tile's. */
/** board-draw.js's part of the board: @typedef {{boardParts: {draw: (b: any) => void}}} SkBoardDraw */
(function () {
  "use strict";
  var sk = /** @type {SkCore & SkBoard & SkBoardDraw} */ (window.scorekeeper), CELL = sk.boardParts.CELL, key = sk.boardParts.key;

  sk.boardParts.draw = function (b) {
    var layers = b.layers = /** @type {Object<string, Element>} */ ({});
    ["slots", "tiles", "marks", "over", "pend", "sel"].forEach(function (name) {
      layers[name] = sk.svg("g", {"class": "layer-" + name}, b.svg);
    });

    b.drawTile = function (parent, r, c, color, shape, cls) {
      // Each tile is named for screen readers: "red circle, row 2, column 3".
      var label = b.t(cls === "pending" ? "cell_pending" : "cell_tile",
                      {tile: (b.text.names || {})[color + " " + shape] || "", row: r, col: c});
      var el = sk.tile(color, shape, {cls: "t" + (cls ? " " + cls : ""), x: c * CELL, y: r * CELL,
                                      size: CELL, letter: b.letters[color] || "", label: label});
      parent.appendChild(el);
      return el;
    };
    function cellRect(parent, r, c, cls, inset) {
      inset = inset || 0;
      return sk.svg("rect", {x: c * CELL + inset, y: r * CELL + inset, width: CELL - 2 * inset,
                             height: CELL - 2 * inset, rx: 14, "class": cls}, parent);
    }

    var legend = b.main.querySelector("[data-dead-legend]");
    var drawnTiles = {};   // "r,c" -> [tile, element]
    var drawnSlots = {};   // "r,c" -> element
    b.drawBoard = function () {
      var keep = {};
      var frag = document.createDocumentFragment();
      b.tiles.forEach(function (t) {
        var k = key(t[0], t[1]);
        var had = drawnTiles[k];
        if (had && had[0][2] === t[2] && had[0][3] === t[3]) { keep[k] = had; return; }
        if (had) { had[1].remove(); }
        keep[k] = [t, b.drawTile(frag, t[0], t[1], t[2], t[3])];
      });
      Object.keys(drawnTiles).forEach(function (k) { if (!keep[k]) { drawnTiles[k][1].remove(); } });
      drawnTiles = keep;
      layers.tiles.appendChild(frag);
      layers.marks.textContent = "";
      b.lastCells().forEach(function (rc) {
        cellRect(layers.marks, rc[0], rc[1], "last", -3);
        cellRect(layers.marks, rc[0], rc[1], "last-inner", 2);  // tells it from pink tiles
      });
    };
    /* Free cells in line with the pending tiles, a little beyond the board:
       a move's tiles go in any order, so these take a tap too (drawn faint). */
    function lineCells(out) {
      var pending = b.pending;
      if (!pending.length) { return out; }
      var rows = pending.map(function (p) { return p.row; });
      var cols = pending.map(function (p) { return p.col; });
      var oneRow = rows.every(function (r) { return r === rows[0]; });
      var oneCol = cols.every(function (c) { return c === cols[0]; });
      function along(fixed, lo, hi, horizontal) {
        for (var i = lo - 2; i <= hi + 2; i++) {
          var r = horizontal ? fixed : i, c = horizontal ? i : fixed;
          if (!b.filled(r, c) && !out[key(r, c)]) { out[key(r, c)] = [r, c, "line"]; }
        }
      }
      if (oneRow) { along(rows[0], Math.min.apply(null, cols), Math.max.apply(null, cols), true); }
      if (oneCol) { along(cols[0], Math.min.apply(null, rows), Math.max.apply(null, rows), false); }
      return out;
    }
    function slotClass(k, cell) {
      return b.dead[k] ? "slot dead" : cell[2] === "line" ? "slot line" : "slot";
    }
    b.drawSlots = function () {
      var free = b.edit ? lineCells(b.slots()) : {};
      Object.keys(drawnSlots).forEach(function (k) {
        var cls = free[k] ? slotClass(k, free[k]) : "";
        if (!free[k] || drawnSlots[k].getAttribute("class") !== cls) { drawnSlots[k].remove(); delete drawnSlots[k]; }
      });
      Object.keys(free).forEach(function (k) {
        if (!drawnSlots[k]) {
          var rect = drawnSlots[k] = cellRect(layers.slots, free[k][0], free[k][1], slotClass(k, free[k]), 6);
          // A dead cell says what it is to a finger held on it or a mouse.
          if (b.dead[k]) { sk.svg("title", {}, rect).textContent = b.t("dead"); }
        }
      });
      var none = !Object.keys(b.dead).length;
      if (legend && legend.hidden !== none) { legend.hidden = none; }
    };
    var drawnPending = null, drawnMarks = null;  // what the layers show now
    b.drawEntry = function () {
      b.drawSlots();
      b.drawPending();
    };
    b.pendingDrawn = function () { drawnPending = null; };
    /* The entry without the free cells: the pending tiles and the marks. */
    b.drawPending = function () {
      if (b.pending.length || b.busy) { b.svg.setAttribute("data-busy", ""); }
      else { b.svg.removeAttribute("data-busy"); }
      var now = b.tilesKey(b.pending);
      if (now !== drawnPending || layers.pend.childElementCount !== 2 * b.pending.length) {
        drawnPending = now;
        layers.pend.textContent = "";
        b.pending.forEach(function (p) {
          b.drawTile(layers.pend, p.row, p.col, p.color, p.shape, "pending");
          cellRect(layers.pend, p.row, p.col, "pending-mark", 1);
        });
      }
      b.drawMarks();
    };
    b.drawMarks = function () {
      var marks = JSON.stringify([b.badCells, b.selected, b.cursor]);
      if (marks === drawnMarks) { return; }
      drawnMarks = marks;
      layers.sel.textContent = "";
      b.badCells.forEach(function (rc) { cellRect(layers.sel, rc[0], rc[1], "bad", -2); });
      if (b.selected) { cellRect(layers.sel, b.selected[0], b.selected[1], "selected", 2); }
      if (b.cursor) { cellRect(layers.sel, b.cursor[0], b.cursor[1], "cursor", -4); }
      if (b.badCells.length || b.svg.hasAttribute("data-bad")) {
        b.svg.setAttribute("data-bad", b.badCells.map(function (rc) { return key(rc[0], rc[1]); }).join(";"));
      }
    };
    b.drawOverlays = function () {
      layers.over.textContent = "";
      Object.keys(b.overlays).forEach(function (kind) {
        b.overlays[kind].forEach(function (rc) { cellRect(layers.over, rc[0], rc[1], "overlay-" + kind, 3); });
      });
    };
  };
})();
