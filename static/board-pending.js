/// <reference path="core.js" />
/// <reference path="net.js" />
/// <reference path="offline.js" />
/// <reference path="board-hooks.js" />
/* The game board's pending move (one part of board.js's board `b`): tiles
   gathered by taps (a cell, then a tile of the picker) or proposed by another
   script, the preview of what they score, Confirm, and a new game state from
   any source. The server alone decides legality and the score: the options
   answer of a tapped cell lists the kinds that fit and what each would
   score, so picking a tile shows its score at once; the move's answer carries
   the new state, which table.js puts on the page and hands back (event
   "sk:state"). An engine refusal marks the cells it names on the board. */
/** board-pending.js's part of the board: @typedef {{boardParts: {pending: (b: any) => void}}} SkBoardPending */
(function () {
  "use strict";
  /* A move's answer later than this (ms) shows the wait mark ("…"). */
  var SLOW_MS = 300;
  var sk = /** @type {SkCore & SkNet & SkOffline & SkBoard & SkBoardPending} */ (window.scorekeeper), key = sk.boardParts.key;

  sk.boardParts.pending = function (b) {
    var pending = b.pending;
    var tapped = 0;  // taps so far: deferred work gives way to a newer tap
    function setDisabled(btn, off) { if (btn) { btn.disabled = off; } }

    b.isPending = function (r, c) {
      for (var i = 0; i < pending.length; i++) {
        if (pending[i].row === r && pending[i].col === c) { return i; }
      }
      return -1;
    };
    b.filled = function (r, c) { return b.occupied[key(r, c)] || b.isPending(r, c) >= 0; };
    b.slots = function () {
      var out = {};
      var cells = b.tiles.map(function (t) { return [t[0], t[1]]; })
        .concat(pending.map(function (p) { return [p.row, p.col]; }));
      if (!cells.length) { out[key(0, 0)] = [0, 0]; return out; }
      cells.forEach(function (rc) {
        [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(function (d) {
          var r = rc[0] + d[0], c = rc[1] + d[1];
          if (!b.filled(r, c)) { out[key(r, c)] = [r, c]; }
        });
      });
      return out;
    };
    b.tilesKey = function (list) {
      return JSON.stringify(list.map(function (p) { return [p.row, p.col, p.color, p.shape]; }));
    };

    /* A cell tapped (or chosen from the keyboard): a pending tile there goes
       back (and its picker opens with the likely kinds first where another
       script gave some, b.choices); a free cell opens the picker. */
    b.tap = function (r, c) {
      // While a move is on its way the board is the old turn's: a tap then
      // (the totals already show the move) is kept for the answer's board.
      if (b.busy) { b.queuedTap = [r, c]; return; }
      if (!b.edit) { return; }
      var flashes = document.querySelector(".flashes");
      if (flashes) { flashes.remove(); }
      var i = b.isPending(r, c);
      var first = b.choices[key(r, c)];
      if (i >= 0) {
        pending.splice(i, 1);
        b.selected = null;
        b.closePicker();
        b.changed();
        if (!first) {
          if (!pending.length) { b.unscroll(); }  // nothing left to enter
          return;
        }
      }
      if (b.occupied[key(r, c)]) { return; }
      // Any free cell: a move's tiles come in any order along their line, and
      // the server's options say what may go there (all grey: nothing).
      b.selected = [r, c];
      b.chosenByTap = true;
      b.openPicker(i >= 0 ? first : null);
      tapped++;
      b.drawMarks();
      b.revealSelected();
      sk.afterPaint(b.drawEntry);
    };
    function nextInLine() {
      if (pending.length < 2) { return null; }
      var a = pending[pending.length - 2], z = pending[pending.length - 1];
      var dr = 0, dc = 0;
      if (a.row === z.row) { dc = z.col > a.col ? 1 : -1; }
      else if (a.col === z.col) { dr = z.row > a.row ? 1 : -1; }
      else { return null; }
      var r = z.row + dr, c = z.col + dc;
      for (var steps = 0; steps < 12 && b.filled(r, c); steps++) { r += dr; c += dc; }
      return b.filled(r, c) ? null : [r, c];
    }
    b.pick = function (kind) {
      if (!b.selected) { return; }
      // The options answer for this cell already says what the move will score.
      var answer = b.answers[b.optionsKey(b.selected, pending)];
      var parts = kind.split(" ");
      var tile = {row: b.selected[0], col: b.selected[1], color: parts[0], shape: parts[1]};
      pending.push(tile);
      if (answer && answer.kinds[kind]) { b.previews[b.state.turn + "|" + b.tilesKey(pending)] = answer.kinds[kind]; }
      // First what the player waits for: the tile on the board and its score,
      // painted in the next frame; the rest (free cells, the next cell's
      // picker or none) follows once that frame is out.
      b.selected = null;
      b.drawTile(b.layers.pend, tile.row, tile.col, tile.color, tile.shape, "pending");
      b.pendingDrawn();
      showPreview();
      var turn = b.state.turn, count = pending.length, taps = ++tapped;
      sk.afterPaint(function () {
        if (b.state.turn !== turn || pending.length !== count || tapped !== taps) { return; }
        b.askAhead(b.likelyNext());
        b.selected = nextInLine();
        b.chosenByTap = false;
        var keys = b.keepFocus;
        b.keepFocus = false;
        if (b.selected) {
          b.focusPicker = keys;
          b.openPicker();
        } else {
          b.closePicker();
          if (keys) { b.cursor = [tile.row, tile.col]; b.svg.focus(); b.showCursor(); }
        }
        b.changed();
        b.revealSelected();
      });
    };
    b.changed = function () {
      b.badCells = [];
      b.drawEntry();
      b.keepVisible();
      setDisabled(b.removeBtn, !pending.length);
      setDisabled(b.clearBtn, !pending.length && !b.selected);
      showPreview();
      b.emit("pending", pending.map(function (p) { return [p.row, p.col, p.color, p.shape]; }));
    };
    b.say = function (message, cls) {
      if (!b.preview) { return; }
      b.preview.textContent = message;
      b.preview.className = "preview" + (cls ? " " + cls : "");
    };
    /* An engine refusal ({error: {message, cells}}): said, its cells marked. */
    b.showError = function (data, fallback) {
      var err = (data && data.error) || {};
      b.badCells = (err.cells || []).filter(function (rc) { return rc && rc.length === 2; });
      b.drawEntry();
      b.say(err.message || fallback, "error");
      b.emit("refused", {message: err.message || fallback, cells: b.badCells});
    };
    /* A preview: {text, breakdown, ...} for a legal move, {error} for one refused. */
    function showResult(result) {
      if (result.error) {
        b.showError(result, b.t("illegal"));
        setDisabled(b.confirmBtn, true);
        return;
      }
      var qwirkles = result.qwirkles || (result.breakdown && result.breakdown.qwirkles);
      b.say(result.text, qwirkles ? "qwirkle" : "ok");
      setDisabled(b.confirmBtn, false);
    }
    function showPreview() {
      var seq = ++b.previewSeq;
      if (!pending.length) {
        b.say(b.defaultText, "");
        setDisabled(b.confirmBtn, true);
        return;
      }
      var known = b.previews[b.state.turn + "|" + b.tilesKey(pending)];
      if (known) { showResult(known); return; }
      // A tile taken back from the middle: a set of tiles not seen yet, so ask.
      b.say("…", "wait");
      sk.net.send("POST", b.api + "/preview", {type: "place", tiles: pending}).then(function (res) {
        if (seq !== b.previewSeq) { return; }
        if (res.status === 200 && res.data.ok !== false) {
          b.previews[b.state.turn + "|" + b.tilesKey(pending)] = res.data;
          showResult(res.data);
        } else if (res.status === 422) {
          showResult({error: res.data.error || {}});
        } else {
          var ready = b.text.ready || [];
          b.say(ready[Math.min(pending.length, ready.length - 1)] || "", "");
          setDisabled(b.confirmBtn, false);
        }
      }).catch(function () {
        if (seq === b.previewSeq) { setDisabled(b.confirmBtn, false); }
      });
    }
    b.confirmMove = function () {
      if (!pending.length || b.busy) { return; }
      b.busy = true;
      // The wait mark only for a late answer (busy refuses a second tap): drawn
      // at once it costs a slow phone a frame of restyle and paint, which the
      // answer then waits behind before the board can show the move.
      var slow = setTimeout(function () {
        setDisabled(b.confirmBtn, true);
        b.say("…", "wait");
      }, SLOW_MS);
      var move = {type: "place", tiles: pending, turn: b.state.turn};
      var known = b.previews[b.state.turn + "|" + b.tilesKey(pending)];
      // Table discipline (CONTRACT §10): countdown.js keeps the thinking time on its element.
      var clock = document.querySelector("[data-countdown][data-thinking]");
      if (clock) { move.seconds = parseInt(clock.getAttribute("data-thinking"), 10); }
      var sent = sk.net.send("POST", b.api + "/moves", move);
      // The totals move with the tap (once the request is on its way): the
      // preview's score, from the server, is what the move scores; the answer
      // confirms it, a refusal puts them back.
      if (known && typeof known.score === "number") {
        guess({player: b.state.current_player, turn: b.state.turn,
               points: known.score + (known.end_bonus || 0)});
      }
      sent
        .then(function (res) {
          b.busy = false;
          clearTimeout(slow);
          var queued = b.queuedTap;
          b.queuedTap = null;
          if (res.status === 201 || res.status === 200) {
            // The answer's state is the game now: no other request.
            answer(res.data.game);
            b.emit("confirmed", res.data);  // {score, end_bonus, text, game}
            if (queued) { b.tap(queued[0], queued[1]); }
            return;
          }
          guess(null);
          if (res.status === 409 && res.data.game) {
            answer(res.data.game);
            b.say(b.t("conflict"), "error");
            return;
          }
          if (res.status === 403) {
            b.say(b.t("forbidden"), "error");
            setDisabled(b.confirmBtn, true);
            return;
          }
          b.showError(res.data, b.t("refused", {status: res.status}));
          setDisabled(b.confirmBtn, res.status === 422);
        })
        .catch(function () {
          b.busy = false;
          b.queuedTap = null;
          clearTimeout(slow);
          // Offline: offline.js keeps the move and sends it when the server is back.
          var offline = sk.offline;
          // Kept to send later or not: the totals stay the server's until it answers.
          guess(null);
          if (offline && offline.keep(b.api + "/moves", move)) { b.say(offline.message(), "wait"); return; }
          b.say(b.t("offline"), "error");
          setDisabled(b.confirmBtn, false);
        });
    };
    /* The totals a move will make, before its answer (null: not made after all). */
    function guess(detail) {
      document.dispatchEvent(new CustomEvent("sk:guess", {detail: detail}));
    }
    /* Hand a state from the server to the page (table.js), which hands it back. */
    function answer(next) {
      document.dispatchEvent(new CustomEvent("sk:answer", {detail: {state: next}}));
    }
    /* Tiles from elsewhere (a hint, a photo) join the pending move as if tapped. */
    b.propose = function (list) {
      if (!b.edit || b.busy) { return false; }
      var added = 0;
      list.forEach(function (t) {
        if (!t || t.length < 4) { return; }
        var r = Number(t[0]), c = Number(t[1]);
        if (!isFinite(r) || !isFinite(c) || b.occupied[key(r, c)] || b.isPending(r, c) >= 0) { return; }
        pending.push({row: r, col: c, color: String(t[2]), shape: String(t[3])});
        added++;
      });
      if (!added) { return false; }
      b.selected = null;
      b.closePicker();
      b.changed();
      return true;
    };
    b.clear = function (all) {
      if (all) { pending.length = 0; } else { pending.pop(); }
      b.selected = null;
      b.closePicker();
      if (!pending.length) { b.unscroll(); }
      b.changed();
    };

    var settling = 0;  // the newest state's redraw after its first frame
    /* A newer state: redraw; a pending move made for an older one is dropped. */
    b.onState = function (ev) {
      var next = ev.detail.state;
      var moved = next.turn !== b.state.turn || next.updated_at !== b.state.updated_at;
      b.take(next);
      b.edit = b.svg.hasAttribute("data-edit") && next.status === "active";
      if (moved) {
        pending.length = 0;
        b.selected = null;
        b.badCells = [];
        b.forgetOptions();
        b.closePicker();
        b.say(b.defaultText, "");
        setDisabled(b.confirmBtn, true);
        setDisabled(b.removeBtn, true);
        setDisabled(b.clearBtn, true);
        b.emit("pending", []);
      }
      // What the player waits for first: the move's tiles on the board (and
      // its pending copy gone), painted in the next frame. The free cells, the
      // view and the next turn's options follow once that frame is out: each
      // is a DOM write, a read of the board's box or a request that would keep
      // the tiles waiting on a slow phone. data-drawn says all of it is done.
      b.drawBoard();
      b.drawPending();
      var seq = ++settling;
      sk.afterPaint(function () {
        if (seq !== settling || !b.live()) { return; }
        // The move is in: the page goes back to where it was before the picker
        // scrolled it (after the tiles' frame: a scroll first costs it ~30 ms).
        if (moved) { b.unscroll(); }
        b.drawSlots();
        b.keepVisible();
        b.svg.setAttribute("data-drawn", String(b.tiles.length));
        b.askFirstOptions();
      });
      // Told once the move's tiles are out, so no listener keeps them waiting.
      sk.afterPaint(function () { b.emit("state", next); });
    };
  };
})();
