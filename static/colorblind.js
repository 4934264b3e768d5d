/* Colour-blind mode: a letter on every tile, remembered on this device. Loaded in <head>
   so the class is set before the page paints. */
(function () {
  "use strict";
  var KEY = "qwirkle-colorblind";
  var on = false;
  try { on = localStorage.getItem(KEY) === "1"; } catch (e) { /* storage blocked */ }
  document.documentElement.classList.toggle("cb-mode", on);
  function wire() {
    var btn = document.querySelector("[data-cb-toggle]");
    if (!btn) { return; }
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    var said = /** @type {HTMLElement} */ (document.querySelector("[data-cb-said]"));
    var timer = 0;
    btn.addEventListener("click", function () {
      on = !on;
      document.documentElement.classList.toggle("cb-mode", on);
      btn.setAttribute("aria-pressed", on ? "true" : "false");
      try { localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* storage blocked */ }
      /* "R·G·B" alone does not say what it does: say it when it is turned on. */
      if (said) {
        said.hidden = !on;
        clearTimeout(timer);
        if (on) { timer = setTimeout(function () { said.hidden = true; }, 4000); }
      }
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", wire); }
  else { wire(); }
})();
