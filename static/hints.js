/// <reference path="core.js" />
/// <reference path="net.js" />
/// <reference path="board-hooks.js" />
/* Hints on the game page (CONTRACT §11): a toggle, off by default and remembered
   per game on this device, that marks on the board the cells where one tile
   makes a Qwirkle (overlay "threat"), the hot cells: every one the engine
   lists (up to 5), the best single-tile score apart (overlay "hot") from the
   next best (overlay "warm"), and the dead cells (overlay "dead"), through
   the board's hook
   (window.scorekeeper.board.overlay). The server finds them
   (GET /api/games/<id>/hints); every sentence comes from the page (data-text).
   The hints follow the game: each new state (a move here, on another device,
   an undo) asks again. A bundle of its own: static/later.js fetches it once
   the hints are on. */
(function () {
  "use strict";
  var KINDS = ["threat", "hot", "warm", "dead"];
  var section = null;   // the hints section of the page now on screen
  var asked = null;     // the turn the hints on screen are for
  var words = {};
  var latest = null;    // the newest turn a state said

  var sk = /** @type {SkCore & SkNet & SkBoard} */ (window.scorekeeper), fill = sk.fill;
  function hook() { return sk.board; }
  function overlay(cells, kind) { var b = hook(); if (b) { b.overlay(cells, kind); } }
  function clear() { KINDS.forEach(function (kind) { overlay([], kind); }); }
  function storeKey() { return "sk-hints-" + section.getAttribute("data-game"); }
  function remembered() {
    try { return localStorage.getItem(storeKey()) === "1"; } catch (e) { return false; }
  }
  function remember(on) {
    try {
      if (on) { localStorage.setItem(storeKey(), "1"); } else { localStorage.removeItem(storeKey()); }
    } catch (e) { /* private mode: the toggle still works for this page */ }
  }
  function one(selector) { return section.querySelector(selector); }

  function show(data) {
    var threatCells = {}, hot = [], warm = [], next = [], rows = [];
    data.threats.forEach(function (threat) {
      var kinds = {};
      threat.completing.forEach(function (c) {
        threatCells[c.row + "," + c.col] = [c.row, c.col];
        kinds[c.color + " " + c.shape] = c.unseen;
      });
      Object.keys(kinds).forEach(function (kind) {
        rows.push(fill(words.threat, {tile: (words.tile_names || {})[kind] || kind, n: kinds[kind]}));
      });
    });
    var threats = Object.keys(threatCells).map(function (k) { return threatCells[k]; });
    var best = data.hot_cells.length ? data.hot_cells[0].points : null;
    // Every hot cell, a threat's too (app.css draws the hot mark inside
    // the threat's): the best apart from the next best.
    data.hot_cells.forEach(function (h) {
      if (h.points === best) { hot.push([h.row, h.col]); }
      else { warm.push([h.row, h.col]); next.push(h.points); }
    });
    overlay(threats, "threat");
    overlay(hot, "hot");
    overlay(warm, "warm");
    overlay(data.dead_cells, "dead");
    var parts = [fill(words.threats, {n: data.threats.length})];
    if (best !== null) { parts.push(fill(words.hot, {points: best})); }
    if (next.length) { parts.push(fill(words.hot_next, {points: next.join(", ")})); }
    parts.push(fill(words.dead, {n: data.dead_cells.length}));
    one("[data-hints-summary]").textContent = parts.join(" · ");
    var list = one("[data-hints-threats]");
    list.textContent = "";
    rows.forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      list.appendChild(li);
    });
    section.setAttribute("data-hints-turn", String(data.turn));
  }

  function load(turn) {
    if (!section || asked === turn) { return; }
    asked = turn;
    var mine = section;
    sk.net.fetch(section.getAttribute("data-url")).then(function (resp) {
      if (!resp.ok) { throw new Error(String(resp.status)); }
      return resp.json();
    }).then(function (data) {
      // Still wanted: the same page, the toggle still on, no newer turn asked.
      if (section === mine && on() && asked === turn) { show(data); }
    }).catch(function () {
      if (section !== mine) { return; }
      asked = null;
      one("[data-hints-summary]").textContent = words.failed;
    });
  }
  function on() { var box = section && one("[data-hints-toggle]"); return !!(box && box.checked); }
  function currentTurn() {
    if (latest !== null) { return latest; }
    var holder = document.querySelector("[data-game-state]");
    try { return JSON.parse(holder.textContent).turn; } catch (e) { return null; }
  }

  function apply(turn) {
    var panel = one("[data-hints-panel]");
    panel.hidden = !on();
    if (on()) { load(turn); } else { asked = null; clear(); }
  }

  function start(main) {
    clear();
    asked = null;
    latest = null;
    section = main && main.querySelector("[data-hints]");
    if (!section) { return; }
    words = sk.json(section.getAttribute("data-text"));
    var box = one("[data-hints-toggle]");
    // Turned on before this script came (later.js fetched it for that tap).
    if (box.checked) { remember(true); }
    box.checked = remembered();
    box.addEventListener("change", function () {
      remember(box.checked);
      apply(currentTurn());
    });
    apply(currentTurn());
  }

  // Every new state of the game (table.js), and a move confirmed here (board.js).
  document.addEventListener("sk:state", function (ev) {
    if (!ev.detail || !ev.detail.state) { return; }
    latest = ev.detail.state.turn;
    if (section && on()) { load(latest); }
  });
  sk.onMain(start);
})();
