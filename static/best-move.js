/// <reference path="core.js" />
/// <reference path="net.js" />
/// <reference path="board-hooks.js" />
/* Qwirkle Cubes: the best move of a roll, on request (the table decides);
   loaded by a Cubes game's page only, after the game bundle (core.js, net.js
   and the board's hooks).
   The cubes tapped here are the faces rolled; the server finds the move
   (POST /api/games/<id>/best-move), the board marks its cells (overlay
   "best") and "Put it on the board" hands it to the board as a pending move. */
(function () {
  "use strict";
  var sk = /** @type {SkCore & SkNet & SkBoard} */ (window.scorekeeper), fill = sk.fill;
  function hook() { return sk.board; }
  var onState = null;  // the listener of the page now on screen
  function start(main) {
    var box = main && main.querySelector("[data-best-move]");
    var hints = main && main.querySelector("[data-hints]");
    if (!box || !hints) { return; }
    var words = sk.json(hints.getAttribute("data-text"));
    var names = words.tile_names || {};
    var max = Number(box.getAttribute("data-max"));
    var roll = [];
    var best = null;
    function one(name) { return box.querySelector("[data-" + name + "]"); }
    var list = one("roll-list"), clearBtn = one("roll-clear");
    var find = one("best-find"), propose = one("best-propose"), result = one("best-result");
    function forget() {
      best = null;
      result.textContent = "";
      if (propose) { propose.hidden = true; }
      var b = hook();
      if (b) { b.overlay([], "best"); }
    }
    function showRoll() {
      list.textContent = roll.map(function (k) { return names[k] || k; }).join(", ");
      find.disabled = !roll.length;
      clearBtn.disabled = !roll.length;
    }
    box.querySelectorAll("[data-roll]").forEach(function (btn) {
      btn.addEventListener("click", function () {
        if (roll.length >= max) { return; }
        roll.push(btn.getAttribute("data-roll"));
        forget();
        showRoll();
      });
    });
    clearBtn.addEventListener("click", function () { roll = []; forget(); showRoll(); });
    find.addEventListener("click", function () {
      var hand = roll.map(function (k) { var p = k.split(" "); return {color: p[0], shape: p[1]}; });
      find.disabled = true;
      sk.net.send("POST", box.getAttribute("data-url"), {hand: hand}).then(function (answer) {
        find.disabled = !roll.length;
        if (answer.status !== 200) {
          result.textContent = (answer.data.error && answer.data.error.message) || words.failed;
          return;
        }
        var data = answer.data;
        if (!data.tiles.length) { result.textContent = words.no_best; return; }
        best = data.tiles;
        result.textContent = fill(words.best, {points: data.points, tiles: best.map(function (t) {
          return names[t.color + " " + t.shape] || t.color + " " + t.shape;
        }).join(", ")});
        var b = hook();
        if (b) { b.overlay(best.map(function (t) { return [t.row, t.col]; }), "best"); }
        if (propose) { propose.hidden = false; }
      }).catch(function () { find.disabled = !roll.length; result.textContent = words.failed; });
    });
    if (propose) {
      propose.addEventListener("click", function () {
        var b = hook();
        if (b && best) {
          b.propose(best.map(function (t) { return [t.row, t.col, t.color, t.shape]; }));
        }
      });
    }
    // A new state (a move, an undo) makes the answer stale.
    if (onState) { document.removeEventListener("sk:state", onState); }
    onState = function () { if (best) { forget(); } };
    document.addEventListener("sk:state", onState);
    box.addEventListener("toggle", function () { if (!box.open) { forget(); } });
  }
  sk.onMain(start);
})();
