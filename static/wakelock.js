/* Keeps the screen awake while a game is open, where the browser offers a Wake Lock
   (HTTPS or localhost only); elsewhere it does nothing. */
(function () {
  "use strict";
  if (!("wakeLock" in navigator)) { return; }
  var lock = null;
  function request() {
    if (lock || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* refused (battery saver, not allowed): fine */ });
  }
  document.addEventListener("visibilitychange", request);
  request();
})();
