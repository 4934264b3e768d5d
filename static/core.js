/* What every page script shares, on window.scorekeeper (here `sk`): loaded
   first in each bundle (web/assets.py), before net.js and the page's scripts.

   sk.fill(template, vars)   a sentence of the server's with its %(name)s gaps filled
   sk.json(text, fallback)   JSON.parse that gives `fallback` ({}) for bad text
   sk.svg(name, attrs, parent)   an SVG element
   sk.tile(color, shape, o)  one tile on a board, a <g>: the one place JavaScript
                             draws a tile, the same markup as the Jinja macro
                             `tile` of templates/_tile.html (the server's one place)
   sk.onTap(parent, selector, act)   act on a finger's tap at pointerup
   sk.afterPaint(work)       run work once the next frame is out
   sk.onMain(start)          start(main) on the page's <main>, and again on each
                             <main> table.js swaps in (event "sk:main") */
/** What core.js gives every script (`sk`):
 * @typedef {{
 *   fill: (template: string, vars?: Object<string, *>) => string,
 *   countLabel: (el: Element | null, n: number) => void,
 *   json: (text: string | null | undefined, fallback?: *) => any,
 *   svg: (name: string, attrs: Object<string, *>, parent?: Element) => Element,
 *   tile: (color: string, shape: string, o?: Object<string, *>) => Element,
 *   ring: (el: Element, cls: string) => Element,
 *   onTap: (parent: HTMLElement, selector: string, act: (el: HTMLButtonElement) => void) => void,
 *   afterPaint: (work: () => void) => void,
 *   onMain: (start: (main: HTMLElement) => void) => void
 * }} SkCore */
(function () {
  "use strict";
  var sk = /** @type {SkCore} */ (window.scorekeeper = window.scorekeeper || {});
  var NS = "http://www.w3.org/2000/svg";

  sk.fill = function (template, vars) {
    var out = template || "";
    Object.keys(vars || {}).forEach(function (k) { out = out.split("%(" + k + ")s").join(vars[k]); });
    return out;
  };
  /* Keep an element's name current as its number changes: the server gave its
     forms for 0, 1 and more (_counted.html), each in the page's language. */
  sk.countLabel = function (el, n) {
    var form = el && el.getAttribute("data-label-" + (n < 2 ? n : "n"));
    if (form) { el.setAttribute("aria-label", form.replace(/\d+/, String(n))); }
  };
  sk.json = function (text, fallback) {
    try { return JSON.parse(text || ""); } catch (e) { return fallback === undefined ? {} : fallback; }
  };
  sk.svg = function (name, attrs, parent) {
    var el = document.createElementNS(NS, name);
    for (var k in attrs) { el.setAttribute(k, attrs[k]); }
    if (parent) { parent.appendChild(el); }
    return el;
  };
  /* o: cls (first class, "tile"), x / y / size (where it sits on the board, in
     the board's units), cell ([row, col]: data-cell), label (a name: role
     img), title (a <title> instead), letter (the colour-blind letter; none: no
     letter), ring (the class of a frame drawn over it). A <g>, not a nested
     <svg>: a board of them redraws a fifth faster on a slow phone. */
  sk.tile = function (color, shape, o) {
    o = o || {};
    var size = o.size || 100;
    var attrs = {"class": (o.cls || "tile") + " c-" + color,
                 transform: "translate(" + (o.x || 0) + " " + (o.y || 0) + ")" +
                            (size !== 100 ? " scale(" + size / 100 + ")" : "")};
    if (o.cell) { attrs["data-cell"] = o.cell[0] + "," + o.cell[1]; }
    if (o.label) { attrs.role = "img"; attrs["aria-label"] = o.label; }
    var el = sk.svg("g", attrs);
    if (o.title) { sk.svg("title", {}, el).textContent = o.title; }
    sk.svg("use", {href: "#tile", width: 100, height: 100}, el);
    sk.svg("use", {href: "#" + shape, width: 100, height: 100, "class": "sym"}, el);
    if (o.letter !== undefined) { sk.svg("text", {"class": "cb", x: 84, y: 93}, el).textContent = o.letter; }
    if (o.ring) { sk.ring(el, o.ring); }
    return el;
  };
  /* A frame of class cls over a tile (sk.tile's ring), e.g. the last move's. */
  sk.ring = function (el, cls) {
    return sk.svg("rect", {"class": cls, x: 3, y: 3, width: 94, height: 94, rx: 13}, el);
  };

  /* The element matching selector that an event happened in, if any. */
  function tapped(ev, selector) {
    var el = /** @type {Element} */ (ev.target);
    return /** @type {HTMLButtonElement | null} */ (el.closest ? el.closest(selector) : null);
  }

  /* Act on a tap when the finger lifts, on the element it went down on: the
     click a browser makes of a tap comes after a round of emulated mouse
     events, tens of milliseconds later on a slow phone. Keyboards and mice
     still act by click. */
  sk.onTap = function (parent, selector, act) {
    var pressed = null;
    parent.addEventListener("pointerdown", function (ev) {
      pressed = ev.pointerType === "mouse" ? null : tapped(ev, selector);
    });
    parent.addEventListener("pointercancel", function () { pressed = null; });
    var done = null;  // {el, at}: acted on by a finger, so its click is no new tap
    parent.addEventListener("pointerup", function (ev) {
      var el = tapped(ev, selector);
      if (el && el === pressed && !el.disabled) {
        pressed = null;
        done = {el: el, at: ev.timeStamp};
        act(el);
      }
    });
    parent.addEventListener("touchend", function (ev) {
      // Handled at pointerup: no emulated mouse events, no click after it.
      if (tapped(ev, selector)) { ev.preventDefault(); }
    });
    parent.addEventListener("click", function (ev) {
      var el = tapped(ev, selector);
      if (done && done.el === el && ev.timeStamp - done.at < 1000) { done = null; return; }
      if (el && !el.disabled) { act(el); }
    });
  };
  sk.afterPaint = function (work) {
    requestAnimationFrame(function () { setTimeout(work, 0); });
  };
  sk.onMain = function (start) {
    document.addEventListener("sk:main", function (ev) { start(ev.detail.main); });
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", function () { start(document.querySelector("main")); });
    } else { start(document.querySelector("main")); }
  };
})();
