/// <reference path="core.js" />
/// <reference path="net.js" />
/// <reference path="offline.js" />
/* The game page around the board: keeps scores, status, tracker and the other
   moves (trade, pass, undo) in step with the game state, without reloading.

   Every state comes from the server (the API's answers, web/state.py): this
   script puts it on the page and tells the board (event "sk:state"). States
   come from a move's answer (board.js), from trade / pass / undo here, and from
   polling while another device enters moves. Every sentence comes from the page
   (data-text), built by text.py. Without JavaScript the forms still post.
   Table discipline (RULES §7): a penalty is recorded here too, the penalty
   buttons name the player to move, and the countdown starts again with each
   turn (countdown.js counts; a move carries its thinking time). */
(function () {
  "use strict";
  var POLL_MS = 3000;
  var game = null;    // {main, state, etag, text, clock, skew}: the page now on screen

  var sk = /** @type {SkCore & SkNet & SkOffline} */ (window.scorekeeper);
  var fill = sk.fill, send = sk.net.send;
  /* Newer = more moves, or as many written later (an undo and a move, a rename). */
  function newer(a, b) {
    return !b || a.turn !== b.turn || a.updated_at > b.updated_at;
  }

  /* --- putting a state on the page --- */

  function setHidden(el, hidden) { if (el) { el.hidden = hidden; } }
  function text(el, value) { if (el && el.textContent !== value) { el.textContent = value; } }

  function showScores(main, state, t) {
    var active = state.status === "active";
    main.querySelectorAll("section.scores .player").forEach(function (el) {
      var seat = Number(el.getAttribute("data-player"));
      var player = state.players[seat];
      var current = active && seat === state.current_player;
      el.classList.toggle("current", current);
      if (current) { el.setAttribute("aria-current", "true"); } else { el.removeAttribute("aria-current"); }
      text(el.querySelector("[data-total]"), String(player.score));
      text(el.querySelector(".last"), state.last_points[seat] || "–");
      var hand = el.querySelector("[data-hand]");
      text(hand, fill(t.hand, {n: player.hand}));
      setHidden(hand, state.bag !== 0);
    });
  }
  function showStatus(main, state, t) {
    text(main.querySelector("[data-bag]"), String(state.bag));
    var who = state.players[state.current_player].name;
    text(main.querySelector("[data-turn]"),
         state.status === "active" ? fill(t.to_play, {name: who}) : t.game_over);
    var last = main.querySelector("[data-last-move]");
    if (last && state.last_move) {
      text(last, fill(t.last_move, {name: state.players[state.last_move.player].name,
                                    move: state.last_move.text}));
    }
    setHidden(last, !state.last_move);
    setHidden(main.querySelector("[data-first-hint]"), state.turn > 0);
  }
  function showTracker(main, state, t) {
    var left = {};
    state.unseen.forEach(function (u) { left[u.color + " " + u.shape] = u.count; });
    main.querySelectorAll(".tracker-grid td[data-kind]").forEach(function (td) {
      var n = left[td.getAttribute("data-kind")] || 0;
      text(td.querySelector(".n"), String(n));
      td.classList.toggle("gone", n === 0);
    });
    main.querySelectorAll(".color-left li[data-color]").forEach(function (li) {
      var n = left[li.getAttribute("data-color") + " "] || 0;
      text(li.querySelector("[data-left]"),
           fill((t.left || [])[n] || String(n), {color: li.getAttribute("data-color-name")}));
      li.classList.toggle("gone", n === 0);
    });
  }
  function showActions(main, state) {
    main.querySelectorAll("input[name=turn]").forEach(function (input) { input.value = String(state.turn); });
    var trade = main.querySelector("[data-trade]");
    if (trade) {
      var select = trade.querySelector("select");
      var keep = select.value;
      if (select.options.length !== state.max_trade) {
        select.textContent = "";
        for (var n = 1; n <= state.max_trade; n++) {
          var option = document.createElement("option");
          option.value = option.textContent = String(n);
          select.appendChild(option);
        }
        if (Number(keep) <= state.max_trade) { select.value = keep; }
      }
      setHidden(trade, state.max_trade === 0);
    }
    setHidden(main.querySelector("[data-pass]"), !state.can_pass);
    setHidden(main.querySelector("[data-undo]"), state.turn === 0);
    var confirmUndo = main.querySelector("[data-undo-confirm]");
    if (confirmUndo && state.turn === 0) { confirmUndo.hidden = true; }
  }

  /* The last five moves (web/table.py's RECENT), newest first, each a link to
     its correction: a move the list had keeps its line; a new last move takes
     the state's sentence, one the state has no sentence for its player's name. */
  function showRecent(main, state, t) {
    var box = main.querySelector("[data-recent]");
    if (!box || !state.moves) { return; }
    var list = box.querySelector("ol");
    var had = {};
    list.querySelectorAll("li[data-n]").forEach(function (li) { had[li.getAttribute("data-n")] = li; });
    list.textContent = "";
    for (var n = state.turn; n > 0 && n > state.turn - 5; n--) {
      var li = had[n];
      if (!li) {
        var move = state.moves[n - 1];
        var name = state.players[move.player].name;
        li = document.createElement("li");
        li.setAttribute("data-n", String(n));
        var a = document.createElement("a");
        a.href = box.getAttribute("data-url").replace("987654321", n);
        a.textContent = box.getAttribute("data-label").replace("987654321", n);
        var line = document.createElement("span");
        line.textContent = n === state.turn && state.last_move
          ? fill(t.move_line, {name: name, what: state.last_move.text}) : name;
        li.append(a, " ", line);
      }
      list.appendChild(li);
    }
    box.hidden = !state.turn;
  }
  function excludedOf(state) {
    return state.players.map(function (p, seat) { return p.excluded ? seat : ""; }).join(",");
  }
  /* The penalty buttons and the countdown's tap name the player to move. */
  function showDiscipline(main, state) {
    var who = state.players[state.current_player].name;
    main.querySelectorAll("[data-discipline] [data-label]").forEach(function (button) {
      text(button, fill(button.getAttribute("data-label"), {name: who}));
    });
  }
  /* Put a fresh countdown in place of the running one: countdown.js follows the
     new element. Its elapsed time is the new turn's, by the server's clock
     (skew: how far this device's clock is from it, measured at the start). */
  function restartClock(state) {
    var old = game.main.querySelector("[data-countdown]");
    if (!old || !game.clock || state.status !== "active") { return; }
    var fresh = game.clock.cloneNode(true);
    var since = Date.now() - game.skew - Date.parse(state.updated_at);
    fresh.setAttribute("data-elapsed", String(since > 0 ? Math.floor(since / 1000) : 0));
    old.replaceWith(fresh);
  }
  /* The thinking time countdown.js keeps, for a move to carry (none without a clock). */
  function thinking(body) {
    var clock = document.querySelector("[data-countdown][data-thinking]");
    if (clock) { body.seconds = parseInt(clock.getAttribute("data-thinking"), 10); }
    return body;
  }

  /* The final screen (or its end, after an undo) is another page: fetch it and
     swap it in place of <main>, no reload; the scripts start again on it. */
  function swapMain() {
    return sk.net.fetch(location.href, {cache: "no-store", accept: "text/html"})
      .then(function (resp) { return resp.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("main");
        var old = document.querySelector("main");
        if (!fresh || !old) { location.reload(); return; }
        var adopted = document.adoptNode(fresh);
        old.replaceWith(adopted);
        document.title = doc.title;
        start(adopted);
        document.dispatchEvent(new CustomEvent("sk:main", {detail: {main: adopted}}));
      })
      .catch(function () { location.reload(); });
  }

  /* After a move made here the totals and the whole last-move line are on
     screen, below the sticky header: scroll up to them if needed. */
  function bringTotals(main) {
    var scores = main.querySelector("[data-scores]");
    var header = document.querySelector("header");
    if (!scores || !header) { return; }
    var below = header.getBoundingClientRect().bottom + 4;
    var top = scores.getBoundingClientRect().top;
    if (top < below) { window.scrollBy(0, top - below); }
  }
  function show(state, etag, mine) {
    if (!game) { return; }
    if (etag) { game.etag = etag; }
    if (!newer(state, game.state)) { return; }
    var ended = (state.status === "active") !== (game.state.status === "active");
    // A player left the game, or came back (an undo): they move between the
    // scores and the players out of the game, which the server draws.
    var out = excludedOf(state) !== excludedOf(game.state);
    game.state = state;
    // The board first (board.js redraws on this event) ...
    document.dispatchEvent(new CustomEvent("sk:state", {detail: {state: state}}));
    if (ended || out) { swapMain(); return; }
    // A new turn: its thinking time starts now (countdown.js counts it).
    restartClock(state);
    // ... the figures around it in the frame after, so the board is not kept
    // waiting by a restyle of the whole page on a slow phone.
    var main = game.main, t = game.text;
    requestAnimationFrame(function () {
      setTimeout(function () {
        if (game.state !== state || game.main !== main) { return; }
        showScores(main, state, t);
        main.querySelectorAll(".player.guessed").forEach(function (el) { el.classList.remove("guessed"); });
        showStatus(main, state, t);
        showTracker(main, state, t);
        showActions(main, state);
        showDiscipline(main, state);
        showRecent(main, state, t);
        if (mine) { bringTotals(main); }
      }, 0);
    });
  }

  /* --- trade, pass, undo through the API --- */

  function say(message, cls) {
    var line = game && game.main.querySelector("[data-preview]");
    if (line) {
      line.textContent = message;
      line.className = "preview" + (cls ? " " + cls : "");
    } else {
      flash(message, cls);
    }
  }
  /* A message where the server flashes its own (a penalty, as its form says it). */
  function flash(message, cls) {
    if (message) {
      var flashes = document.querySelector(".flashes");
      if (!flashes) {
        flashes = document.createElement("div");
        flashes.className = "flashes";
        flashes.setAttribute("role", "status");
        document.querySelector("main").before(flashes);
      }
      flashes.textContent = "";
      var p = document.createElement("p");
      p.className = "flash flash-" + (cls === "error" ? "error" : "info");
      p.textContent = message;
      flashes.appendChild(p);
    }
  }
  function answered(res, done, flashed) {
    var t = game.text;
    var error = (res.data && res.data.error) || {};
    if (res.status === 200 || res.status === 201) {
      show(res.data.game || res.data, null, true);
      if (done) { say(done, "ok"); }
      if (flashed) { flash(flashed(res), "ok"); }
    } else if (res.data && res.data.game) {
      show(res.data.game);
      say(t.conflict, "error");
    } else if (res.status === 403) {
      say(t.forbidden, "error");
    } else {
      say(error.message || fill(t.refused, {status: res.status}), "error");
    }
  }
  function busyBoard() {
    var svg = document.querySelector("[data-board]");
    return svg && svg.hasAttribute("data-busy");
  }
  function move(body, done, flashed) {
    var state = game.state;
    body.turn = state.turn;
    return send("POST", api() + "/moves", body)
      .then(function (res) { answered(res, done, flashed); })
      .catch(function () {
        // Offline: a trade or pass is kept and sent later, as a placing move is.
        var offline = sk.offline;
        if (body.type !== "penalty" && offline && offline.keep(api() + "/moves", body)) {
          say(offline.message(), "wait");
          return;
        }
        say(game.text.offline, "error");
      });
  }
  function api() { return document.querySelector("[data-board]").getAttribute("data-api"); }

  function wire(main) {
    var trade = main.querySelector("[data-trade]");
    if (trade) {
      trade.addEventListener("submit", function (ev) {
        ev.preventDefault();
        if (busyBoard()) { return; }
        move(thinking({type: "trade", count: Number(trade.querySelector("select").value)}));
      });
    }
    var pass = main.querySelector("[data-pass]");
    if (pass) {
      pass.addEventListener("submit", function (ev) {
        ev.preventDefault();
        if (busyBoard()) { return; }
        move(thinking({type: "pass"}));
      });
    }
    var penalty = main.querySelector("[data-penalty-form]");
    if (penalty) {
      // A penalty button, or the countdown's tap at zero (form="penalty-form").
      penalty.addEventListener("submit", function (ev) {
        var reason = ev.submitter && ev.submitter.value;
        if (!reason) { return; }  // no submitter known: the form posts
        ev.preventDefault();
        if (busyBoard()) { return; }
        var details = penalty.closest("details");
        if (details) { details.open = false; }
        var who = game.state.players[game.state.current_player].name;
        move({type: "penalty", reason: reason}, null, function (res) {
          return fill(game.text.move_line, {name: who, what: res.data.text});
        });
      });
    }
    var undo = main.querySelector("[data-undo]");
    var ask = main.querySelector("[data-undo-confirm]");
    if (undo && ask) {
      undo.addEventListener("click", function (ev) {
        ev.preventDefault();
        var last = game.state.last_move;
        if (!last) { return; }
        text(ask.querySelector("[data-undo-what]"),
             fill(game.text.move_line, {name: game.state.players[last.player].name,
                                        what: last.text}));
        ask.hidden = false;
        ask.querySelector("[data-confirm-undo]").focus();
      });
      ask.querySelector("[data-keep]").addEventListener("click", function () { ask.hidden = true; });
      ask.addEventListener("submit", function (ev) {
        ev.preventDefault();
        ask.hidden = true;
        send("DELETE", api() + "/moves/last?turn=" + game.state.turn)
          .then(function (res) {
            if (res.status === 409 && res.data.error && res.data.error.code === "nothing_to_undo") {
              say(game.text.nothing_to_undo, "error");
              return;
            }
            answered(res, game.text.undone);
          })
          .catch(function () { say(game.text.offline, "error"); });
      });
    }
  }

  /* --- other devices: poll while nothing is being entered here --- */

  function poll() {
    if (!game || document.visibilityState !== "visible" || busyBoard()) { return; }
    var seen = game;
    var headers = seen.etag ? {"If-None-Match": seen.etag} : {};
    sk.net.fetch(api(), {cache: "no-store", headers: headers})
      .then(function (resp) {
        if (resp.status !== 200 || game !== seen || busyBoard()) { return null; }
        var etag = resp.headers.get("ETag");
        if (etag && etag === seen.etag) { return null; }
        return resp.json().then(function (state) { show(state, etag); });
      })
      .catch(function () { /* offline for a moment: try again later */ });
  }

  function start(main) {
    var holder = main.querySelector("[data-game-state]");
    var svg = main.querySelector("[data-board]");
    if (!holder || !svg) { game = null; return; }
    game = {main: main, state: JSON.parse(holder.textContent), etag: null,
            text: sk.json(svg.getAttribute("data-text")), clock: null, skew: 0};
    var clock = main.querySelector("[data-countdown]");
    if (clock) {
      // As the server drew it (countdown.js marks it as it counts).
      game.clock = clock.cloneNode(true);
      var started = Date.parse(game.state.updated_at);
      var elapsed = Number(clock.getAttribute("data-elapsed")) * 1000;
      game.skew = isNaN(started) ? 0 : Date.now() - (started + elapsed);
    }
    wire(main);
  }

  /* Confirm tapped: the mover's total and last score as the preview scored
     them, in the next frame; the answer's state replaces them (show), and a
     refusal puts the server's back, marked (tv.css-like "reverted" flash). */
  document.addEventListener("sk:guess", function (ev) {
    if (!game) { return; }
    var guess = /** @type {CustomEvent} */ (ev).detail, state = game.state;
    var card = game.main.querySelector('section.scores .player[data-player="' +
                                        (guess ? guess.player : state.current_player) + '"]');
    if (!card) { return; }
    if (guess && guess.turn === state.turn) {
      text(card.querySelector("[data-total]"), String(state.players[guess.player].score + guess.points));
      text(card.querySelector(".last"), String(guess.points));
      card.classList.add("guessed");
    } else if (!guess && card.classList.contains("guessed")) {
      showScores(game.main, state, game.text);
      card.classList.add("reverted");
      setTimeout(function () { card.classList.remove("reverted"); }, 2000);
    }
    if (!guess) { card.classList.remove("guessed"); }
  });
  /* The board tells about its move's answer; the page follows (and so does poll). */
  document.addEventListener("sk:answer", function (ev) { show(ev.detail.state, null, true); });

  /* The history's "End or abandon" link reaches #close: open the part it names. */
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = /** @type {HTMLDetailsElement} */ (id && document.getElementById(id));
    if (el && el.tagName === "DETAILS") {
      el.open = true;
      el.scrollIntoView({block: "center"});
    }
  }
  window.addEventListener("hashchange", openTarget);

  function boot() {
    openTarget();
    var main = document.querySelector("main");
    if (main && main.querySelector("[data-game-state]")) {
      start(main);
      setInterval(poll, POLL_MS);
    }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", boot); }
  else { boot(); }
})();
