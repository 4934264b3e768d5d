/// <reference path="board-hooks.js" />
/* The game board's zoom and pan (one part of board.js's board `b`): the view
   box (kept per game for the tab's session), fitting the board into the part
   of its frame on screen, keeping the cells being played in sight at a
   tappable size, and the gestures: one finger pans, two pinch, a wheel zooms,
   a short touch is a tap (b.tap). Opening the picker may scroll the page to
   bring the board up on a short phone; once the move is stored or cleared the
   page scrolls back (b.unscroll), so the totals are where they were. */
/** board-view.js's part of the board: @typedef {{boardParts: {view: (b: any) => void}}} SkBoardView */
(function () {
  "use strict";
  var sk = /** @type {SkBoard & SkBoardView} */ (window.scorekeeper), CELL = sk.boardParts.CELL;
  /* Where a finger taps, a cell is never smaller than this (CSS px): a tap on a
     smaller one zooms in to COMFORT_PX around it instead of choosing it. */
  var MIN_PX = 44, COMFORT_PX = 56;

  sk.boardParts.view = function (b) {
    var svg = b.svg;
    /* Everything worth seeing: the tiles, the pending ones and the free cells next to them. */
    function extent() {
      var rows = [], cols = [];
      b.tiles.forEach(function (t) { rows.push(t[0]); cols.push(t[1]); });
      b.pending.forEach(function (p) { rows.push(p.row); cols.push(p.col); });
      if (b.edit || !rows.length) {
        var free = b.slots();
        Object.keys(free).forEach(function (k) { rows.push(free[k][0]); cols.push(free[k][1]); });
      }
      return {r0: Math.min.apply(null, rows), r1: Math.max.apply(null, rows),
              c0: Math.min.apply(null, cols), c1: Math.max.apply(null, cols)};
    }
    var saving = null;
    var viewKey = "sk-view-" + b.state.id;
    function apply() {
      var view = b.view;
      svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].join(" "));
      // The whole-board button is marked while the view shows part of the tiles.
      var fitBtn = b.main.querySelector("[data-fit]");
      if (fitBtn && b.tiles.length) {
        var e = extent();
        fitBtn.classList.toggle("more", e.c0 * CELL < view.x || e.r0 * CELL < view.y ||
          (e.c1 + 1) * CELL > view.x + view.w || (e.r1 + 1) * CELL > view.y + view.h);
      }
      // Zoom and pan outlive a move and a reload (the tab's session, per game).
      if (b.edit && !saving) {
        saving = setTimeout(function () {
          saving = null;
          try { sessionStorage.setItem(viewKey, JSON.stringify(b.view)); } catch (e) { /* private mode */ }
        }, 250);
      }
    }
    b.applyView = apply;
    b.restoreView = function () {
      var kept = null;
      try { kept = JSON.parse(sessionStorage.getItem(viewKey) || "null"); } catch (e) { kept = null; }
      if (!b.edit || !kept || !["x", "y", "w", "h"].every(function (k) { return isFinite(kept[k]); }) ||
          kept.w < CELL || kept.h < CELL) { return false; }
      b.view = {x: kept.x, y: kept.y, w: kept.w, h: kept.h};
      apply();
      return true;
    };
    function headerBottom() {
      var header = document.querySelector("header");
      return header ? header.getBoundingClientRect().bottom : 0;
    }
    /* The part of the board on screen, in px from its top: the sticky header and the
       sticky entry bar (phone) may cover some; the fit button takes the top corner. */
    function visibleBand(box) {
      var entry = b.main.querySelector("[data-entry]");
      var top = Math.max(box.top, headerBottom());
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
    b.focusCells = function () {
      var cells = b.pending.map(function (p) { return [p.row, p.col]; });
      if (b.selected) { cells.push(b.selected); }
      return cells.length ? cells : b.lastCells();
    };
    function centreOf(cells) {
      var r = 0, c = 0;
      cells.forEach(function (rc) { r += rc[0]; c += rc[1]; });
      return [(c / cells.length + 0.5) * CELL, (r / cells.length + 0.5) * CELL];
    }
    /* Fit the board to its frame; when entering moves, never below a tappable
       scale: then the part being played fills the frame (whole: the button). */
    b.fit = function (whole) {
      var e = extent();
      var w = Math.max((e.c1 - e.c0 + 1.4) * CELL, 5 * CELL);
      var h = Math.max((e.r1 - e.r0 + 1.4) * CELL, 5 * CELL);
      var cx = (e.c0 + e.c1 + 1) * CELL / 2, cy = (e.r0 + e.r1 + 1) * CELL / 2;
      var box = svg.getBoundingClientRect();
      if (!box.width || !box.height) {
        b.view = {x: cx - w / 2, y: cy - h / 2, w: w, h: h};
        apply();
        return;
      }
      // Same aspect as the element (no letterboxing), the tiles centred in the band.
      var band = visibleBand(box);
      var s = Math.max(w / box.width, h / (band[1] - band[0]));
      var capped = b.edit && whole !== true && CELL / s < MIN_PX;
      if (capped) {
        s = CELL / (MIN_PX + 4);
        var focus = b.focusCells();
        if (focus.length) { var at = centreOf(focus); cx = at[0]; cy = at[1]; }
      }
      var view = b.view = {x: cx - box.width * s / 2, y: cy - (band[0] + band[1]) / 2 * s,
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
    };
    /* Grow the view so the pending tiles and their free neighbours show, as far
       as cells stay tappable; past that, slide it to the cells being played. */
    b.keepVisible = function () {
      var view = b.view;
      var e = extent();
      var x0 = (e.c0 - 0.2) * CELL, y0 = (e.r0 - 0.2) * CELL;
      var x1 = (e.c1 + 1.2) * CELL, y1 = (e.r1 + 1.2) * CELL;
      var nx0 = Math.min(view.x, x0), ny0 = Math.min(view.y, y0);
      var nx1 = Math.max(view.x + view.w, x1), ny1 = Math.max(view.y + view.h, y1);
      if (nx0 >= view.x && ny0 >= view.y && nx1 <= view.x + view.w && ny1 <= view.y + view.h) { return; }
      var grown = {x: nx0, y: ny0, w: nx1 - nx0, h: ny1 - ny0};
      var box = boxSize();
      if (!b.edit || !box.width || CELL / Math.max(grown.w / box.width, grown.h / box.height) >= MIN_PX) {
        b.view = grown;
        apply();
        return;
      }
      var focus = b.focusCells();
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
    };
    /* A cell shown, at the scale it has: the keyboard cursor's. */
    b.showCell = function (r, c) {
      var view = b.view;
      var x = (c + 0.5) * CELL, y = (r + 0.5) * CELL;
      if (x < view.x || x > view.x + view.w || y < view.y || y > view.y + view.h) {
        view.x = x - view.w / 2;
        view.y = y - view.h / 2;
        apply();
      }
    };
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
    b.sizer = window.ResizeObserver ? new ResizeObserver(function (entries) {
      var entry = entries[entries.length - 1];
      var border = entry.borderBoxSize && entry.borderBoxSize[0];
      size = border ? {width: border.inlineSize, height: border.blockSize}
                    : {width: entry.contentRect.width, height: entry.contentRect.height};
    }) : null;
    if (b.sizer) { b.sizer.observe(svg); }
    function boxSize() { return size || svg.getBoundingClientRect(); }
    function unitsPerPx() {
      var box = boxSize();
      return Math.max(b.view.w / box.width, b.view.h / box.height);
    }
    function cellPx() { return CELL / unitsPerPx(); }
    function zoomAt(factor, clientX, clientY) {
      var view = b.view;
      var w = view.w * factor;
      if (w < 2 * CELL && factor < 1) { factor = Math.min(1, 2 * CELL / view.w); w = view.w * factor; }
      if (w > 80 * CELL && factor > 1) { return; }
      var p = toBoard(clientX, clientY);
      b.view = {x: p.x - factor * (p.x - view.x), y: p.y - factor * (p.y - view.y),
                w: w, h: view.h * factor};
      apply();
    }

    /* The picker sits over the lower part of a phone screen: slide the board so the
       chosen cell shows above it. On a short phone the page scrolls the board up
       to the header first; b.unscroll takes that back once the move is in or cleared. */
    var scrolled = 0;
    b.revealSelected = function () {
      var picker = b.picker;
      if (!b.selected || !picker || picker.hidden) { return; }
      var entry = picker.closest("[data-entry]");
      var top0 = headerBottom();
      var entryTop = entry.getBoundingClientRect().top;
      var boardTop = svg.getBoundingClientRect().top;
      if (entryTop - Math.max(boardTop, top0) < 220 && boardTop > top0 + 4) {
        var before = window.scrollY;
        window.scrollBy(0, boardTop - top0 - 4);
        scrolled += window.scrollY - before;
      }
      var box = svg.getBoundingClientRect();
      var bottom = Math.min(box.bottom, entry.getBoundingClientRect().top);
      var top = Math.max(box.top, 0);
      if (bottom - top < 60) { return; }
      var pt = svg.createSVGPoint();
      pt.x = (b.selected[1] + 0.5) * CELL;
      pt.y = (b.selected[0] + 0.5) * CELL;
      var at = pt.matrixTransform(svg.getScreenCTM());
      var u = unitsPerPx();
      var margin = CELL / 2 / u + 8;
      if (at.y > top + margin && at.y < bottom - margin && at.x > box.left && at.x < box.right) { return; }
      b.view.x += (at.x - (box.left + box.right) / 2) * u;
      b.view.y += (at.y - (top + bottom) / 2) * u;
      apply();
    };
    b.unscroll = function () {
      if (!scrolled) { return; }
      window.scrollBy(0, -scrolled);
      scrolled = 0;
    };

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
        b.view.x -= (now.x - prev.x) * u;
        b.view.y -= (now.y - prev.y) * u;
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
        if (b.edit && cellPx() < MIN_PX - 0.5) {
          // Too small to hit the right cell: bring that area to a tappable scale.
          zoomAt(cellPx() / COMFORT_PX, ev.clientX, ev.clientY);
          if (!b.pending.length) { b.say(b.t("zoom"), ""); }
        } else {
          b.tap(Math.floor(p.y / CELL), Math.floor(p.x / CELL));
        }
      }
      if (count() === 0) { gesture = null; }
    }
    svg.addEventListener("pointerup", lift);
    // Taps are handled at pointerup (lift): no emulated mouse events, no click.
    // Cancelled at its start, since the tile a finger lands on may be redrawn
    // (gone from the DOM) before it lifts: a click would then land on whatever
    // lies under the finger after the page moved (the picker's buttons).
    svg.addEventListener("touchstart", function (ev) { ev.preventDefault(); }, {passive: false});
    svg.addEventListener("pointercancel", lift);
    svg.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      zoomAt(ev.deltaY > 0 ? 1.15 : 1 / 1.15, ev.clientX, ev.clientY);
    }, {passive: false});
    var fitBtn = b.main.querySelector("[data-fit]");
    if (fitBtn) { fitBtn.addEventListener("click", function () { b.fit(true); }); }
  };
})();
