/// <reference path="core.js" />
/// <reference path="net.js" />
/* Correct a past move by tapping: the board as it was before the
   move, with the move's tiles on it. A tap on a free cell next to the tiles
   opens the picker; a tap on one of the move's tiles takes it off. The form's
   tile rows (row, column, colour, shape) stay the truth the server reads: this
   script fills them and hides them; without it they are typed in.
   The picker greys what the engine says cannot go on the tapped cell at this
   move's step (the server's options, data-options); a greyed tile tapped says
   the engine's reason. Without an answer nothing is greyed: the server still
   checks the correction. */
(function () {
  "use strict";
  var sk = /** @type {SkCore & SkNet} */ (window.scorekeeper);
  var CELL = 100;      // SVG units per cell
  var CELL_PX = 52;    // CSS px per cell: its free slot (inset 6%) is still 44 px or more
  var section = /** @type {HTMLElement} */ (document.querySelector("[data-correct-board]"));
  var form = section && section.closest("form");
  if (!section || !form) { return; }
  var board = JSON.parse(section.querySelector("[data-correct-state]").textContent).board;
  var svg = /** @type {SVGSVGElement} */ (section.querySelector("[data-correct-svg]"));
  var picker = /** @type {HTMLElement} */ (section.querySelector("[data-correct-picker]"));
  var typeField = /** @type {HTMLSelectElement} */ (form.querySelector('[name="type"]'));
  var coordinates = /** @type {HTMLElement} */ (form.querySelector("[data-coordinates]"));
  var chosen = null;   // [row, col] waiting for its tile
  var bad = [];        // [[row, col], ...] named by the engine's last refusal
  var words = sk.json(section.getAttribute("data-words"));
  var optionsUrl = section.getAttribute("data-options");
  var answers = {};    // options answers by cell and pending tiles
  var asking = null;   // the request the picker waits for

  function field(i, name) { return /** @type {HTMLInputElement} */ (form.querySelector('[name="tiles-' + i + '-' + name + '"]')); }
  function rows() {
    var n = 0;
    while (field(n, "row")) { n += 1; }
    return n;
  }
  /* The move's tiles as the form holds them. */
  function pending() {
    var out = [];
    for (var i = 0; i < rows(); i += 1) {
      var r = field(i, "row").value, c = field(i, "col").value;
      var color = field(i, "color").value, shape = field(i, "shape").value;
      if (r !== "" && c !== "" && color && shape) {
        out.push([Number(r), Number(c), color, shape]);
      }
    }
    return out;
  }
  function write(tiles) {
    for (var i = 0; i < rows(); i += 1) {
      var t = tiles[i];
      field(i, "row").value = t ? String(t[0]) : "";
      field(i, "col").value = t ? String(t[1]) : "";
      field(i, "color").value = t ? t[2] : "";
      field(i, "shape").value = t ? t[3] : "";
    }
  }
  function key(r, c) { return r + "," + c; }

  function tileNode(t, cls, label) {
    return sk.tile(t[2], t[3], {cls: "rtile" + (cls ? " " + cls : ""), x: t[1] * CELL, y: t[0] * CELL,
                                size: CELL, title: label, ring: cls ? "mark" : ""});
  }
  function kindLabel(color, shape) {
    var btn = picker.querySelector('[data-kind="' + color + " " + shape + '"]');
    return btn ? btn.getAttribute("aria-label") : color + " " + shape;
  }

  function draw() {
    var mine = pending();
    if (!chosen) { bad = []; }
    var taken = {};
    board.forEach(function (t) { taken[key(t[0], t[1])] = "board"; });
    mine.forEach(function (t) { taken[key(t[0], t[1])] = "move"; });
    var free = {};
    var all = board.concat(mine);
    if (!all.length) { free[key(0, 0)] = [0, 0]; }
    all.forEach(function (t) {
      [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(function (d) {
        var r = t[0] + d[0], c = t[1] + d[1];
        if (!taken[key(r, c)]) { free[key(r, c)] = [r, c]; }
      });
    });
    var cells = all.map(function (t) { return [t[0], t[1]]; })
      .concat(Object.keys(free).map(function (k) { return free[k]; }));
    var r0 = Math.min.apply(null, cells.map(function (x) { return x[0]; }));
    var r1 = Math.max.apply(null, cells.map(function (x) { return x[0]; }));
    var c0 = Math.min.apply(null, cells.map(function (x) { return x[1]; }));
    var c1 = Math.max.apply(null, cells.map(function (x) { return x[1]; }));
    var w = c1 - c0 + 1, h = r1 - r0 + 1;
    svg.setAttribute("viewBox", [c0 * CELL, r0 * CELL, w * CELL, h * CELL].join(" "));
    svg.style.width = (w * CELL_PX) + "px";
    svg.style.height = (h * CELL_PX) + "px";
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    sk.svg("rect", {"class": "board-bg", x: c0 * CELL, y: r0 * CELL, width: w * CELL, height: h * CELL}, svg);
    board.forEach(function (t) { svg.appendChild(tileNode(t, "", kindLabel(t[2], t[3]))); });
    mine.forEach(function (t) {
      var node = tileNode(t, "mine", kindLabel(t[2], t[3]));
      node.setAttribute("data-move-tile", key(t[0], t[1]));
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.setAttribute("aria-label", (words.take_off || "") + " " + kindLabel(t[2], t[3]));
      svg.appendChild(node);
    });
    Object.keys(free).forEach(function (k) {
      var rc = free[k];
      sk.svg("rect", {"class": "slot" + (chosen && chosen[0] === rc[0] && chosen[1] === rc[1] ? " chosen" : ""),
                      x: rc[1] * CELL + 6, y: rc[0] * CELL + 6, width: CELL - 12, height: CELL - 12, rx: 10,
                      "data-free": k, role: "button", tabindex: 0, "aria-label": words.free || ""}, svg);
    });
    // The cells an engine refusal named (a greyed tile asked why).
    bad.forEach(function (rc) {
      sk.svg("rect", {"class": "bad", x: rc[1] * CELL - 2, y: rc[0] * CELL - 2, width: CELL + 4,
                      height: CELL + 4, rx: 14}, svg);
    });
    section.setAttribute("data-drawn", String(mine.length));
  }

  function buttons() { return Array.prototype.slice.call(picker.querySelectorAll("[data-kind]")); }
  var line = picker.querySelector("[data-correct-say]");
  function say(message) {
    if (line) { line.textContent = message || ""; }
  }
  function get(query) {
    return sk.net.send("GET", optionsUrl + "?" + query).then(function (res) {
      return res.status === 200 ? res.data : null;
    });
  }
  function cellQuery(rc) {
    return "cell=" + encodeURIComponent(key(rc[0], rc[1])) +
      "&tiles=" + encodeURIComponent(JSON.stringify(pending()));
  }
  /* Grey the kinds the engine leaves out (kinds: null, no answer: none greyed). */
  function grey(kinds) {
    var any = false;
    buttons().forEach(function (btn) {
      var off = kinds !== null && kinds.indexOf(btn.getAttribute("data-kind")) < 0;
      any = any || !off;
      btn.disabled = false;
      btn.classList.toggle("off", off);
      btn.setAttribute("aria-disabled", off ? "true" : "false");
    });
    picker.removeAttribute("aria-busy");
    if (!any) { say(words.none_fit); }
  }
  function askOptions(rc) {
    var k = cellQuery(rc);
    var seq = asking = {};
    buttons().forEach(function (btn) { btn.disabled = true; });
    picker.setAttribute("aria-busy", "true");
    var known = answers[k];
    var waiting = known ? Promise.resolve(known) : get(k).then(function (data) {
      if (data && data.kinds) { answers[k] = data.kinds; }
      return data && data.kinds ? data.kinds : null;
    });
    waiting.catch(function () { return null; }).then(function (kinds) {
      if (asking === seq) { grey(kinds); }
    });
  }
  /* A greyed tile tapped: the engine's reason for that tile on that cell. */
  function explain(kind) {
    if (!chosen) { return; }
    get(cellQuery(chosen) + "&why=" + encodeURIComponent(kind)).then(function (data) {
      if (data && data.error && data.error.message) {
        say(data.error.message);
        bad = data.error.cells || [];
        draw();
      }
    }).catch(function () { /* no answer: the tile stays greyed, unexplained */ });
  }

  function choose(rc) {
    chosen = rc;
    bad = [];
    picker.hidden = false;
    say("");
    draw();
    askOptions(rc);
    var first = /** @type {HTMLElement} */ (picker.querySelector("[data-kind]"));
    if (first) { first.focus({preventScroll: true}); }
    picker.scrollIntoView({block: "nearest"});
  }
  function takeOff(k) {
    write(pending().filter(function (t) { return key(t[0], t[1]) !== k; }));
    draw();
  }
  function put(kind) {
    if (!chosen) { return; }
    var parts = kind.split(" ");
    var mine = pending();
    if (mine.length >= rows()) { return; }  // a full hand: no row left to fill
    mine.push([chosen[0], chosen[1], parts[0], parts[1]]);
    write(mine);
    chosen = null;
    picker.hidden = true;
    draw();
  }

  function activate(target) {
    var slot = target.closest("[data-free]");
    if (slot) {
      var p = slot.getAttribute("data-free").split(",");
      choose([Number(p[0]), Number(p[1])]);
      return;
    }
    var tile = target.closest("[data-move-tile]");
    if (tile) { takeOff(tile.getAttribute("data-move-tile")); }
  }
  svg.addEventListener("click", function (ev) { activate(ev.target); });
  svg.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); activate(ev.target); }
  });
  picker.addEventListener("click", function (ev) {
    var btn = /** @type {Element} */ (ev.target).closest("[data-kind]");
    if (btn && btn.classList.contains("off")) { explain(btn.getAttribute("data-kind")); }
    else if (btn) { say(""); put(btn.getAttribute("data-kind")); }
    if (/** @type {Element} */ (ev.target).closest("[data-correct-cancel]")) { chosen = null; asking = null; picker.hidden = true; draw(); }
  });

  function showForType() {
    var place = !typeField || typeField.value === "place";
    section.hidden = !place;
    if (coordinates) { coordinates.hidden = true; }
    // How many tiles were traded: only a trade asks it.
    var count = /** @type {HTMLElement | null} */ (form.querySelector("[data-count]"));
    if (count) { count.hidden = !typeField || typeField.value !== "trade"; }
  }
  if (typeField) { typeField.addEventListener("change", showForType); }
  showForType();
  draw();
  // Bring this move's tiles (or the board's middle) into view.
  var scroller = section.querySelector(".correct-scroll");
  var target = svg.querySelector("[data-move-tile]") || svg.querySelector("[data-free]");
  if (scroller && target) {
    var box = target.getBoundingClientRect(), frame = scroller.getBoundingClientRect();
    scroller.scrollLeft += box.left - frame.left - frame.width / 2 + box.width / 2;
    scroller.scrollTop += box.top - frame.top - frame.height / 2 + box.height / 2;
  }
})();
