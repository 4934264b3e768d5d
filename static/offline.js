/// <reference path="net.js" />
/// <reference path="board-hooks.js" />
/* A move confirmed while the scorekeeper cannot be reached.

   board.js (a placing move) and table.js (a trade or a pass) hand such a move
   to window.scorekeeper.offline.keep(url, move): it is kept in localStorage
   (one per game: the last one confirmed), shown as not sent yet
   ([data-offline]), and sent again, with the `turn` it was made for, every few
   seconds and whenever the browser says it is online, until the server
   answers. The turn makes a second copy impossible: once the game has moved on
   the server refuses with 409 and its state; if that state holds this very move
   as its move number `turn`, the first try was stored (only its answer was
   lost) and that counts as sent (a trade: as many tiles; a pass: any pass).
   Penalties are not kept: one is recorded at the table, at that moment. */
/** What offline.js gives the scripts that send moves (sk.offline; a page
 * without it sends moves only while the server answers):
 * @typedef {{offline?: {keep: (url: string, move: Object<string, *>) => boolean,
 *                       message: () => string, pending: () => boolean}}} SkOffline */
(function () {
  "use strict";
  var sk = /** @type {SkNet & SkBoard & SkOffline} */ (window.scorekeeper);
  var PREFIX = "scorekeeper.pending:";
  var RETRY_MS = 4000;
  var timer = null;
  var sending = false;

  function note() { return /** @type {HTMLElement} */ (document.querySelector("[data-offline]")); }
  function strings() {
    var el = note();
    try { return JSON.parse((el && el.getAttribute("data-text")) || "{}"); } catch (e) { return {}; }
  }
  function tell(name, cls, extra) {
    var el = note();
    if (!el) { return; }
    el.textContent = (strings()[name] || "") + (extra ? " " + extra : "");
    el.className = "offline-note " + cls;
    el.hidden = false;
  }

  function storageKey(url) { return PREFIX + url; }
  function load(url) {
    try { return JSON.parse(localStorage.getItem(storageKey(url)) || "null"); } catch (e) { return null; }
  }
  function save(url, move) {
    try {
      localStorage.setItem(storageKey(url), JSON.stringify({url: url, move: move}));
      return true;
    } catch (e) { return false; }
  }
  function forget(url) {
    try { localStorage.removeItem(storageKey(url)); } catch (e) { /* nothing kept */ }
  }
  function pageUrl() {
    var svg = document.querySelector("[data-board][data-api]");
    return svg ? svg.getAttribute("data-api") + "/moves" : null;
  }

  function tileKeys(tiles) {
    return (tiles || []).map(function (t) {
      return [t.row, t.col, t.color, t.shape].join(",");
    }).sort().join(" ");
  }
  /* Whether the game's state already holds move as its move number move.turn. */
  function holds(state, move) {
    var stored = state && state.moves && state.moves[move.turn];
    if (!stored || stored.type !== move.type) { return false; }
    if (move.type === "trade") { return stored.count === move.count; }
    return move.type !== "place" || tileKeys(stored.tiles) === tileKeys(move.tiles);
  }

  function answer(state) {
    document.dispatchEvent(new CustomEvent("sk:answer", {detail: {state: state}}));
  }

  function schedule() {
    if (timer === null) { timer = setTimeout(function () { timer = null; flush(); }, RETRY_MS); }
  }

  function flush() {
    var url = pageUrl();
    var item = url && load(url);
    if (!item || sending) { return; }
    sending = true;
    sk.net.send("POST", item.url, item.move).then(function (res) {
      var data = res.data, status = res.status;
      sending = false;
      if (status >= 500 || status === 408 || status === 429) { schedule(); return; }
      forget(item.url);
      if (status === 201 || status === 200) {
        tell("sent", "ok");
        answer(data.game);
      } else if (status === 409 && data.game) {
        tell(holds(data.game, item.move) ? "sent" : "lost", holds(data.game, item.move) ? "ok" : "error");
        answer(data.game);
      } else {
        tell("refused", "error", (data.error && data.error.message) || "");
        // The cells the engine's refusal names, marked until the move changes.
        var board = sk.board;
        if (board && data.error && data.error.cells) { board.overlay(data.error.cells, "refused"); }
      }
    }).catch(function () {
      sending = false;
      schedule();
    });
  }

  sk.offline = {
    /* Keep a move the server could not be reached for; false when it cannot be kept. */
    keep: function (url, move) {
      if (!save(url, move)) { return false; }
      tell("pending", "wait");
      schedule();
      return true;
    },
    message: function () { return strings().pending || ""; },
    pending: function () { var url = pageUrl(); return !!(url && load(url)); }
  };

  var hooks = sk.board;
  if (hooks) {
    hooks.on("pending", function () { hooks.overlay([], "refused"); });
    hooks.on("state", function () { hooks.overlay([], "refused"); });
  }
  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { flush(); }
  });
  function boot() {
    var url = pageUrl();
    if (url && load(url)) { tell("pending", "wait"); flush(); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", boot); }
  else { boot(); }
})();
