// Local times: each <time data-localtime> arrives in the page's language, in UTC until
// the server knows the device's zone; show it in the device's own time zone and the
// page's language (the year only when it is not this year), keeping the server's text
// as the title. The zone is left in a cookie so that later pages and the PDF use it.
(function () {
  "use strict";
  if (typeof Intl === "undefined" || !Intl.DateTimeFormat) { return; }
  var lang = document.documentElement.lang || undefined;
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // IANA names (Europe/Amsterdam, America/Argentina/Buenos_Aires) are cookie-safe.
    if (zone && /^[A-Za-z0-9_\/+\-]+$/.test(zone) && document.cookie.indexOf("tz=" + zone) === -1) {
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
    }
  } catch (e) { /* no zone: the server keeps UTC */ }
  var thisYear = new Date().getFullYear();
  var cache = {};

  function formatter(style, withYear) {
    var key = style + (withYear ? "y" : "");
    if (!cache[key]) {
      var options = /** @type {Intl.DateTimeFormatOptions} */ ({ month: "short", day: "numeric" });
      if (withYear) { options.year = "numeric"; }
      if (style !== "date") { options.hour = "2-digit"; options.minute = "2-digit"; }
      try { cache[key] = new Intl.DateTimeFormat(lang, options); }
      catch (e) { cache[key] = new Intl.DateTimeFormat(undefined, options); }
    }
    return cache[key];
  }

  var nodes = document.querySelectorAll("time[data-localtime]");
  Array.prototype.forEach.call(nodes, function (node) {
    var moment = new Date(node.getAttribute("datetime"));
    if (isNaN(moment.getTime())) { return; }
    var style = node.dataset.localtime;
    node.title = node.textContent;
    node.textContent = formatter(style, moment.getFullYear() !== thisYear).format(moment);
    node.dataset.local = "1";
  });
})();
