/// <reference path="core.js" />
/// <reference path="net.js" />
/// <reference path="board-hooks.js" />
/* The game board's picker (one part of board.js's board `b`): what the server
   says may go on a cell and what each tile would score there (GET
   /games/<id>/options, asked ahead: every cell's first tile as soon as the
   board is drawn, the line's next cells as soon as a tile is picked), and the
   picker's tiles greyed by it, one row per colour. A greyed tile tapped asks
   the server why, and the board marks the cells its refusal names. A picker
   opened with `first` (b.openPicker: the kinds a photo's reader thought
   likely, best first) shows those tiles in a row of their own above the set. */
/** board-picker.js's part of the board: @typedef {{boardParts: {picker: (b: any) => void}}} SkBoardPicker */
(function () {
  "use strict";
  var sk = /** @type {SkCore & SkNet & SkBoard & SkBoardPicker} */ (window.scorekeeper), key = sk.boardParts.key;

  sk.boardParts.picker = function (b) {
    var picker = b.picker;
    var options = b.svg.getAttribute("data-options");
    b.previewSeq = 0;
    b.focusPicker = false;  // the keyboard opened the picker: focus goes into it
    b.keepFocus = false;    // a tile picked from the keyboard: focus stays in the entry
    b.chosenByTap = false;  // the picker's cell was tapped (not chosen by the line)

    function pendingCount(kind) {
      var color = kind.split(" ")[0];
      return b.pending.filter(function (p) {
        return b.perColor ? p.color === color : p.color + " " + p.shape === kind;
      }).length;
    }
    function left(kind) {
      var parts = kind.split(" ");
      return (b.unseen[b.perColor ? parts[0] + " " : kind] || 0) - pendingCount(kind);
    }

    /* What the server says of a cell with the pending tiles: the kinds that fit
       and each one's preview. Kept for the turn, so a cell asked twice is free. */
    var asking = null;  // the options request the picker waits for
    var firstAsked = null;  // {turn, promise}: a move's first tile, every cell at once
    var ahead = {};  // options key -> promise of that answer being in
    b.forgetOptions = function () {
      b.answers = {};   // "turn|cell|tiles" -> {kinds: {kind: preview}}
      b.previews = {};  // "turn|tiles" -> preview of those pending tiles
      b.dead = {};      // "r,c" -> true: beside the board, nothing may go there (server)
      ahead = {};
    };
    b.forgetOptions();
    b.optionsKey = function (cell, list) {
      return b.state.turn + "|" + key(cell[0], cell[1]) + "|" + b.tilesKey(list);
    };
    b.askFirstOptions = function () {
      if (!b.edit || (firstAsked && firstAsked.turn === b.state.turn)) { return; }
      var turn = b.state.turn;
      firstAsked = {turn: turn, promise: sk.net.send("GET", options + "?tiles=%5B%5D")
        .then(function (res) {
          if (res.status !== 200 || !res.data.cells || res.data.turn !== turn) { return false; }
          Object.keys(res.data.cells).forEach(function (cell) {
            b.answers[turn + "|" + cell + "|[]"] = {kinds: res.data.cells[cell]};
          });
          b.dead = {};
          (res.data.dead || []).forEach(function (rc) { b.dead[key(rc[0], rc[1])] = true; });
          b.drawSlots();
          return true;
        })
        .catch(function () { return false; })};
    };
    /* With tiles pending, the cells the next tile may go to (both ends of the
       line, or around a single tile) are asked ahead in one request. */
    b.likelyNext = function () {
      var rows = b.pending.map(function (p) { return p.row; });
      var cols = b.pending.map(function (p) { return p.col; });
      var out = [];
      function walk(r, c, dr, dc) {
        for (var steps = 0; steps < 12 && b.filled(r, c); steps++) { r += dr; c += dc; }
        if (!b.filled(r, c)) { out.push([r, c]); }
      }
      if (b.pending.length === 1) {
        [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(function (d) {
          walk(rows[0] + d[0], cols[0] + d[1], d[0], d[1]);
        });
      } else if (rows.every(function (r) { return r === rows[0]; })) {
        walk(rows[0], Math.max.apply(null, cols), 0, 1);
        walk(rows[0], Math.min.apply(null, cols), 0, -1);
      } else if (cols.every(function (c) { return c === cols[0]; })) {
        walk(Math.max.apply(null, rows), cols[0], 1, 0);
        walk(Math.min.apply(null, rows), cols[0], -1, 0);
      }
      return out;
    };
    b.askAhead = function (cells) {
      var turn = b.state.turn, list = b.tilesKey(b.pending);
      var wanted = cells.filter(function (cell) {
        var k = b.optionsKey(cell, b.pending);
        return !b.answers[k] && !ahead[k];
      });
      if (!wanted.length) { return; }
      var names = wanted.map(function (cell) { return key(cell[0], cell[1]); });
      var promise = sk.net.send("GET", options + "?cells=" + encodeURIComponent(names.join(";")) +
                                "&tiles=" + encodeURIComponent(list))
        .then(function (res) {
          if (res.status !== 200 || !res.data.cells || res.data.turn !== turn) { return false; }
          names.forEach(function (name) {
            b.answers[turn + "|" + name + "|" + list] = {kinds: res.data.cells[name] || {}};
          });
          return true;
        })
        .catch(function () { return false; });
      names.forEach(function (name) { ahead[turn + "|" + name + "|" + list] = promise; });
    };
    function askOptions(cell) {
      var k = b.optionsKey(cell, b.pending);
      if (b.answers[k]) { return Promise.resolve(b.answers[k]); }
      if (ahead[k]) {
        return ahead[k].then(function (ok) { return ok ? b.answers[k] : askCell(cell, k); });
      }
      if (!b.pending.length && firstAsked && firstAsked.turn === b.state.turn && b.slots()[key(cell[0], cell[1])]) {
        // The whole board's answer is on its way: a cell it leaves out takes no tile.
        return firstAsked.promise.then(function (ok) {
          return ok ? (b.answers[k] || {kinds: {}}) : askCell(cell, k);
        });
      }
      return askCell(cell, k);
    }
    function cellQuery(cell) {
      return options + "?cell=" + encodeURIComponent(key(cell[0], cell[1])) +
        "&tiles=" + encodeURIComponent(b.tilesKey(b.pending));
    }
    function askCell(cell, k) {
      return sk.net.send("GET", cellQuery(cell)).then(function (res) {
        if (res.status !== 200 || !res.data.previews) { return null; }
        b.answers[k] = {kinds: res.data.previews};
        return b.answers[k];
      });
    }

    /* The likely row (a photo's guesses): copies of the set's buttons, first. */
    var likelyRow = picker && picker.querySelector("[data-likely]");
    function showLikely(first) {
      if (!likelyRow) { return; }
      likelyRow.textContent = "";
      (first || []).forEach(function (kind) {
        var from = picker.querySelector('.picker-grid [data-kind="' + kind + '"]');
        if (from) { likelyRow.appendChild(from.cloneNode(true)); }
      });
      likelyRow.hidden = !likelyRow.childElementCount;
      pickerButtons = null;
    }
    b.openPicker = function (first) {
      if (!picker || !b.selected) { return; }
      var cell = b.selected.slice();
      var seq = asking = {};
      picker.hidden = false;
      picker.removeAttribute("data-ready");
      if (first || (likelyRow && !likelyRow.hidden)) { showLikely(first); }
      var k = b.optionsKey(cell, b.pending);
      if (b.answers[k]) { fillPicker(b.answers[k], cell); return; }
      // Until the answer is in, nothing can be picked.
      var waiting = askOptions(cell);
      buttons().forEach(function (btn) { if (!btn.disabled) { btn.disabled = true; } });
      picker.setAttribute("aria-busy", "true");
      waiting.then(function (answer) {
        if (asking !== seq || !b.selected || key(b.selected[0], b.selected[1]) !== key(cell[0], cell[1])) { return; }
        fillPicker(answer, cell);
      }).catch(function () { if (asking === seq) { fillPicker(null, cell); } });
    };
    function fillPicker(answer, cell) {
      var any = false;
      var pickLabels = b.text.pick || [];
      buttons().forEach(function (btn) {
        var kind = btn.getAttribute("data-kind");
        var n = left(kind);
        // No answer (offline): only the counts grey; the server still checks the move.
        var off = n <= 0 || (answer !== null && !answer.kinds[kind]);
        any = any || !off;
        // Greyed, not disabled: a tap on it asks the server why (explain).
        // Only what changed: each write restyles a button and its tile picture.
        if (btn.disabled) { btn.disabled = false; }
        if (btn.classList.contains("off") !== off) {
          btn.classList.toggle("off", off);
          btn.setAttribute("aria-disabled", off ? "true" : "false");
        }
        if (btn.classList.contains("none") !== (n <= 0)) { btn.classList.toggle("none", n <= 0); }
        var label = btn.querySelector(".n");
        if (!label) { label = document.createElement("span"); label.className = "n"; btn.appendChild(label); }
        var count = String(Math.max(n, 0));
        if (label.textContent !== count) {
          label.textContent = count;
          // The name a screen reader hears says the count it shows.
          var named = pickLabels[Math.min(Math.max(n, 0), pickLabels.length - 1)];
          if (named) { btn.setAttribute("aria-label", sk.fill(named, {tile: (b.text.names || {})[kind] || kind})); }
        }
      });
      picker.removeAttribute("aria-busy");
      picker.setAttribute("data-ready", key(cell[0], cell[1]));
      // Said for a cell the player chose, not for one the line's end chose for
      // them: that would hide the pending move's score.
      if (answer !== null && !any && b.chosenByTap) {
        b.say(b.dead[key(cell[0], cell[1])] ? b.t("dead") : b.t("none_fit"), "error");
      }
      // Only while the focus is still where the keyboard left it (board or tile).
      var at = document.activeElement;
      if (b.focusPicker && (at === b.svg || at === document.body || (at && picker.contains(at)))) { focusFirstPick(); }
      b.focusPicker = false;
    }
    function focusFirstPick() {
      var list = buttons();
      var first = list.filter(function (btn) { return !btn.classList.contains("off"); })[0] || list[0];
      if (first) { first.focus(); }
    }
    /* A greyed tile tapped: the engine's reason for that tile on that cell,
       its cells marked on the board. */
    function explain(kind) {
      if (!b.selected) { return; }
      var url = cellQuery(b.selected) + "&why=" + encodeURIComponent(kind);
      var seq = ++b.previewSeq;
      sk.net.send("GET", url).then(function (res) {
        if (seq !== b.previewSeq) { return; }
        var err = res.data && res.data.error;
        if (res.status === 200 && err && err.message) {
          b.showError(res.data);
        } else if (res.status !== 200) {
          b.say(b.t("refused", {status: res.status}), "error");
        }
      }).catch(function () { if (seq === b.previewSeq) { b.say(b.t("offline"), "error"); } });
    }
    var pickerButtons = null;
    function buttons() {
      pickerButtons = pickerButtons || Array.prototype.slice.call(picker.querySelectorAll("[data-kind]"));
      return pickerButtons;
    }
    b.closePicker = function () {
      asking = null;
      if (picker) { picker.hidden = true; picker.removeAttribute("data-ready"); }
      if (likelyRow && !likelyRow.hidden) { showLikely(null); }
    };

    if (!picker) { return; }
    buttons().forEach(function (btn) {
      btn.setAttribute("aria-label", (b.text.names || {})[btn.getAttribute("data-kind")] || "");
    });
    sk.onTap(picker, "[data-kind]", function (btn) {
      if (btn.disabled) { return; }
      if (btn.classList.contains("off")) { explain(btn.getAttribute("data-kind")); return; }
      var fromKeys = document.activeElement === btn;
      b.pick(btn.getAttribute("data-kind"));
      // Focus stays in the entry: on the board when the picker closes.
      if (fromKeys) { b.keepFocus = true; }
    });
    // Arrow keys move between the picker's tiles (a row is a colour); Escape
    // goes back to the board.
    picker.addEventListener("keydown", function (ev) {
      var list = buttons();
      var i = list.indexOf(document.activeElement);
      if (i < 0) { return; }
      var grid = picker.querySelector(".picker-grid");
      var cols = Math.round(grid.getBoundingClientRect().width /
                            Math.max(1, list[list.length - 1].getBoundingClientRect().width)) || 6;
      var step = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols}[ev.key];
      if (step) {
        ev.preventDefault();
        list[Math.max(0, Math.min(list.length - 1, i + step))].focus();
      } else if (ev.key === "Escape") {
        ev.preventDefault();
        b.selected = null;
        b.closePicker();
        b.drawMarks();
        b.svg.focus();
      }
    });
  };
})();
