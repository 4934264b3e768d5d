/* The game page's board: draws the tiles from data-state, pans and zooms by touch,
   gathers a placing move by taps and shows what the server says about it.
   The server alone decides legality and the score (preview and confirm). */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var CELL = 100;
  var POLL_MS = 5000;
  var current = null;  // the live board of the page (replaced after each refresh)

  function node(name, attrs, parent) {
    var el = document.createElementNS(NS, name);
    for (var k in attrs) { el.setAttribute(k, attrs[k]); }
    if (parent) { parent.appendChild(el); }
    return el;
  }
  function key(r, c) { return r + "," + c; }
  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }
  function send(method, url, body) {
    // The API answers in Accept-Language: ask for the page's own language.
    var opts = {method: method, credentials: "same-origin",
                headers: {"Accept": "application/json", "X-CSRFToken": csrf(),
                          "Accept-Language": document.documentElement.lang || "en"}};
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch(url, opts).then(function (resp) {
      return resp.json().catch(function () { return {}; }).then(function (data) {
        return {status: resp.status, data: data};
      });
    });
  }
  function errorOf(data) {
    return (data && data.error) || {};
  }

  /* Replace <main> with a fresh copy from the server, then start again on it. */
  function refresh() {
    return fetch(location.href, {credentials: "same-origin", cache: "no-store",
                                 headers: {"Accept": "text/html"}})
      .then(function (resp) { return resp.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("main");
        var old = document.querySelector("main");
        if (!fresh || !old) { location.reload(); return; }
        var flashes = doc.querySelector(".flashes");
        var oldFlashes = document.querySelector(".flashes");
        if (oldFlashes) { oldFlashes.remove(); }
        if (flashes) { old.parentNode.insertBefore(document.adoptNode(flashes), old); }
        var adopted = document.adoptNode(fresh);
        old.replaceWith(adopted);
        document.title = doc.title;
        window.scrollTo(0, 0);
        init(adopted);
      })
      .catch(function () { location.reload(); });
  }

  function init(main) {
    var svg = main.querySelector("[data-board]");
    if (!svg) { current = null; return; }
    var state = JSON.parse(svg.getAttribute("data-state"));
    // Colour-blind letters and every sentence come from the page, in its language.
    var letters = JSON.parse(svg.getAttribute("data-letters") || "{}");
    var api = svg.getAttribute("data-api");
    var picker = main.querySelector("[data-picker]");
    var preview = main.querySelector("[data-preview]");
    var confirmBtn = main.querySelector("[data-confirm]");
    var removeBtn = main.querySelector("[data-remove]");
    var clearBtn = main.querySelector("[data-clear]");
    var defaultText = preview ? preview.textContent : "";
    var text = JSON.parse(svg.getAttribute("data-text") || "{}");
    function t(name, vars) {
      var out = text[name] || name;
      Object.keys(vars || {}).forEach(function (k) { out = out.split("%(" + k + ")s").join(vars[k]); });
      return out;
    }
    var occupied = {};
    var pending = [];
    var selected = null;
    var cursor = null;  // keyboard cursor cell
    var badCells = [];
    var legal = null;
    var previewSeq = 0;
    var busy = false;
    var view = null;
    var layers = {};
    var board = {state: state, pending: pending, refresh: refresh};
    current = board;

    state.board.forEach(function (t) { occupied[key(t[0], t[1])] = t; });
    ["slots", "tiles", "marks", "pend", "sel"].forEach(function (name) {
      layers[name] = node("g", {"class": "layer-" + name}, svg);
    });

    function isPending(r, c) {
      for (var i = 0; i < pending.length; i++) {
        if (pending[i].row === r && pending[i].col === c) { return i; }
      }
      return -1;
    }
    function filled(r, c) { return occupied[key(r, c)] || isPending(r, c) >= 0; }
    function slots() {
      var out = {};
      var cells = state.board.map(function (t) { return [t[0], t[1]]; })
        .concat(pending.map(function (p) { return [p.row, p.col]; }));
      if (!cells.length) { out[key(0, 0)] = [0, 0]; return out; }
      cells.forEach(function (rc) {
        [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(function (d) {
          var r = rc[0] + d[0], c = rc[1] + d[1];
          if (!filled(r, c)) { out[key(r, c)] = [r, c]; }
        });
      });
      return out;
    }

    function drawTile(parent, r, c, color, shape, cls) {
      var g = node("g", {"class": "t c-" + color + (cls ? " " + cls : ""),
                         transform: "translate(" + c * CELL + " " + r * CELL + ")"}, parent);
      node("use", {href: "#tile", width: CELL, height: CELL}, g);
      node("use", {href: "#" + shape, width: CELL, height: CELL, "class": "sym"}, g);
      node("text", {x: 84, y: 93, "class": "cb"}, g).textContent = letters[color] || "";
      return g;
    }
    function cellRect(parent, r, c, cls, inset) {
      inset = inset || 0;
      return node("rect", {x: c * CELL + inset, y: r * CELL + inset, width: CELL - 2 * inset,
                           height: CELL - 2 * inset, rx: 14, "class": cls}, parent);
    }

    function drawBoard() {
      layers.tiles.textContent = "";
      layers.marks.textContent = "";
      var frag = document.createDocumentFragment();
      state.board.forEach(function (t) { drawTile(frag, t[0], t[1], t[2], t[3]); });
      layers.tiles.appendChild(frag);
      state.last.forEach(function (rc) {
        cellRect(layers.marks, rc[0], rc[1], "last", -3);
        cellRect(layers.marks, rc[0], rc[1], "last-inner", 2);  // tells it from pink tiles
      });
    }
    function drawEntry() {
      layers.slots.textContent = "";
      layers.pend.textContent = "";
      layers.sel.textContent = "";
      if (state.edit) {
        var free = slots();
        Object.keys(free).forEach(function (k) {
          cellRect(layers.slots, free[k][0], free[k][1], "slot", 6);
        });
      }
      pending.forEach(function (p) {
        drawTile(layers.pend, p.row, p.col, p.color, p.shape, "pending");
        cellRect(layers.pend, p.row, p.col, "pending-mark", 1);
      });
      badCells.forEach(function (rc) { cellRect(layers.sel, rc[0], rc[1], "bad", -2); });
      if (selected) { cellRect(layers.sel, selected[0], selected[1], "selected", 2); }
      if (cursor) { cellRect(layers.sel, cursor[0], cursor[1], "cursor", -4); }
    }

    /* Everything worth seeing: the tiles, the pending ones and the free cells next to them. */
    function extent() {
      var rows = [], cols = [];
      state.board.forEach(function (t) { rows.push(t[0]); cols.push(t[1]); });
      pending.forEach(function (p) { rows.push(p.row); cols.push(p.col); });
      if (state.edit || !rows.length) {
        var free = slots();
        Object.keys(free).forEach(function (k) { rows.push(free[k][0]); cols.push(free[k][1]); });
      }
      return {r0: Math.min.apply(null, rows), r1: Math.max.apply(null, rows),
              c0: Math.min.apply(null, cols), c1: Math.max.apply(null, cols)};
    }
    function apply() {
      svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].join(" "));
    }
    /* The part of the board on screen, in px from its top: the sticky header and the
       sticky entry bar (phone) may cover some; the fit button takes the top corner. */
    function visibleBand(box) {
      var header = document.querySelector("header");
      var entry = main.querySelector("[data-entry]");
      var top = Math.max(box.top, header ? header.getBoundingClientRect().bottom : 0);
      var bottom = Math.min(box.bottom, window.innerHeight || box.bottom);
      if (entry) {
        var bar = entry.getBoundingClientRect();
        // Only where the bar lies over the board (phone portrait), not beside it.
        if (bar.left < box.right && bar.right > box.left && bar.top > top && bar.top < bottom) {
          bottom = bar.top;
        }
      }
      var v0 = top - box.top, v1 = bottom - box.top;
      if (v1 - v0 < 120) { return [0, box.height]; }
      if (v0 < 52 && v1 - v0 > 260) { v0 = 52; }
      return [v0, v1];
    }
    function fit() {
      var e = extent();
      var w = Math.max((e.c1 - e.c0 + 1.4) * CELL, 5 * CELL);
      var h = Math.max((e.r1 - e.r0 + 1.4) * CELL, 5 * CELL);
      var cx = (e.c0 + e.c1 + 1) * CELL / 2, cy = (e.r0 + e.r1 + 1) * CELL / 2;
      var box = svg.getBoundingClientRect();
      if (!box.width || !box.height) {
        view = {x: cx - w / 2, y: cy - h / 2, w: w, h: h};
        apply();
        return;
      }
      // Same aspect as the element (no letterboxing), the tiles centred in the band.
      var band = visibleBand(box);
      var s = Math.max(w / box.width, h / (band[1] - band[0]));
      view = {x: cx - box.width * s / 2, y: cy - (band[0] + band[1]) / 2 * s,
              w: box.width * s, h: box.height * s};
      apply();
    }
    /* Grow the view (never shrink it) so the pending tiles and their free neighbours show. */
    function keepVisible() {
      var e = extent();
      var x0 = (e.c0 - 0.2) * CELL, y0 = (e.r0 - 0.2) * CELL;
      var x1 = (e.c1 + 1.2) * CELL, y1 = (e.r1 + 1.2) * CELL;
      var nx0 = Math.min(view.x, x0), ny0 = Math.min(view.y, y0);
      var nx1 = Math.max(view.x + view.w, x1), ny1 = Math.max(view.y + view.h, y1);
      if (nx0 < view.x || ny0 < view.y || nx1 > view.x + view.w || ny1 > view.y + view.h) {
        view = {x: nx0, y: ny0, w: nx1 - nx0, h: ny1 - ny0};
        apply();
      }
    }

    function toBoard(clientX, clientY) {
      var pt = svg.createSVGPoint();
      pt.x = clientX;
      pt.y = clientY;
      return pt.matrixTransform(svg.getScreenCTM().inverse());
    }
    function unitsPerPx() {
      var box = svg.getBoundingClientRect();
      return Math.max(view.w / box.width, view.h / box.height);
    }
    function zoomAt(factor, clientX, clientY) {
      var w = view.w * factor;
      if (w < 2 * CELL && factor < 1) { return; }
      if (w > 80 * CELL && factor > 1) { return; }
      var p = toBoard(clientX, clientY);
      view = {x: p.x - factor * (p.x - view.x), y: p.y - factor * (p.y - view.y),
              w: w, h: view.h * factor};
      apply();
    }

    // --- pointer gestures: one finger pans, two pinch, a short touch is a tap ---
    var pointers = {};
    var gesture = null;
    function count() { return Object.keys(pointers).length; }
    svg.addEventListener("pointerdown", function (ev) {
      if (svg.setPointerCapture) { try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* gone */ } }
      pointers[ev.pointerId] = {x: ev.clientX, y: ev.clientY};
      gesture = count() === 1 ? {tap: true, x: ev.clientX, y: ev.clientY} : {tap: false};
    });
    svg.addEventListener("pointermove", function (ev) {
      var prev = pointers[ev.pointerId];
      if (!prev || !gesture) { return; }
      var now = {x: ev.clientX, y: ev.clientY};
      if (count() === 1) {
        if (gesture.tap && Math.abs(now.x - gesture.x) + Math.abs(now.y - gesture.y) < 10) { return; }
        gesture.tap = false;
        var u = unitsPerPx();
        view.x -= (now.x - prev.x) * u;
        view.y -= (now.y - prev.y) * u;
        pointers[ev.pointerId] = now;
        apply();
        return;
      }
      var ids = Object.keys(pointers);
      var other = pointers[ids[0] == ev.pointerId ? ids[1] : ids[0]];
      var before = Math.hypot(prev.x - other.x, prev.y - other.y);
      var after = Math.hypot(now.x - other.x, now.y - other.y);
      pointers[ev.pointerId] = now;
      if (before > 0 && after > 0) {
        zoomAt(before / after, (now.x + other.x) / 2, (now.y + other.y) / 2);
      }
    });
    function lift(ev) {
      if (!pointers[ev.pointerId]) { return; }
      delete pointers[ev.pointerId];
      if (ev.type === "pointerup" && gesture && gesture.tap && count() === 0) {
        var p = toBoard(ev.clientX, ev.clientY);
        tap(Math.floor(p.y / CELL), Math.floor(p.x / CELL));
      }
      if (count() === 0) { gesture = null; }
    }
    svg.addEventListener("pointerup", lift);
    svg.addEventListener("pointercancel", lift);
    svg.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      zoomAt(ev.deltaY > 0 ? 1.15 : 1 / 1.15, ev.clientX, ev.clientY);
    }, {passive: false});
    // Keyboard: arrows move a cursor over the board, Enter or Space taps its cell.
    svg.addEventListener("keydown", function (ev) {
      var moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
      if (!state.edit) { return; }
      if (!cursor) {
        var free = slots();
        var first = Object.keys(free)[0];
        cursor = selected ? selected.slice() : free[first].slice();
      }
      if (moves[ev.key]) {
        cursor = [cursor[0] + moves[ev.key][0], cursor[1] + moves[ev.key][1]];
      } else if (ev.key === "Enter" || ev.key === " ") {
        tap(cursor[0], cursor[1]);
      } else { return; }
      ev.preventDefault();
      layers.sel.querySelectorAll(".cursor").forEach(function (el) { el.remove(); });
      cellRect(layers.sel, cursor[0], cursor[1], "cursor", -4);
    });
    var fitBtn = main.querySelector("[data-fit]");
    if (fitBtn) { fitBtn.addEventListener("click", fit); }

    // --- entering a move ---
    function tap(r, c) {
      if (!state.edit || busy) { return; }
      var flashes = document.querySelector(".flashes");
      if (flashes) { flashes.remove(); }
      var i = isPending(r, c);
      if (i >= 0) { pending.splice(i, 1); selected = null; changed(); return; }
      if (occupied[key(r, c)]) { return; }
      // Tapping the chosen cell again keeps it (it may have been chosen by auto-advance).
      if (slots()[key(r, c)]) { selected = [r, c]; openPicker(); }
      else { selected = null; closePicker(); }
      drawEntry();
      revealSelected();
    }
    function pendingCount(kind) {
      // The set says how its supply is counted: per colour (cubes) or per tile.
      var color = kind.split(" ")[0];
      return pending.filter(function (p) {
        return state.supply_per_color ? p.color === color : p.color + " " + p.shape === kind;
      }).length;
    }
    function legalHere(kind) {
      if (!legal || pending.length || !selected) { return true; }
      var kinds = legal[key(selected[0], selected[1])];
      return !!(kinds && kinds[kind]);
    }
    /* With tiles pending, ask the server which kinds still fit the chosen cell. */
    var optionsSeq = 0;
    var options = null;  // {cell: "r,c", kinds: {kind: true}} for the current pending tiles
    function askOptions() {
      if (!selected || !pending.length) { return; }
      var seq = ++optionsSeq;
      var cellKey = key(selected[0], selected[1]);
      var tiles = pending.map(function (p) { return [p.row, p.col, p.color, p.shape]; });
      var url = svg.getAttribute("data-options") + "?cell=" + encodeURIComponent(cellKey) +
        "&tiles=" + encodeURIComponent(JSON.stringify(tiles));
      send("GET", url).then(function (res) {
        if (seq !== optionsSeq || res.status !== 200) { return; }
        var kinds = {};
        res.data.kinds.forEach(function (k) { kinds[k] = true; });
        options = {cell: cellKey, count: pending.length, kinds: kinds};
        if (selected && picker && !picker.hidden) { openPicker(true); }
      }).catch(function () { /* no greying: the server still checks the move */ });
    }
    function fitsWithPending(kind) {
      if (!pending.length || !selected || !options) { return true; }
      if (options.cell !== key(selected[0], selected[1]) || options.count !== pending.length) {
        return true;
      }
      return !!options.kinds[kind];
    }
    function openPicker(fromOptions) {
      if (!picker) { return; }
      if (!fromOptions) { options = null; askOptions(); }
      picker.hidden = false;
      picker.querySelectorAll("[data-kind]").forEach(function (btn) {
        var kind = btn.getAttribute("data-kind");
        var left = (state.unseen[kind] || 0) - pendingCount(kind);
        var ok = left > 0 && legalHere(kind) && fitsWithPending(kind);
        btn.disabled = !ok;
        btn.classList.toggle("none", left <= 0);
        var n = btn.querySelector(".n");
        if (!n) { n = document.createElement("span"); n.className = "n"; btn.appendChild(n); }
        n.textContent = String(Math.max(left, 0));
      });
    }
    function closePicker() { if (picker) { picker.hidden = true; } }
    /* The picker sits over the lower part of a phone screen: slide the board so the
       chosen cell shows above it. */
    function revealSelected() {
      if (!selected || !picker || picker.hidden) { return; }
      var header = document.querySelector("header");
      var headerBottom = header ? header.getBoundingClientRect().bottom : 0;
      var entryTop = picker.closest("[data-entry]").getBoundingClientRect().top;
      var boardTop = svg.getBoundingClientRect().top;
      // On a short phone the open picker hides the board: scroll the board up to the header.
      if (entryTop - Math.max(boardTop, headerBottom) < 220 && boardTop > headerBottom + 4) {
        window.scrollBy(0, boardTop - headerBottom - 4);
      }
      var box = svg.getBoundingClientRect();
      var bottom = Math.min(box.bottom, picker.closest("[data-entry]").getBoundingClientRect().top);
      var top = Math.max(box.top, 0);
      if (bottom - top < 60) { return; }
      var m = svg.getScreenCTM();
      var pt = svg.createSVGPoint();
      pt.x = (selected[1] + 0.5) * CELL;
      pt.y = (selected[0] + 0.5) * CELL;
      var at = pt.matrixTransform(m);
      var margin = CELL / 2 / unitsPerPx() + 8;
      if (at.y > top + margin && at.y < bottom - margin && at.x > box.left && at.x < box.right) { return; }
      var u = unitsPerPx();
      view.x += (at.x - (box.left + box.right) / 2) * u;
      view.y += (at.y - (top + bottom) / 2) * u;
      apply();
    }
    function nextInLine() {
      if (pending.length < 2) { return null; }
      var a = pending[pending.length - 2], b = pending[pending.length - 1];
      var dr = 0, dc = 0;
      if (a.row === b.row) { dc = b.col > a.col ? 1 : -1; }
      else if (a.col === b.col) { dr = b.row > a.row ? 1 : -1; }
      else { return null; }
      var r = b.row + dr, c = b.col + dc;
      for (var steps = 0; steps < 12 && filled(r, c); steps++) { r += dr; c += dc; }
      return filled(r, c) ? null : [r, c];
    }
    function pick(kind) {
      if (!selected) { return; }
      var parts = kind.split(" ");
      pending.push({row: selected[0], col: selected[1], color: parts[0], shape: parts[1]});
      selected = nextInLine();
      if (selected) { openPicker(); } else { closePicker(); }
      changed();
      revealSelected();
    }
    function changed() {
      badCells = [];
      drawEntry();
      keepVisible();
      if (removeBtn) { removeBtn.disabled = !pending.length; }
      if (clearBtn) { clearBtn.disabled = !pending.length && !selected; }
      askPreview();
    }
    function say(text, cls) {
      if (!preview) { return; }
      preview.textContent = text;
      preview.className = "preview" + (cls ? " " + cls : "");
    }
    function showError(data, fallback) {
      var err = errorOf(data);
      badCells = (err.cells || []).filter(function (rc) { return rc && rc.length === 2; });
      drawEntry();
      say(err.message || fallback, "error");
    }
    function askPreview() {
      var seq = ++previewSeq;
      if (!pending.length) {
        say(defaultText, "");
        if (confirmBtn) { confirmBtn.disabled = true; }
        return;
      }
      say("…", "wait");
      send("POST", api + "/preview", {type: "place", tiles: pending}).then(function (res) {
        if (seq !== previewSeq) { return; }
        if (res.status === 200 && res.data.ok !== false) {
          say(res.data.text, res.data.breakdown && res.data.breakdown.qwirkles ? "qwirkle" : "ok");
          if (confirmBtn) { confirmBtn.disabled = false; }
        } else if (res.status === 422) {
          showError(res.data, t("illegal"));
          if (confirmBtn) { confirmBtn.disabled = true; }
        } else {
          var ready = text.ready || [];
          say(ready[Math.min(pending.length, ready.length - 1)] || "", "");
          if (confirmBtn) { confirmBtn.disabled = false; }
        }
      }).catch(function () {
        if (seq === previewSeq && confirmBtn) { confirmBtn.disabled = false; }
      });
    }
    function confirmMove() {
      if (!pending.length || busy) { return; }
      busy = true;
      if (confirmBtn) { confirmBtn.disabled = true; }
      say("…", "wait");
      var move = {type: "place", tiles: pending, turn: state.turn};
      // Table discipline (issue 10): countdown.js keeps the thinking time on its element.
      var clock = document.querySelector("[data-countdown][data-thinking]");
      if (clock) { move.seconds = parseInt(clock.getAttribute("data-thinking"), 10); }
      // End of the table-discipline hook.
      send("POST", api + "/moves", move)
        .then(function (res) {
          busy = false;
          if (res.status === 201 || res.status === 200) { return refresh(); }
          if (res.status === 409) {
            say(t("conflict"), "error");
            setTimeout(function () { location.reload(); }, 900);
            return;
          }
          if (res.status === 403) {
            say(t("forbidden"), "error");
            return;
          }
          showError(res.data, t("refused", {status: res.status}));
          if (confirmBtn) { confirmBtn.disabled = res.status === 422; }
        })
        .catch(function () {
          busy = false;
          say(t("offline"), "error");
          if (confirmBtn) { confirmBtn.disabled = false; }
        });
    }

    if (picker) {
      picker.addEventListener("click", function (ev) {
        var btn = ev.target.closest("[data-kind]");
        if (btn && !btn.disabled) { pick(btn.getAttribute("data-kind")); return; }
      });
    }
    if (confirmBtn) { confirmBtn.addEventListener("click", confirmMove); }
    if (removeBtn) {
      removeBtn.addEventListener("click", function () { pending.pop(); selected = null; closePicker(); changed(); });
    }
    if (clearBtn) {
      clearBtn.addEventListener("click", function () {
        pending.length = 0; selected = null; closePicker(); changed();
      });
    }

    /* Cells where each tile kind may go alone: greys the picker for the first tile. */
    if (state.edit) {
      send("GET", api + "/legal").then(function (res) {
        if (res.status !== 200) { return; }
        var cells = {};
        if (res.data.cells) {
          Object.keys(res.data.cells).forEach(function (k) {
            cells[k] = {};
            res.data.cells[k].forEach(function (kind) { cells[k][kind] = true; });
          });
        } else if (res.data.kinds) {
          Object.keys(res.data.kinds).forEach(function (kind) {
            res.data.kinds[kind].forEach(function (rc) {
              var k = key(rc[0], rc[1]);
              (cells[k] = cells[k] || {})[kind] = true;
            });
          });
        } else { return; }
        legal = cells;
        if (selected && !picker.hidden) { openPicker(); }
      }).catch(function () { /* no greying by legality: the server still checks */ });
    }

    drawBoard();
    drawEntry();
    fit();
    svg.setAttribute("data-drawn", String(state.board.length));
    if (window.performance && performance.mark) { performance.mark("board-drawn"); }
    board.hasPending = function () { return pending.length > 0 || busy; };
  }

  /* Another device may enter moves: follow the game while nothing is being entered here. */
  function poll() {
    var board = current;
    if (!board || document.visibilityState !== "visible" || board.hasPending()) { return; }
    var api = document.querySelector("[data-board]").getAttribute("data-api");
    send("GET", api).then(function (res) {
      if (current !== board || board.hasPending() || res.status !== 200) { return; }
      if (res.data.turn !== board.state.turn || res.data.status !== board.state.status) {
        refresh();
      }
    }).catch(function () { /* offline for a moment: try again later */ });
  }

  function start() {
    var main = document.querySelector("main");
    if (main && main.querySelector("[data-board]")) {
      init(main);
      setInterval(poll, POLL_MS);
    }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); }
  else { start(); }
})();
