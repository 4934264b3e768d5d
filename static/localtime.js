// Local times: each <time data-localtime> arrives as UTC text; show it in the device's
// own time zone and language (the year only when it is not this year), keeping the UTC
// text as the title.
(function () {
  "use strict";
  if (typeof Intl === "undefined" || !Intl.DateTimeFormat) { return; }
  var thisYear = new Date().getFullYear();
  var cache = {};

  function formatter(style, withYear) {
    var key = style + (withYear ? "y" : "");
    if (!cache[key]) {
      var options = { month: "short", day: "numeric" };
      if (withYear) { options.year = "numeric"; }
      if (style !== "date") { options.hour = "2-digit"; options.minute = "2-digit"; }
      cache[key] = new Intl.DateTimeFormat(undefined, options);
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
