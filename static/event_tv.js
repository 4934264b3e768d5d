/// <reference path="live.js" />
/* A club night's TV view (CONTRACT §14): every table's totals and whose turn it
   is, and the standings; follows the event by itself through live.js (the
   game's table view does the same) and redraws from each new state, the
   night's name too (a rename on another device). Once the night is deleted
   live.js stops and the view says so. Names are set as text, never as markup. */
(function () {
  "use strict";
  var root = document.querySelector("[data-etv]");
  var holder = document.querySelector("[data-etv-state]");
  var sk = /** @type {SkLive} */ (window.scorekeeper);
  if (!root || !holder || !sk || !sk.follow) { return; }
  var state = JSON.parse(holder.textContent);
  var strings = JSON.parse(root.getAttribute("data-text") || "{}");

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function tableCard(t) {
    var card = el("article", "etv-table" + (t.status !== "active" ? " done" : ""));
    card.setAttribute("data-etv-table", String(t.id));
    var head = el("h2", "", strings.table.replace("{n}", t.number));
    if (t.status !== "active") {
      head.appendChild(document.createTextNode(" "));
      head.appendChild(el("small", "", "· " + (t.abandoned ? strings.abandoned : t.ended_early ? strings.ended_early : strings.finished)));
    }
    card.appendChild(head);
    var list = el("ol", "etv-players");
    t.players.forEach(function (p) {
      var classes = [];
      if (p.current) { classes.push("current"); }
      if (p.winner) { classes.push("winner"); }
      if (p.excluded) { classes.push("excluded"); }
      var item = el("li", classes.join(" "));
      if (p.current) { item.setAttribute("aria-current", "true"); }
      item.appendChild(el("span", "etv-name", p.name));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(el("b", "etv-total", String(p.score)));
      list.appendChild(item);
    });
    card.appendChild(list);
    if (t.turn_line) { card.appendChild(el("p", "etv-turn", t.turn_line)); }
    return card;
  }

  function rename(name) {
    if (name === state.name) { return; }
    document.querySelector("[data-etv-name]").textContent = name;
    // The title is "<TV view> · <name> · <app>" (tv.html); the words before
    // the name hold no " · " in any language, so the name starts after the
    // first one.
    var title = document.title;
    var at = title.indexOf(" · ") + 3;
    if (at > 2 && title.substr(at, state.name.length) === state.name) {
      document.title = title.slice(0, at) + name + title.slice(at + state.name.length);
    }
  }

  function gone() {
    /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-needs-event]")).forEach(function (el) { el.hidden = true; });
    /** @type {HTMLElement} */ (document.querySelector("[data-event-gone]")).hidden = false;
  }

  function show(next) {
    if (!next || next.key === state.key) { return; }
    rename(next.name);
    state = next;
    var tables = root.querySelector("[data-etv-tables]");
    tables.textContent = "";
    next.tables.forEach(function (t) { tables.appendChild(tableCard(t)); });
    var body = root.querySelector("[data-etv-standings] tbody");
    body.textContent = "";
    next.standings.forEach(function (r) {
      var row = el("tr");
      row.appendChild(el("td", "", String(r.rank)));
      var name = el("th", "", r.name);
      name.setAttribute("scope", "row");
      row.appendChild(name);
      // A season scored by placement or share ranks by value: shown for wins.
      row.appendChild(el("td", "", String(next.valued ? r.value : r.wins)));
      row.appendChild(el("td", "", String(r.points)));
      body.appendChild(row);
    });
    /** @type {HTMLElement} */ (root.querySelector("[data-etv-none]")).hidden = next.standings.length > 0;
    root.setAttribute("data-etv-key", next.key);
  }

  root.setAttribute("data-etv-key", state.key);
  sk.follow(root, show, gone);
})();
