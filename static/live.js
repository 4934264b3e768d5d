/* Follow a screen's state by itself (web/live.py): server-sent events from
   bounded streams the browser reconnects to, or polling the JSON state with
   an ETag where EventSource is missing or the stream cannot be opened.
   Used by the game's table view (tv.js) and a club night's TV view
   (event_tv.js): window.scorekeeper.follow(root, show) with root carrying
   data-events and data-poll (and data-live="poll" to poll only, data-poll-ms
   for another interval: tests); show(state) gets every new state. Once the
   state answers 404 or 410 (the game or the night was deleted) it stops for
   good and calls gone(), if given. The mode in use is written to root's
   data-tv-mode ("gone" at the end); follow returns a function that stops. */
/** What live.js gives the views that follow a state (sk.follow):
 * @typedef {{follow: (root: Element, show: (state: any) => void, gone?: () => void) => () => void}} SkLive */
(function () {
  "use strict";
  var POLL_MS = 3000;

  function follow(root, show, gone) {
    var etag = null;
    var polling = null;
    var source = null;
    var stopped = false;
    var every = Number(root.getAttribute("data-poll-ms")) || POLL_MS;

    function stop() {
      stopped = true;
      if (polling !== null) { clearInterval(polling); polling = null; }
      if (source) { source.close(); source = null; }
    }

    function poll() {
      var headers = {"Accept": "application/json"};
      if (etag) { headers["If-None-Match"] = etag; }
      fetch(root.getAttribute("data-poll"), {credentials: "same-origin", cache: "no-store", headers: headers})
        .then(function (resp) {
          if (stopped) { return null; }
          if (resp.status === 404 || resp.status === 410) {
            stop();
            root.setAttribute("data-tv-mode", "gone");
            if (gone) { gone(); }
            return null;
          }
          if (resp.status !== 200) { return null; }
          etag = resp.headers.get("ETag");
          return resp.json().then(show);
        })
        .catch(function () { /* offline for a moment: the next poll tries again */ });
    }
    function startPolling() {
      if (polling === null && !stopped) {
        root.setAttribute("data-tv-mode", "poll");
        polling = setInterval(poll, every);
        poll();
      }
    }
    function listen() {
      source = new EventSource(root.getAttribute("data-events"));
      root.setAttribute("data-tv-mode", "events");
      source.addEventListener("state", function (ev) { show(JSON.parse(ev.data)); });
      source.addEventListener("error", function () {
        // A stream that ends is reopened by the browser (CONNECTING); one the
        // server refused (an error answer) is CLOSED: poll instead (a poll
        // then tells a deleted thing from a busy server).
        if (source && source.readyState === EventSource.CLOSED) {
          source = null;
          startPolling();
        }
      });
    }
    // data-live="poll": a page that only glances (a club night's own page)
    // leaves the few stream slots to the screens that show it all.
    if (window.EventSource && root.getAttribute("data-live") !== "poll") {
      listen();
    } else {
      startPolling();
    }
    return stop;
  }

  var sk = /** @type {SkLive} */ (window.scorekeeper = window.scorekeeper || {});
  sk.follow = follow;
})();
