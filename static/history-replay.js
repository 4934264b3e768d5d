// Replay stepping: arrow keys and the slider follow the server-rendered step links.
(function () {
  "use strict";
  var root = document.querySelector("[data-replay]");
  if (!root) { return; }
  var urls = {
    first: root.dataset.firstUrl,
    prev: root.dataset.prevUrl,
    next: root.dataset.nextUrl,
    last: root.dataset.lastUrl
  };
  var step = Number(root.dataset.step);
  var last = Number(root.dataset.last);

  function go(kind) {
    var url = urls[kind];
    var target = { first: 0, prev: step - 1, next: step + 1, last: last }[kind];
    if (url && target >= 0 && target <= last && target !== step) {
      window.location.assign(url);
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = (event.target && event.target.tagName) || "";
    // The slider and text fields keep their own arrow keys.
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
    var kind = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (kind) {
      event.preventDefault();
      go(kind);
    }
  });

  var slider = root.querySelector("[data-replay-slider]");
  if (slider) {
    slider.addEventListener("change", function () {
      slider.form.requestSubmit ? slider.form.requestSubmit() : slider.form.submit();
    });
  }
})();
