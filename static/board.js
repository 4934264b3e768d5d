/* The game page's board: draws the tiles from the game state, pans and zooms by
   touch, gathers a placing move by taps and shows what the server says of it.
   The server alone decides legality and the score: the options answer of a
   tapped cell lists the kinds that fit and what each would score, so picking a
   tile shows its score at once; the move's answer carries the new state, which
   table.js puts on the page and hands back here (event "sk:state"). */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var CELL = 100;
  /* Where a finger taps, a cell is never smaller than this (CSS px): a tap on a
     smaller one zooms in to COMFORT_PX around it instead of choosing it. */
  var MIN_PX = 44, COMFORT_PX = 56;
  /* A move's answer later than this (ms) shows the wait mark ("…"). */
  var SLOW_MS = 300;

  function node(name, attrs, parent) {
    var el = document.createElementNS(NS, name);
    for (var k in attrs) { el.setAttribute(k, attrs[k]); }
    if (parent) { parent.appendChild(el); }
    return el;
  }
  function key(r, c) { return r + "," + c; }
  function fill(template, vars) {
    var out = template || "";
    Object.keys(vars || {}).forEach(function (k) { out = out.split("%(" + k + ")s").join(vars[k]); });
    return out;
  }
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
  /* The board's tiles as [row, col, colour, shape], and the last move's cells. */
  function tilesOf(state) {
    return state.board.map(function (t) { return [t.row, t.col, t.color, t.shape]; });
  }
  function lastCells(state) {
    var last = state.last_move;
    return last && last.type === "place" ? last.tiles.map(function (t) { return [t.row, t.col]; }) : [];
  }

  /* Act on a tap when the finger lifts, on the element it went down on: the
     click a browser makes of a tap comes after a round of emulated mouse
     events, tens of milliseconds later on a slow phone. Keyboards and mice
     still act by click. */
  function onTap(parent, selector, act) {
    var pressed = null;
    parent.addEventListener("pointerdown", function (ev) {
      pressed = ev.pointerType === "mouse" ? null : ev.target.closest(selector);
    });
    parent.addEventListener("pointercancel", function () { pressed = null; });
    var done = null;  // {el, at}: acted on by a finger, so its click is no new tap
    parent.addEventListener("pointerup", function (ev) {
      var el = ev.target.closest(selector);
      if (el && el === pressed && !el.disabled) {
        pressed = null;
        done = {el: el, at: ev.timeStamp};
        act(el);
      }
    });
    parent.addEventListener("touchend", function (ev) {
      // Handled at pointerup: no emulated mouse events, no click after it.
      if (ev.target.closest && ev.target.closest(selector)) { ev.preventDefault(); }
    });
    parent.addEventListener("click", function (ev) {
      var el = ev.target.closest(selector);
      if (done && done.el === el && ev.timeStamp - done.at < 1000) { done = null; return; }
      if (el && !el.disabled) { act(el); }
    });
  }

  var stop = null;  // ends the board of the page swapped out (table.js swaps <main>)

  /* The board hook API (PHASE2): other scripts (hints, photo) mark cells, put
     tiles into the pending move and hear about it, without touching this file.
     Overlays outlive a redraw and a swap of <main>: their owner clears them. */
  var listeners = {pending: [], confirmed: []};
  var overlays = {};  // kind -> [[row, col], ...]
  var board = null;   // the board on the page now: {drawOverlays, propose}
  function emit(event, detail) {
    (listeners[event] || []).forEach(function (fn) {
      try { fn(detail); } catch (e) { setTimeout(function () { throw e; }, 0); }
    });
  }
  window.scorekeeper = window.scorekeeper || {};
  window.scorekeeper.board = {
    overlay: function (cells, kind) {
      kind = String(kind || "").replace(/[^a-z0-9-]/gi, "");
      if (!kind) { return; }
      overlays[kind] = (cells || []).filter(function (rc) {
        return rc && rc.length >= 2 && isFinite(rc[0]) && isFinite(rc[1]);
      }).map(function (rc) { return [Number(rc[0]), Number(rc[1])]; });
      if (!overlays[kind].length) { delete overlays[kind]; }
      if (board) { board.drawOverlays(); }
    },
    propose: function (tiles) { return board ? board.propose(tiles || []) : false; },
    on: function (event, fn) {
      if (listeners[event] && typeof fn === "function") { listeners[event].push(fn); }
    }
  };

  function init(main) {
    var svg = main.querySelector("[data-board]");
    var holder = main.querySelector("[data-game-state]");
    if (!svg || !holder) { return; }
    var state = JSON.parse(holder.textContent);
    var edit = svg.hasAttribute("data-edit");
    // A set counted per colour (Qwirkle Cubes) counts pending tiles per colour too.
    var perColor = svg.hasAttribute("data-supply-per-color");
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
    function t(name, vars) { return fill(text[name] || name, vars); }
    var occupied = {};
    var tiles = [];
    var unseen = {};
    var pending = [];
    var selected = null;
    var cursor = null;  // keyboard cursor cell
    var badCells = [];
    var busy = false;
    var view = null;
    var layers = {};

    function take(next) {
      state = next;
      tiles = tilesOf(state);
      occupied = {};
      tiles.forEach(function (tile) { occupied[key(tile[0], tile[1])] = tile; });
      unseen = {};
      state.unseen.forEach(function (u) { unseen[u.color + " " + u.shape] = u.count; });
    }
    take(state);
    ["slots", "tiles", "marks", "over", "pend", "sel"].forEach(function (name) {
      layers[name] = node("g", {"class": "layer-" + name}, svg);
    });
    edit = edit && state.status === "active";

    function isPending(r, c) {
      for (var i = 0; i < pending.length; i++) {
        if (pending[i].row === r && pending[i].col === c) { return i; }
      }
      return -1;
    }
    function filled(r, c) { return occupied[key(r, c)] || isPending(r, c) >= 0; }
    function slots() {
      var out = {};
      var cells = tiles.map(function (t) { return [t[0], t[1]]; })
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
      node("text", {x: 84, y: 93, "class": "cb", "aria-hidden": "true"}, g).textContent = letters[color] || "";
      // Each tile is named for screen readers: "red circle, row 2, column 3".
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", t(cls === "pending" ? "cell_pending" : "cell_tile",
                                     {tile: (text.names || {})[color + " " + shape] || "", row: r, col: c}));
      return g;
    }
    function cellRect(parent, r, c, cls, inset) {
      inset = inset || 0;
      return node("rect", {x: c * CELL + inset, y: r * CELL + inset, width: CELL - 2 * inset,
                           height: CELL - 2 * inset, rx: 14, "class": cls}, parent);
    }

    /* Drawn elements by cell, so that a redraw only touches what changed: a new
       state usually adds a move's tiles, and every change of the DOM costs a
       slow phone a style pass over the board. */
    var drawnTiles = {};   // "r,c" -> [tile, element]
    var drawnSlots = {};   // "r,c" -> element
    var dead = {};         // "r,c" -> true: beside the board, nothing may go there (server)
    function drawBoard() {
      var keep = {};
      var frag = document.createDocumentFragment();
      tiles.forEach(function (t) {
        var k = key(t[0], t[1]);
        var had = drawnTiles[k];
        if (had && had[0][2] === t[2] && had[0][3] === t[3]) { keep[k] = had; return; }
        if (had) { had[1].remove(); }
        keep[k] = [t, drawTile(frag, t[0], t[1], t[2], t[3])];
      });
      Object.keys(drawnTiles).forEach(function (k) { if (!keep[k]) { drawnTiles[k][1].remove(); } });
      drawnTiles = keep;
      layers.tiles.appendChild(frag);
      layers.marks.textContent = "";
      lastCells(state).forEach(function (rc) {
        cellRect(layers.marks, rc[0], rc[1], "last", -3);
        cellRect(layers.marks, rc[0], rc[1], "last-inner", 2);  // tells it from pink tiles
      });
    }
    /* Free cells in line with the pending tiles, a little beyond the board:
       a move's tiles go in any order, so these take a tap too (drawn faint). */
    function lineCells(out) {
      if (!pending.length) { return out; }
      var rows = pending.map(function (p) { return p.row; });
      var cols = pending.map(function (p) { return p.col; });
      var oneRow = rows.every(function (r) { return r === rows[0]; });
      var oneCol = cols.every(function (c) { return c === cols[0]; });
      function along(fixed, lo, hi, horizontal) {
        for (var i = lo - 2; i <= hi + 2; i++) {
          var r = horizontal ? fixed : i, c = horizontal ? i : fixed;
          if (!filled(r, c) && !out[key(r, c)]) { out[key(r, c)] = [r, c, "line"]; }
        }
      }
      if (oneRow) { along(rows[0], Math.min.apply(null, cols), Math.max.apply(null, cols), true); }
      if (oneCol) { along(cols[0], Math.min.apply(null, rows), Math.max.apply(null, rows), false); }
      return out;
    }
    function slotClass(k, cell) {
      return dead[k] ? "slot dead" : cell[2] === "line" ? "slot line" : "slot";
    }
    function drawSlots() {
      var free = edit ? lineCells(slots()) : {};
      Object.keys(drawnSlots).forEach(function (k) {
        var cls = free[k] ? slotClass(k, free[k]) : "";
        if (!free[k] || drawnSlots[k].getAttribute("class") !== cls) { drawnSlots[k].remove(); delete drawnSlots[k]; }
      });
      Object.keys(free).forEach(function (k) {
        if (!drawnSlots[k]) {
          drawnSlots[k] = cellRect(layers.slots, free[k][0], free[k][1], slotClass(k, free[k]), 6);
        }
      });
    }
    var drawnPending = null, drawnMarks = null;  // what the layers show now
    function drawEntry() {
      drawSlots();
      drawPending();
    }
    /* The entry without the free cells: the pending tiles and the marks. */
    function drawPending() {
      if (pending.length || busy) { svg.setAttribute("data-busy", ""); }
      else { svg.removeAttribute("data-busy"); }
      var now = tilesKey(pending);
      if (now !== drawnPending || layers.pend.childElementCount !== 2 * pending.length) {
        drawnPending = now;
        layers.pend.textContent = "";
        pending.forEach(function (p) {
          drawTile(layers.pend, p.row, p.col, p.color, p.shape, "pending");
          cellRect(layers.pend, p.row, p.col, "pending-mark", 1);
        });
      }
      drawMarks();
    }
    function drawMarks() {
      var marks = JSON.stringify([badCells, selected, cursor]);
      if (marks === drawnMarks) { return; }
      drawnMarks = marks;
      layers.sel.textContent = "";
      badCells.forEach(function (rc) { cellRect(layers.sel, rc[0], rc[1], "bad", -2); });
      if (selected) { cellRect(layers.sel, selected[0], selected[1], "selected", 2); }
      if (cursor) { cellRect(layers.sel, cursor[0], cursor[1], "cursor", -4); }
    }

    /* Everything worth seeing: the tiles, the pending ones and the free cells next to them. */
    function extent() {
      var rows = [], cols = [];
      tiles.forEach(function (t) { rows.push(t[0]); cols.push(t[1]); });
      pending.forEach(function (p) { rows.push(p.row); cols.push(p.col); });
      if (edit || !rows.length) {
        var free = slots();
        Object.keys(free).forEach(function (k) { rows.push(free[k][0]); cols.push(free[k][1]); });
      }
      return {r0: Math.min.apply(null, rows), r1: Math.max.apply(null, rows),
              c0: Math.min.apply(null, cols), c1: Math.max.apply(null, cols)};
    }
    var saving = null;
    var viewKey = "sk-view-" + state.id;
    function apply() {
      svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].join(" "));
      // Zoom and pan outlive a move and a reload (the tab's session, per game).
      if (edit && !saving) {
        saving = setTimeout(function () {
          saving = null;
          try { sessionStorage.setItem(viewKey, JSON.stringify(view)); } catch (e) { /* private mode */ }
        }, 250);
      }
    }
    function restoreView() {
      var kept = null;
      try { kept = JSON.parse(sessionStorage.getItem(viewKey) || "null"); } catch (e) { kept = null; }
      if (!edit || !kept || !["x", "y", "w", "h"].every(function (k) { return isFinite(kept[k]); }) ||
          kept.w < CELL || kept.h < CELL) { return false; }
      view = {x: kept.x, y: kept.y, w: kept.w, h: kept.h};
      apply();
      return true;
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
    /* The cells the player is busy with: the pending tiles and the chosen cell,
       else the last move; null on an empty board. */
    function focusCells() {
      var cells = pending.map(function (p) { return [p.row, p.col]; });
      if (selected) { cells.push(selected); }
      return cells.length ? cells : lastCells(state);
    }
    function centreOf(cells) {
      var r = 0, c = 0;
      cells.forEach(function (rc) { r += rc[0]; c += rc[1]; });
      return [(c / cells.length + 0.5) * CELL, (r / cells.length + 0.5) * CELL];
    }
    /* Fit the board to its frame; when entering moves, never below a tappable
       scale: then the part being played fills the frame (whole: the button). */
    function fit(whole) {
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
      var capped = edit && whole !== true && CELL / s < MIN_PX;
      if (capped) {
        s = CELL / (MIN_PX + 4);
        var focus = focusCells();
        if (focus.length) { var at = centreOf(focus); cx = at[0]; cy = at[1]; }
      }
      view = {x: cx - box.width * s / 2, y: cy - (band[0] + band[1]) / 2 * s,
              w: box.width * s, h: box.height * s};
      if (capped) {
        // Around the action, but no empty felt where there is board to show.
        var x0 = (e.c0 - 0.7) * CELL, x1 = (e.c1 + 1.7) * CELL;
        var y0 = (e.r0 - 0.7) * CELL - band[0] * s;
        var y1 = (e.r1 + 1.7) * CELL + (box.height - band[1]) * s;
        view.x = x1 - x0 > view.w ? Math.min(Math.max(view.x, x0), x1 - view.w) : (x0 + x1 - view.w) / 2;
        view.y = y1 - y0 > view.h ? Math.min(Math.max(view.y, y0), y1 - view.h) : (y0 + y1 - view.h) / 2;
      }
      apply();
    }
    /* Grow the view so the pending tiles and their free neighbours show, as far
       as cells stay tappable; past that, slide it to the cells being played. */
    function keepVisible() {
      var e = extent();
      var x0 = (e.c0 - 0.2) * CELL, y0 = (e.r0 - 0.2) * CELL;
      var x1 = (e.c1 + 1.2) * CELL, y1 = (e.r1 + 1.2) * CELL;
      var nx0 = Math.min(view.x, x0), ny0 = Math.min(view.y, y0);
      var nx1 = Math.max(view.x + view.w, x1), ny1 = Math.max(view.y + view.h, y1);
      if (nx0 >= view.x && ny0 >= view.y && nx1 <= view.x + view.w && ny1 <= view.y + view.h) { return; }
      var grown = {x: nx0, y: ny0, w: nx1 - nx0, h: ny1 - ny0};
      var box = boxSize();
      if (!edit || !box.width || CELL / Math.max(grown.w / box.width, grown.h / box.height) >= MIN_PX) {
        view = grown;
        apply();
        return;
      }
      var focus = focusCells();
      if (!focus.length) { return; }
      var fx0 = Infinity, fy0 = Infinity, fx1 = -Infinity, fy1 = -Infinity;
      focus.forEach(function (rc) {
        fx0 = Math.min(fx0, rc[1] * CELL); fy0 = Math.min(fy0, rc[0] * CELL);
        fx1 = Math.max(fx1, (rc[1] + 1) * CELL); fy1 = Math.max(fy1, (rc[0] + 1) * CELL);
      });
      if (fx0 >= view.x && fy0 >= view.y && fx1 <= view.x + view.w && fy1 <= view.y + view.h) { return; }
      view.x = (fx0 + fx1) / 2 - view.w / 2;
      view.y = (fy0 + fy1) / 2 - view.h / 2;
      apply();
    }
    function cellPx() { return CELL / unitsPerPx(); }

    function toBoard(clientX, clientY) {
      var pt = svg.createSVGPoint();
      pt.x = clientX;
      pt.y = clientY;
      return pt.matrixTransform(svg.getScreenCTM().inverse());
    }
    /* The board's size on screen (CSS px), kept by a ResizeObserver as layout
       changes it: read from the element after a DOM write, it would force a
       layout of the whole page in the middle of a redraw. */
    var size = null;
    var sizer = window.ResizeObserver ? new ResizeObserver(function (entries) {
      var entry = entries[entries.length - 1];
      var border = entry.borderBoxSize && entry.borderBoxSize[0];
      size = border ? {width: border.inlineSize, height: border.blockSize}
                    : {width: entry.contentRect.width, height: entry.contentRect.height};
    }) : null;
    if (sizer) { sizer.observe(svg); }
    function boxSize() { return size || svg.getBoundingClientRect(); }
    function unitsPerPx() {
      var box = boxSize();
      return Math.max(view.w / box.width, view.h / box.height);
    }
    function zoomAt(factor, clientX, clientY) {
      var w = view.w * factor;
      if (w < 2 * CELL && factor < 1) { factor = Math.min(1, 2 * CELL / view.w); w = view.w * factor; }
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
        if (edit && cellPx() < MIN_PX - 0.5) {
          // Too small to hit the right cell: bring that area to a tappable scale.
          zoomAt(cellPx() / COMFORT_PX, ev.clientX, ev.clientY);
          if (!pending.length) { say(t("zoom"), ""); }
        } else {
          tap(Math.floor(p.y / CELL), Math.floor(p.x / CELL));
        }
      }
      if (count() === 0) { gesture = null; }
    }
    svg.addEventListener("pointerup", lift);
    // Taps are handled at pointerup (lift): spare the emulated mouse events.
    svg.addEventListener("touchend", function (ev) { ev.preventDefault(); });
    svg.addEventListener("pointercancel", lift);
    svg.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      zoomAt(ev.deltaY > 0 ? 1.15 : 1 / 1.15, ev.clientX, ev.clientY);
    }, {passive: false});
    // Keyboard: arrows move a cursor over the board, Enter or Space taps its
    // cell and puts the focus on the picker's first tile that fits.
    var spoken = main.querySelector("[data-board-cursor]");
    function cellName(r, c) {
      var names = text.names || {};
      var at = {row: r, col: c};
      var tile = occupied[key(r, c)];
      if (tile) { return t("cell_tile", Object.assign({tile: names[tile[2] + " " + tile[3]] || ""}, at)); }
      var i = isPending(r, c);
      if (i >= 0) { return t("cell_pending", Object.assign({tile: names[pending[i].color + " " + pending[i].shape] || ""}, at)); }
      if (dead[key(r, c)]) { return t("cell_dead", at); }
      return t(slots()[key(r, c)] ? "cell_free" : "cell_empty", at);
    }
    function startCursor() {
      if (selected) { return selected.slice(); }
      var focus = focusCells();
      var free = slots();
      var best = null, bestD = Infinity;
      var from = focus.length ? focus[focus.length - 1] : [0, 0];
      Object.keys(free).forEach(function (k) {
        var d = Math.abs(free[k][0] - from[0]) + Math.abs(free[k][1] - from[1]);
        if (d < bestD && !dead[k]) { bestD = d; best = free[k]; }
      });
      return (best || from).slice();
    }
    function showCursor() {
      drawMarks();
      if (spoken) { spoken.textContent = cellName(cursor[0], cursor[1]); }
      // The cursor's cell on screen, at a size one can see.
      var x = (cursor[1] + 0.5) * CELL, y = (cursor[0] + 0.5) * CELL;
      if (x < view.x || x > view.x + view.w || y < view.y || y > view.y + view.h) {
        view.x = x - view.w / 2;
        view.y = y - view.h / 2;
        apply();
      }
    }
    svg.addEventListener("keydown", function (ev) {
      var moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
      if (!edit) { return; }
      if (!cursor) { cursor = startCursor(); }
      if (moves[ev.key]) {
        cursor = [cursor[0] + moves[ev.key][0], cursor[1] + moves[ev.key][1]];
      } else if (ev.key === "Enter" || ev.key === " ") {
        focusPicker = !filled(cursor[0], cursor[1]);
        tap(cursor[0], cursor[1]);
      } else if (ev.key === "Escape" && selected) {
        selected = null;
        closePicker();
      } else { return; }
      ev.preventDefault();
      showCursor();
    });
    svg.addEventListener("focus", function () {
      // From the keyboard only: a finger or a mouse on the board is no cursor.
      var keys = true;
      try { keys = svg.matches(":focus-visible"); } catch (e) { keys = true; }
      if (edit && !cursor && keys) { cursor = startCursor(); showCursor(); }
    });
    var fitBtn = main.querySelector("[data-fit]");
    if (fitBtn) { fitBtn.addEventListener("click", function () { fit(true); }); }

    function drawOverlays() {
      layers.over.textContent = "";
      Object.keys(overlays).forEach(function (kind) {
        overlays[kind].forEach(function (rc) { cellRect(layers.over, rc[0], rc[1], "overlay-" + kind, 3); });
      });
    }
    /* Tiles from elsewhere (a hint, a photo) join the pending move as if tapped. */
    function propose(list) {
      if (!edit || busy) { return false; }
      var added = 0;
      list.forEach(function (t) {
        if (!t || t.length < 4) { return; }
        var r = Number(t[0]), c = Number(t[1]);
        if (!isFinite(r) || !isFinite(c) || occupied[key(r, c)] || isPending(r, c) >= 0) { return; }
        pending.push({row: r, col: c, color: String(t[2]), shape: String(t[3])});
        added++;
      });
      if (!added) { return false; }
      selected = null;
      closePicker();
      changed();
      return true;
    }

    // --- entering a move ---
    function tap(r, c) {
      if (!edit || busy) { return; }
      var flashes = document.querySelector(".flashes");
      if (flashes) { flashes.remove(); }
      var i = isPending(r, c);
      if (i >= 0) { pending.splice(i, 1); selected = null; closePicker(); changed(); return; }
      if (occupied[key(r, c)]) { return; }
      // Any free cell: a move's tiles come in any order along their line, and
      // the server's options say what may go there (all grey: nothing).
      selected = [r, c];
      chosenByTap = true;
      openPicker();
      tapped++;
      drawMarks();
      revealSelected();
      afterPaint(drawEntry);
    }
    var tapped = 0;  // taps so far: deferred work gives way to a newer tap
    var chosenByTap = false;  // the picker's cell was tapped (not chosen by the line)
    function pendingCount(kind) {
      var color = kind.split(" ")[0];
      return pending.filter(function (p) {
        return perColor ? p.color === color : p.color + " " + p.shape === kind;
      }).length;
    }
    function left(kind) {
      var parts = kind.split(" ");
      return (unseen[perColor ? parts[0] + " " : kind] || 0) - pendingCount(kind);
    }
    function tilesKey(list) {
      return JSON.stringify(list.map(function (p) { return [p.row, p.col, p.color, p.shape]; }));
    }

    /* What the server says of a cell with the pending tiles: the kinds that fit
       and each one's preview. Kept for the turn, so a cell asked twice is free. */
    var answers = {};   // "turn|cell|tiles" -> {kinds: {kind: preview}}
    var previews = {};  // "turn|tiles" -> preview of those pending tiles
    var asking = null;  // the options request the picker waits for
    function optionsKey(cell, list) { return state.turn + "|" + key(cell[0], cell[1]) + "|" + tilesKey(list); }
    /* A move's first tile: every cell's options in one answer, asked as soon as
       the board is drawn, so that the first tap needs no request. */
    var firstAsked = null;  // {turn, promise}
    function askFirstOptions() {
      if (!edit || (firstAsked && firstAsked.turn === state.turn)) { return; }
      var turn = state.turn;
      firstAsked = {turn: turn, promise: send("GET", svg.getAttribute("data-options") + "?tiles=%5B%5D")
        .then(function (res) {
          if (res.status !== 200 || !res.data.cells || res.data.turn !== turn) { return false; }
          Object.keys(res.data.cells).forEach(function (cell) {
            answers[turn + "|" + cell + "|[]"] = {kinds: res.data.cells[cell]};
          });
          dead = {};
          (res.data.dead || []).forEach(function (rc) { dead[key(rc[0], rc[1])] = true; });
          drawSlots();
          return true;
        })
        .catch(function () { return false; })};
    }
    /* With tiles pending, the cells the next tile may go to (both ends of the
       line, or around a single tile) are asked ahead in one request. */
    var ahead = {};  // options key -> promise of that answer being in
    function likelyNext() {
      var rows = pending.map(function (p) { return p.row; });
      var cols = pending.map(function (p) { return p.col; });
      var out = [];
      function walk(r, c, dr, dc) {
        for (var steps = 0; steps < 12 && filled(r, c); steps++) { r += dr; c += dc; }
        if (!filled(r, c)) { out.push([r, c]); }
      }
      if (pending.length === 1) {
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
    }
    function askAhead(cells) {
      var turn = state.turn, list = tilesKey(pending);
      var wanted = cells.filter(function (cell) {
        var k = optionsKey(cell, pending);
        return !answers[k] && !ahead[k];
      });
      if (!wanted.length) { return; }
      var names = wanted.map(function (cell) { return key(cell[0], cell[1]); });
      var promise = send("GET", svg.getAttribute("data-options") + "?cells=" +
                         encodeURIComponent(names.join(";")) + "&tiles=" + encodeURIComponent(list))
        .then(function (res) {
          if (res.status !== 200 || !res.data.cells || res.data.turn !== turn) { return false; }
          names.forEach(function (name) {
            answers[turn + "|" + name + "|" + list] = {kinds: res.data.cells[name] || {}};
          });
          return true;
        })
        .catch(function () { return false; });
      names.forEach(function (name) { ahead[turn + "|" + name + "|" + list] = promise; });
    }
    function askOptions(cell) {
      var k = optionsKey(cell, pending);
      if (answers[k]) { return Promise.resolve(answers[k]); }
      if (ahead[k]) {
        return ahead[k].then(function (ok) { return ok ? answers[k] : askCell(cell, k); });
      }
      if (!pending.length && firstAsked && firstAsked.turn === state.turn && slots()[key(cell[0], cell[1])]) {
        // The whole board's answer is on its way: a cell it leaves out takes no tile.
        return firstAsked.promise.then(function (ok) {
          return ok ? (answers[k] || {kinds: {}}) : askCell(cell, k);
        });
      }
      return askCell(cell, k);
    }
    function askCell(cell, k) {
      var url = svg.getAttribute("data-options") + "?cell=" + encodeURIComponent(key(cell[0], cell[1])) +
        "&tiles=" + encodeURIComponent(tilesKey(pending));
      return send("GET", url).then(function (res) {
        if (res.status !== 200 || !res.data.previews) { return null; }
        answers[k] = {kinds: res.data.previews};
        return answers[k];
      });
    }
    function openPicker() {
      if (!picker || !selected) { return; }
      var cell = selected.slice();
      var seq = asking = {};
      picker.hidden = false;
      picker.removeAttribute("data-ready");
      var k = optionsKey(cell, pending);
      if (answers[k]) { fillPicker(answers[k], cell); return; }
      // Until the answer is in, nothing can be picked.
      var waiting = askOptions(cell);
      buttons().forEach(function (btn) { if (!btn.disabled) { btn.disabled = true; } });
      picker.setAttribute("aria-busy", "true");
      waiting.then(function (answer) {
        if (asking !== seq || !selected || key(selected[0], selected[1]) !== key(cell[0], cell[1])) { return; }
        fillPicker(answer, cell);
      }).catch(function () { if (asking === seq) { fillPicker(null, cell); } });
    }
    function fillPicker(answer, cell) {
      var any = false;
      var pickLabels = text.pick || [];
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
          if (named) { btn.setAttribute("aria-label", fill(named, {tile: btn.getAttribute("data-name") || kind})); }
        }
      });
      picker.removeAttribute("aria-busy");
      picker.setAttribute("data-ready", key(cell[0], cell[1]));
      // Said for a cell the player chose, not for one the line's end chose for
      // them: that would hide the pending move's score.
      if (answer !== null && !any && chosenByTap) {
        say(dead[key(cell[0], cell[1])] ? t("dead") : t("none_fit"), "error");
      }
      // Only while the focus is still where the keyboard left it (board or tile).
      var at = document.activeElement;
      if (focusPicker && (at === svg || at === document.body || (at && picker.contains(at)))) { focusFirstPick(); }
      focusPicker = false;
    }
    var focusPicker = false;  // the keyboard opened the picker: focus goes into it
    var keepFocus = false;    // a tile picked from the keyboard: focus stays in the entry
    function focusFirstPick() {
      var list = buttons();
      var first = list.filter(function (b) { return !b.classList.contains("off"); })[0] || list[0];
      if (first) { first.focus(); }
    }
    /* A greyed tile tapped: the engine's reason for that tile on that cell. */
    function explain(kind) {
      if (!selected) { return; }
      var url = svg.getAttribute("data-options") + "?cell=" + encodeURIComponent(key(selected[0], selected[1])) +
        "&tiles=" + encodeURIComponent(tilesKey(pending)) + "&why=" + encodeURIComponent(kind);
      var seq = ++previewSeq;
      send("GET", url).then(function (res) {
        if (seq !== previewSeq) { return; }
        var err = res.data && res.data.error;
        if (res.status === 200 && err && err.message) {
          say(err.message, "error");
        } else if (res.status !== 200) {
          say(t("refused", {status: res.status}), "error");
        }
      }).catch(function () { if (seq === previewSeq) { say(t("offline"), "error"); } });
    }
    var pickerButtons = null;
    function buttons() {
      pickerButtons = pickerButtons || Array.prototype.slice.call(picker.querySelectorAll("[data-kind]"));
      return pickerButtons;
    }
    function closePicker() {
      asking = null;
      if (picker) { picker.hidden = true; picker.removeAttribute("data-ready"); }
    }
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
      // The options answer for this cell already says what the move will score.
      var answer = answers[optionsKey(selected, pending)];
      var parts = kind.split(" ");
      var tile = {row: selected[0], col: selected[1], color: parts[0], shape: parts[1]};
      pending.push(tile);
      if (answer && answer.kinds[kind]) { previews[state.turn + "|" + tilesKey(pending)] = answer.kinds[kind]; }
      // First what the player waits for: the tile on the board and its score,
      // painted in the next frame; the rest (free cells, the next cell's
      // picker or none) follows once that frame is out.
      selected = null;
      asking = null;
      drawTile(layers.pend, tile.row, tile.col, tile.color, tile.shape, "pending");
      drawnPending = null;
      showPreview();
      var turn = state.turn, count = pending.length, taps = ++tapped;
      afterPaint(function () {
        if (state.turn !== turn || pending.length !== count || tapped !== taps) { return; }
        askAhead(likelyNext());
        selected = nextInLine();
        chosenByTap = false;
        var keys = keepFocus;
        keepFocus = false;
        if (selected) {
          focusPicker = keys;
          openPicker();
        } else {
          closePicker();
          if (keys) { cursor = [tile.row, tile.col]; svg.focus(); showCursor(); }
        }
        changed();
        revealSelected();
      });
    }
    function afterPaint(work) {
      requestAnimationFrame(function () { setTimeout(work, 0); });
    }
    function changed() {
      badCells = [];
      drawEntry();
      keepVisible();
      if (removeBtn) { removeBtn.disabled = !pending.length; }
      if (clearBtn) { clearBtn.disabled = !pending.length && !selected; }
      showPreview();
      emit("pending", pending.map(function (p) { return [p.row, p.col, p.color, p.shape]; }));
    }
    function say(message, cls) {
      if (!preview) { return; }
      preview.textContent = message;
      preview.className = "preview" + (cls ? " " + cls : "");
    }
    function showError(data, fallback) {
      var err = errorOf(data);
      badCells = (err.cells || []).filter(function (rc) { return rc && rc.length === 2; });
      drawEntry();
      say(err.message || fallback, "error");
    }
    /* A preview: {text, breakdown, ...} for a legal move, {error} for one refused. */
    function showResult(result) {
      if (result.error) {
        showError(result, t("illegal"));
        if (confirmBtn) { confirmBtn.disabled = true; }
        return;
      }
      var qwirkles = result.qwirkles || (result.breakdown && result.breakdown.qwirkles);
      say(result.text, qwirkles ? "qwirkle" : "ok");
      if (confirmBtn) { confirmBtn.disabled = false; }
    }
    var previewSeq = 0;
    function showPreview() {
      var seq = ++previewSeq;
      if (!pending.length) {
        say(defaultText, "");
        if (confirmBtn) { confirmBtn.disabled = true; }
        return;
      }
      var known = previews[state.turn + "|" + tilesKey(pending)];
      if (known) { showResult(known); return; }
      // A tile taken back from the middle: a set of tiles not seen yet, so ask.
      say("…", "wait");
      send("POST", api + "/preview", {type: "place", tiles: pending}).then(function (res) {
        if (seq !== previewSeq) { return; }
        if (res.status === 200 && res.data.ok !== false) {
          showResult(res.data);
        } else if (res.status === 422) {
          showResult({error: errorOf(res.data)});
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
      // The wait mark only for a late answer (busy refuses a second tap): drawn
      // at once it costs a slow phone a frame of restyle and paint, which the
      // answer then waits behind before the board can show the move.
      var slow = setTimeout(function () {
        if (confirmBtn) { confirmBtn.disabled = true; }
        say("…", "wait");
      }, SLOW_MS);
      var move = {type: "place", tiles: pending, turn: state.turn};
      // Table discipline (issue 10): countdown.js keeps the thinking time on its element.
      var clock = document.querySelector("[data-countdown][data-thinking]");
      if (clock) { move.seconds = parseInt(clock.getAttribute("data-thinking"), 10); }
      // End of the table-discipline hook.
      send("POST", api + "/moves", move)
        .then(function (res) {
          busy = false;
          clearTimeout(slow);
          if (res.status === 201 || res.status === 200) {
            // The answer's state is the game now: no other request.
            answer(res.data.game);
            emit("confirmed", res.data);  // {score, end_bonus, text, game}
            return;
          }
          if (res.status === 409 && res.data.game) {
            answer(res.data.game);
            say(t("conflict"), "error");
            return;
          }
          if (res.status === 403) {
            say(t("forbidden"), "error");
            if (confirmBtn) { confirmBtn.disabled = true; }
            return;
          }
          showError(res.data, t("refused", {status: res.status}));
          if (confirmBtn) { confirmBtn.disabled = res.status === 422; }
        })
        .catch(function () {
          busy = false;
          clearTimeout(slow);
          // Offline (issue 10): offline.js keeps the move and sends it when the server is back.
          var offline = window.scorekeeper && window.scorekeeper.offline;
          if (offline && offline.keep(api + "/moves", move)) { say(offline.message(), "wait"); return; }
          // End of the offline hook.
          say(t("offline"), "error");
          if (confirmBtn) { confirmBtn.disabled = false; }
        });
    }
    /* Hand a state from the server to the page (table.js), which hands it back. */
    function answer(next) {
      document.dispatchEvent(new CustomEvent("sk:answer", {detail: {state: next}}));
    }
    /* A newer state: redraw; a pending move made for an older one is dropped. */
    function onState(ev) {
      var next = ev.detail.state;
      var moved = next.turn !== state.turn || next.updated_at !== state.updated_at;
      take(next);
      edit = svg.hasAttribute("data-edit") && state.status === "active";
      if (moved) {
        pending.length = 0;
        selected = null;
        badCells = [];
        answers = {};
        ahead = {};
        previews = {};
        dead = {};
        closePicker();
        say(defaultText, "");
        if (confirmBtn) { confirmBtn.disabled = true; }
        if (removeBtn) { removeBtn.disabled = true; }
        if (clearBtn) { clearBtn.disabled = true; }
        emit("pending", []);
      }
      // What the player waits for first: the move's tiles on the board (and
      // its pending copy gone), painted in the next frame. The free cells, the
      // view and the next turn's options follow once that frame is out: each
      // is a DOM write, a read of the board's box or a request that would keep
      // the tiles waiting on a slow phone. data-drawn says all of it is done.
      drawBoard();
      drawPending();
      var seq = ++settling;
      afterPaint(function () {
        if (seq !== settling || board === null || board.svg !== svg) { return; }
        drawSlots();
        keepVisible();
        svg.setAttribute("data-drawn", String(tiles.length));
        askFirstOptions();
      });
    }
    var settling = 0;  // the newest state's redraw after its first frame
    document.addEventListener("sk:state", onState);
    board = {drawOverlays: drawOverlays, propose: propose, svg: svg};
    stop = function () {
      document.removeEventListener("sk:state", onState);
      if (sizer) { sizer.disconnect(); }
      board = null;
    };

    if (picker) {
      onTap(picker, "[data-kind]", function (btn) {
        if (btn.disabled) { return; }
        if (btn.classList.contains("off")) { explain(btn.getAttribute("data-kind")); return; }
        var fromKeys = document.activeElement === btn;
        pick(btn.getAttribute("data-kind"));
        // Focus stays in the entry: on the board when the picker closes.
        if (fromKeys) { keepFocus = true; }
      });
      // Arrow keys move between the picker's tiles; Escape goes back to the board.
      picker.addEventListener("keydown", function (ev) {
        var list = buttons();
        var i = list.indexOf(document.activeElement);
        if (i < 0) { return; }
        var cols = Math.round(picker.querySelector(".picker-grid").getBoundingClientRect().width /
                              Math.max(1, list[0].getBoundingClientRect().width)) || 6;
        var step = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols}[ev.key];
        if (step) {
          ev.preventDefault();
          var j = Math.max(0, Math.min(list.length - 1, i + step));
          list[j].focus();
        } else if (ev.key === "Escape") {
          ev.preventDefault();
          selected = null;
          closePicker();
          drawMarks();
          svg.focus();
        }
      });
    }
    if (confirmBtn) { onTap(confirmBtn.parentNode, "[data-confirm]", confirmMove); }
    if (removeBtn) {
      removeBtn.addEventListener("click", function () { pending.pop(); selected = null; closePicker(); changed(); });
    }
    if (clearBtn) {
      clearBtn.addEventListener("click", function () {
        pending.length = 0; selected = null; closePicker(); changed();
      });
    }

    drawBoard();
    drawEntry();
    drawOverlays();
    if (!restoreView()) { fit(); }
    svg.setAttribute("data-drawn", String(tiles.length));
    if (window.performance && performance.mark) { performance.mark("board-drawn"); }
    askFirstOptions();
  }

  function start(main) {
    if (stop) { stop(); stop = null; }
    if (main && main.querySelector("[data-board]")) { init(main); }
  }
  // table.js swaps in the final screen (or back) without a reload.
  document.addEventListener("sk:main", function (ev) { start(ev.detail.main); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { start(document.querySelector("main")); });
  } else { start(document.querySelector("main")); }
})();
