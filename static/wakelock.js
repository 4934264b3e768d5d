/* Keeps the screen awake while a game is open, unless the switch
   ([data-awake], remembered in localStorage) turns it off.

   The Wake Lock API needs a secure context (HTTPS or localhost); on the table's
   plain-HTTP LAN address navigator.wakeLock is missing, so the page falls back
   to a tiny looping video (static/awake.webm, 518 bytes), started on the first
   tap because browsers only play media after a gesture. Blink keeps the screen
   on for a silent playing video only while it covers over a fifth of the
   viewport and is mostly on screen, so the video is full-bleed, behind the
   page, at 1% opacity, and never takes a tap. */
(function () {
  "use strict";
  var KEY = "scorekeeper.awake";
  var toggle = /** @type {HTMLElement} */ (document.querySelector("[data-awake]"));
  var lock = null;
  var video = null;
  var nativeFailed = !("wakeLock" in navigator);

  function wanted() {
    try { return localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }

  function remember(on) {
    try {
      if (on) { localStorage.removeItem(KEY); } else { localStorage.setItem(KEY, "off"); }
    } catch (e) { /* private mode: the switch still works for this page */ }
  }

  function makeVideo() {
    if (video || !toggle) { return video; }
    video = document.createElement("video");
    video.muted = true;
    video.defaultMuted = true;
    video.setAttribute("muted", "");
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
    video.setAttribute("tabindex", "-1");
    video.className = "awake-video";
    video.src = toggle.getAttribute("data-video");
    // Loops by seeking, not with the loop attribute (WebKit never keeps the
    // screen on for a looping element).
    video.addEventListener("ended", function () {
      video.currentTime = 0;
      play();
    });
    document.body.appendChild(video);
    return video;
  }

  function play() {
    if (!wanted() || document.visibilityState !== "visible") { return; }
    var promise = makeVideo() && video.play();
    if (promise && promise.catch) {
      promise.catch(function () { /* no gesture yet: the next tap tries again */ });
    }
  }

  function stopVideo() {
    if (video) { video.pause(); }
  }

  function request() {
    if (!wanted() || document.visibilityState !== "visible") { return; }
    if (nativeFailed) { play(); return; }
    if (lock) { return; }
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () {
      // Refused (not allowed here, battery saver): the video does it instead.
      nativeFailed = true;
      play();
    });
  }

  function release() {
    if (lock) { lock.release(); lock = null; }
    stopVideo();
  }

  function show() {
    if (!toggle) { return; }
    toggle.setAttribute("aria-pressed", wanted() ? "true" : "false");
  }

  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      remember(!wanted());
      show();
      if (wanted()) { request(); } else { release(); }
    });
  }
  // The first tap anywhere is the gesture that lets the video play.
  document.addEventListener("pointerdown", function () {
    if (nativeFailed && wanted() && (!video || video.paused)) { play(); }
  }, true);
  document.addEventListener("keydown", function () {
    if (nativeFailed && wanted() && (!video || video.paused)) { play(); }
  }, true);
  document.addEventListener("visibilitychange", request);
  show();
  request();
})();
