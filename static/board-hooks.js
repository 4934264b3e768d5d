/* The board's hooks: what other scripts (hints.js, photo.js, speech.js, ...)
   may do with the game board without touching its code. Everything lives on
   window.scorekeeper.board and outlives a redraw and table.js's swap of <main>:

   overlay(cells, kind)   mark cells [[row, col], ...] with class "overlay-<kind>"
                          (kind: letters, digits, "-"); [] clears that kind.
                          Its owner clears it; app.css gives any kind a look.
   propose(tiles)         put tiles [[row, col, colour, shape], ...] into the
                          pending move as if tapped; false when none went in
                          (no edit right, a move being sent, cells taken).
   choices(list)          [[row, col, [[colour, shape], ...]], ...]: a tap on
                          that pending tile takes it back and opens the picker
                          with those kinds first, in that order (photo.js: a
                          tile the reader was unsure of); [] forgets them.
   on(event, fn)          hear about the board:
     "pending"    fn([[row, col, colour, shape], ...]): the pending move changed
                  (a tap, a proposal, Take back, Clear; [] when a state drops it)
     "confirmed"  fn({score, end_bonus, text, game}): this device's move stored
     "state"      fn(state): a new game state was applied, from any source: this
                  device's move, another device's (the poll), trade, pass, undo,
                  a move kept offline and sent (not the page's first state)
     "refused"    fn({message, cells}): the engine refused the pending move or
                  a greyed tile; the board marks those cells (class "bad")

   A listener's exception is rethrown on its own, never stopping the board. */
/** What board-hooks.js gives every script (sk.board) and the board's parts
 * (sk.boardParts, which board-*.js fill in; the board `b` they share is untyped):
 * @typedef {{
 *   board: {
 *     overlay: (list: Array<Array<number>>, kind: string) => void,
 *     propose: (tiles: Array<Array<*>>) => boolean,
 *     choices: (list: Array<Array<*>>) => void,
 *     on: (event: string, fn: (detail: any) => void) => void
 *   },
 *   boardParts: {CELL: number, key: (r: number, c: number) => string, hooks?: (b: any) => () => void}
 * }} SkBoard */
(function () {
  "use strict";
  var sk = /** @type {SkBoard} */ (window.scorekeeper);
  var listeners = {pending: [], confirmed: [], state: [], refused: []};
  var overlays = {};  // kind -> [[row, col], ...]
  var choices = {};   // "r,c" -> ["colour shape", ...]
  var board = null;   // the board on the page now (board.js's `b`)

  function emit(event, detail) {
    (listeners[event] || []).forEach(function (fn) {
      try { fn(detail); } catch (e) { setTimeout(function () { throw e; }, 0); }
    });
  }
  function cells(list) {
    return (list || []).filter(function (rc) {
      return rc && rc.length >= 2 && isFinite(rc[0]) && isFinite(rc[1]);
    });
  }
  sk.board = {
    overlay: function (list, kind) {
      kind = String(kind || "").replace(/[^a-z0-9-]/gi, "");
      // Nothing to clear is no redraw (listeners clear their kinds often).
      if (!kind || (!overlays[kind] && !cells(list).length)) { return; }
      overlays[kind] = cells(list).map(function (rc) { return [Number(rc[0]), Number(rc[1])]; });
      if (!overlays[kind].length) { delete overlays[kind]; }
      if (board) { board.drawOverlays(); }
    },
    propose: function (tiles) { return board ? board.propose(tiles || []) : false; },
    choices: function (list) {
      Object.keys(choices).forEach(function (k) { delete choices[k]; });
      cells(list).forEach(function (item) {
        var kinds = (item[2] || []).map(function (k) { return k[0] + " " + k[1]; });
        if (kinds.length) { choices[Number(item[0]) + "," + Number(item[1])] = kinds; }
      });
    },
    on: function (event, fn) {
      if (listeners[event] && typeof fn === "function") { listeners[event].push(fn); }
    }
  };
  /* The board's parts (board-*.js) each add theirs; all speak of cells as
     "row,col" keys and draw them CELL units wide. */
  sk.boardParts = {CELL: 100, key: function (r, c) { return r + "," + c; }};
  /* The board being started takes the hooks; stop() hands them back. */
  sk.boardParts.hooks = function (b) {
    board = b;
    b.emit = emit;
    b.overlays = overlays;
    b.choices = choices;
    b.live = function () { return board === b; };
    return function stop() { if (board === b) { board = null; } };
  };
})();
