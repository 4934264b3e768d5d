/// <reference path="core.js" />
/* Replay stepping in place: buttons, arrow keys and the slider show any step at
   once from the steps the page carries (data-replay-steps), and each step keeps
   its own address (?move=N, history.pushState), which the server also renders
   for a shared link or a browser without JavaScript. Every sentence is the
   server's (text.py): this script only puts it in place. */
(function () {
  "use strict";
  var root = /** @type {HTMLElement} */ (document.querySelector("[data-replay]"));
  var holder = root && root.querySelector("[data-replay-steps]");
  if (!root || !holder) { return; }
  var sk = /** @type {SkCore} */ (window.scorekeeper);
  var data = JSON.parse(holder.textContent);
  var steps = data.steps;
  var words = sk.json(root.getAttribute("data-text"));
  var last = steps.length - 1;
  var step = Number(root.getAttribute("data-step"));
  var board = root.querySelector(".replay-board");

  function one(selector) { return root.querySelector(selector); }
  function text(el, value) { if (el && el.textContent !== value) { el.textContent = value; } }
  function url(n) { return root.getAttribute("data-step-url") + n; }

  /* --- the board: the tiles placed up to the step, marked as the server marks them --- */
  var shown = {};  // tile index -> its element
  var size = null;
  function makeTile(t, cls, ring) {
    return sk.tile(t[4], t[5], {cls: cls, x: t[0], y: t[1], size: size, ring: ring, cell: [t[2], t[3]],
                                title: (words.tile_names || {})[t[4] + " " + t[5]] || "",
                                letter: ring === "best" ? undefined : (words.letters || {})[t[4]] || ""});
  }
  function drawBoard(n, facts) {
    if (!board) { return; }
    size = size || Number(board.getAttribute("data-cell-size")) || 40;
    var qwirkle = {};
    facts.qwirkle_cells.forEach(function (rc) { qwirkle[rc[0] + "," + rc[1]] = true; });
    var frag = document.createDocumentFragment();
    data.tiles.forEach(function (t, i) {
      var el = shown[i];
      if (t[6] >= n) {
        if (el) { el.remove(); delete shown[i]; }
        return;
      }
      if (!el) { el = shown[i] = makeTile(t, "rtile"); frag.appendChild(el); }
      var placed = t[6] === n - 1;
      var cls = "rtile" + (placed ? " placed" : "") + (qwirkle[t[2] + "," + t[3]] ? " qwirkle" : "") +
        " c-" + t[4];
      // Only the tiles whose marks change: each write restyles a tile.
      if (el.getAttribute("class") !== cls) {
        el.setAttribute("class", cls);
        var ring = el.querySelector("rect.mark");
        if (placed && !ring) { sk.ring(el, "mark"); } else if (!placed && ring) { ring.remove(); }
      }
    });
    board.appendChild(frag);
    board.setAttribute("data-tiles", String(facts.on_board));
    var label = board.getAttribute("aria-label") || "";
    board.setAttribute("aria-label", label.replace(/\d+(?!.*\d)/, String(n)));
  }
  /* The server's tiles become the script's (same order: the order placed). */
  if (board) {
    var drawn = board.querySelectorAll(".rtile");
    var index = 0;
    data.tiles.forEach(function (t, i) {
      if (t[6] < step && drawn[index]) { shown[i] = drawn[index]; index++; }
    });
  }

  /* --- the words and figures of a step --- */
  function showMove(facts, n) {
    var p = one(".replay-move");
    if (!p) { return; }
    p.hidden = !facts.type;
    p.setAttribute("data-move-type", facts.type || "");
    text(one("[data-move-summary]"), facts.summary);
    text(one("[data-move-sep]"), facts.type === "place" || facts.penalty ? ":" : " ·");
    // A penalty says what it cost (RULES §7) before its points (0 or a deduction).
    var part = one("[data-penalty-part]");
    part.textContent = "";
    if (facts.penalty) {
      var said = document.createElement("span");
      said.setAttribute("data-penalty", "");
      said.textContent = facts.penalty;
      part.appendChild(said);
      part.appendChild(document.createTextNode(" · "));
    }
    text(one("[data-move-points]"), String(facts.points));
    text(one("[data-points-word]"), facts.points_word);
    one("[data-end-bonus]").hidden = !facts.end_bonus;
    text(one("[data-end-bonus-n]"), String(facts.end_bonus));
    var correct = one("[data-correct]");
    if (correct && n > 0) {
      correct.setAttribute("href", root.getAttribute("data-correct-url").replace("%(n)s", n));
    }
    var list = one("[data-lines]");
    list.textContent = "";
    facts.lines.forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line[0] + " = " + line[1];
      if (line[2]) {
        li.className = "qwirkle";
        var strong = document.createElement("strong");
        strong.className = "qwirkle-mark";
        strong.textContent = words.qwirkle;
        li.appendChild(document.createTextNode(" "));
        li.appendChild(strong);
      }
      list.appendChild(li);
    });
    list.hidden = !facts.lines.length;
  }
  /* "(excluded, not ranked)" or "(left the game, not ranked)" after the name
     of a player out of the game ("" for one in play). */
  function showOut(holder, why) {
    if (!holder || holder.textContent.trim() === (why && "(" + why + ")")) { return; }
    holder.textContent = "";
    if (why) {
      var small = document.createElement("small");
      small.className = "out";
      small.textContent = "(" + why + ")";
      holder.appendChild(document.createTextNode(" "));
      holder.appendChild(small);
    }
  }
  function showStanding(facts) {
    root.querySelectorAll("tr[data-seat]").forEach(function (tr) {
      var seat = Number(tr.getAttribute("data-seat"));
      var winner = facts.winners.indexOf(seat) >= 0;
      var out = facts.excluded.indexOf(seat) >= 0;
      tr.classList.toggle("mover", facts.mover === seat);
      tr.classList.toggle("winner", winner);
      tr.classList.toggle("excluded", out);
      tr.toggleAttribute("data-excluded", out);
      text(tr.querySelector("[data-star]"), winner ? " ★" : "");
      showOut(tr.querySelector("[data-out]"),
              facts.left.indexOf(seat) >= 0 ? words.left : out ? words.out : "");
      text(tr.querySelector("[data-total]"), String(facts.scores[seat]));
      text(tr.querySelector("[data-qwirkles]"), String(facts.qwirkles[seat]));
    });
    text(one("[data-bag]"), String(facts.bag));
    text(one("[data-on-board]"), String(facts.on_board));
    var next = one("[data-next]");
    next.hidden = !facts.next || !!facts.reason;
    if (facts.next) { text(next, " · " + words.next.replace("%(who)s", facts.next)); }
    one("[data-final]").hidden = !facts.reason;
    text(one("[data-reason]"), facts.reason);
  }
  /* A step link is a link, or a disabled span at either end (as the server draws it). */
  function showLinks(n) {
    var targets = {first: 0, prev: Math.max(n - 1, 0), next: Math.min(n + 1, last), last: last};
    var enabled = {first: n > 0, prev: n > 0, next: n < last, last: n < last};
    root.querySelectorAll("[data-replay-go]").forEach(function (el) {
      var kind = el.getAttribute("data-replay-go");
      var want = enabled[kind] ? "A" : "SPAN";
      var target = el;
      if (el.tagName !== want) {
        target = document.createElement(want.toLowerCase());
        Array.prototype.forEach.call(el.attributes, function (a) {
          if (a.name !== "href" && a.name !== "aria-disabled") { target.setAttribute(a.name, a.value); }
        });
        target.innerHTML = el.innerHTML;
        target.classList.toggle("disabled", !enabled[kind]);
        el.replaceWith(target);
      }
      if (enabled[kind]) { target.setAttribute("href", url(targets[kind])); }
      else { target.setAttribute("aria-disabled", "true"); }
    });
    var slider = one("[data-replay-slider]");
    if (slider) { slider.value = String(n); }
    text(one("[data-replay-step]"), String(n));
  }

  /* The better placement of the same tiles (CONTRACT §11): drawn over the board
     as the server draws it (history/_board.html), with its line of text. */
  function showBest(facts) {
    var layer = board && board.querySelector("[data-best]");
    if (layer) {
      layer.textContent = "";
      (facts.best || []).forEach(function (t) {
        layer.appendChild(makeTile(t, "best-tile", "best"));
      });
      board.appendChild(layer);  // over the tiles drawn since
    }
    var line = one("[data-best-line]");
    if (line) {
      text(line, facts.best_line || "");
      line.hidden = !facts.best_line;
    }
  }

  function show(n, push) {
    n = Math.max(0, Math.min(last, n));
    var facts = steps[n];
    drawBoard(n, facts);
    showBest(facts);
    text(one("[data-replay-title]"), facts.title);
    showMove(facts, n);
    showStanding(facts);
    showLinks(n);
    step = n;
    root.setAttribute("data-step", String(n));
    if (push) { history.pushState({step: n}, "", url(n)); }
    if (window.performance && performance.mark) { performance.mark("replay-step-" + n); }
  }

  function go(kind) {
    var target = {first: 0, prev: step - 1, next: step + 1, last: last}[kind];
    if (target >= 0 && target <= last && target !== step) { show(target, true); }
  }

  root.addEventListener("click", function (event) {
    var link = /** @type {Element} */ (event.target).closest("a[data-replay-go]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button) { return; }
    event.preventDefault();
    go(link.getAttribute("data-replay-go"));
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = (event.target && /** @type {Element} */ (event.target).tagName) || "";
    // The slider and text fields keep their own arrow keys.
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
    var kind = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[event.key];
    if (kind) {
      event.preventDefault();
      go(kind);
    }
  });
  var slider = one("[data-replay-slider]");
  if (slider) {
    slider.addEventListener("input", function () { show(Number(slider.value), false); });
    slider.addEventListener("change", function () { show(Number(slider.value), true); });
    slider.form.addEventListener("submit", function (event) {
      event.preventDefault();
      show(Number(slider.value), true);
    });
  }
  window.addEventListener("popstate", function (event) {
    var asked = new URLSearchParams(location.search).get("move");
    var n = event.state && typeof event.state.step === "number" ? event.state.step
      : asked === null ? last : parseInt(asked, 10);
    show(isNaN(n) ? last : n, false);
  });
  history.replaceState({step: step}, "", location.href);
})();
