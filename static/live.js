/* Follow a screen's state by itself (web/live.py): server-sent events from
   bounded streams the browser reconnects to, or polling the JSON state with
   an ETag where EventSource is missing or the stream cannot be opened.
   Used by the game's table view (tv.js) and a club night's TV view
   (event_tv.js): window.scorekeeper.follow(root, show) with root carrying
   data-events and data-poll (and data-live="poll" to poll only); show(state)
   gets every new state; the mode in use is written to root's data-tv-mode. */
(function () {
  "use strict";
  var POLL_MS = 3000;

  function follow(root, show) {
    var etag = null;
    var polling = null;

    function poll() {
      var headers = {"Accept": "application/json"};
      if (etag) { headers["If-None-Match"] = etag; }
      fetch(root.getAttribute("data-poll"), {credentials: "same-origin", cache: "no-store", headers: headers})
        .then(function (resp) {
          if (resp.status !== 200) { return null; }
          etag = resp.headers.get("ETag");
          return resp.json().then(show);
        })
        .catch(function () { /* offline for a moment: the next poll tries again */ });
    }
    function startPolling() {
      if (polling === null) {
        root.setAttribute("data-tv-mode", "poll");
        polling = setInterval(poll, POLL_MS);
        poll();
      }
    }
    function listen() {
      var source = new EventSource(root.getAttribute("data-events"));
      root.setAttribute("data-tv-mode", "events");
      source.addEventListener("state", function (ev) { show(JSON.parse(ev.data)); });
      source.addEventListener("error", function () {
        // A stream that ends is reopened by the browser (CONNECTING); one the
        // server refused (an error answer) is CLOSED: poll instead.
        if (source.readyState === EventSource.CLOSED) { startPolling(); }
      });
    }
    // data-live="poll": a page that only glances (a club night's own page)
    // leaves the few stream slots to the screens that show it all.
    if (window.EventSource && root.getAttribute("data-live") !== "poll") {
      listen();
    } else {
      startPolling();
    }
  }

  window.scorekeeper = window.scorekeeper || {};
  window.scorekeeper.follow = follow;
})();
