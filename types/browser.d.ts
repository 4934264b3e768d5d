/* What the browser holds for the scripts in static/ beyond its own DOM types
   (checked by .ci/check-scripts.mjs). What one script gives the others on
   window.scorekeeper is not here: each such script names it in a @typedef of
   its own (SkCore in core.js, SkNet in net.js, ...), and a script that uses
   it names that script in a `/// <reference path>` and the type in its
   `sk` (or the check fails). */

interface Window {
  /** Filled by the page's scripts; a script reads it as the types it names. */
  scorekeeper: object;
  /** later.js: the last turn a state said, until speech.js is there. */
  skSpeech?: { turn: number | null };
  /** speech.js: run `go` once nothing is being said. */
  skAfterSpeech?: (go: () => void) => void;
  /** Safari before 14.1. */
  webkitAudioContext?: typeof AudioContext;
}

/* The page's own events: table.js and tv.js send each new state, table.js
   each <main> it swaps in, offline.js the answer to a move it kept. */
interface DocumentEventMap {
  "sk:state": CustomEvent<{ state: any }>;
  "sk:main": CustomEvent<{ main: HTMLElement }>;
  "sk:answer": CustomEvent<{ state: any }>;
}
