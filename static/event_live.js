/// <reference path="live.js" />
/* A club night's page follows its tables by itself (CONTRACT §14): live.js polls
   the event's state (tv.json, 304 while nothing changed); on a change the
   page's own name, tables and standings are fetched again and swapped in,
   drawn by the server as on a reload, so nothing is drawn twice (a rename on
   another device shows here too, title included). The seating form and what
   is typed in it stay as they are. Once the night is deleted (404) polling
   stops and the page says so; what leads to the night's own pages is hidden,
   the tables' links to their games stay (the games are kept). */
(function () {
  "use strict";
  var sk = /** @type {SkLive} */ (window.scorekeeper);
  var root = document.querySelector("[data-event-live]");
  if (!root || !sk || !sk.follow || !window.DOMParser) { return; }
  var key = root.getAttribute("data-key");
  var parts = ["[data-event-name]", "[data-event-day]", "[data-tables-section]", "[data-standings-section]"];
  var stop = null;

  function gone() {
    if (stop) { stop(); }
    root.setAttribute("data-tv-mode", "gone");
    /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-needs-event]")).forEach(function (el) { el.hidden = true; });
    /** @type {HTMLElement} */ (document.querySelector("[data-event-gone]")).hidden = false;
  }

  function refresh() {
    fetch(window.location.pathname, {credentials: "same-origin", cache: "no-store"})
      .then(function (resp) {
        if (resp.status === 404 || resp.status === 410) { gone(); return null; }
        return resp.ok ? resp.text() : null;
      })
      .then(function (html) {
        if (!html) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        parts.forEach(function (selector) {
          var now = document.querySelector(selector);
          var next = fresh.querySelector(selector);
          if (now && next) { now.replaceWith(document.importNode(next, true)); }
        });
        document.title = fresh.title;
        root.setAttribute("data-refreshed", String(Number(root.getAttribute("data-refreshed") || 0) + 1));
      })
      .catch(function () { /* offline for a moment: the next change tries again */ });
  }

  stop = sk.follow(root, function (state) {
    if (!state || state.key === key) { return; }
    key = state.key;
    refresh();
  }, gone);
})();
