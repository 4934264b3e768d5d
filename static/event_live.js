/* A club night's page follows its tables by itself (issue 23): live.js polls
   the event's state (tv.json, 304 while nothing changed); on a change the
   page's own tables and standings are fetched again and swapped in, drawn by
   the server as on a reload, so nothing is drawn twice. The seating form and
   what is typed in it stay as they are. */
(function () {
  "use strict";
  var root = document.querySelector("[data-event-live]");
  if (!root || !window.scorekeeper || !window.scorekeeper.follow || !window.DOMParser) { return; }
  var key = root.getAttribute("data-key");
  var parts = ["[data-tables-section]", "[data-standings-section]"];

  function refresh() {
    fetch(window.location.pathname, {credentials: "same-origin", cache: "no-store"})
      .then(function (resp) { return resp.ok ? resp.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        parts.forEach(function (selector) {
          var now = document.querySelector(selector);
          var next = fresh.querySelector(selector);
          if (now && next) { now.replaceWith(document.importNode(next, true)); }
        });
        root.setAttribute("data-refreshed", String(Number(root.getAttribute("data-refreshed") || 0) + 1));
      })
      .catch(function () { /* offline for a moment: the next change tries again */ });
  }

  window.scorekeeper.follow(root, function (state) {
    if (!state || state.key === key) { return; }
    key = state.key;
    refresh();
  });
})();
