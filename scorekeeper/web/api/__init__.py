"""The JSON API: every route under /api/ (CONTRACT §4, §8, §14).

Where a route lives: every URL under /api/ is in this package, one module per
area, each with one blueprint `bp` registered at /api and exempt from CSRF
(scripts authenticate with X-Edit-Token or X-Event-Token; a page's session
sends X-CSRFToken, which `auth` checks itself; and a page elsewhere cannot
send a JSON body without asking first):

- games.py: games and their moves, previews, legal cells, hints, analysis,
  best move and photos (what the game page's scripts call too);
- events.py: club nights and ratings;
- files.py: a game's files, the backup and the restore.

Pages, and the files they download, live outside it by area (table, history,
files, events...); what a page and the API answer alike lives in a module
both import (state, event_json, transfers), never in either blueprint.
"""

from __future__ import annotations

from . import events, files, games

BLUEPRINTS = (games.bp, events.bp, files.bp)
"""Registered at /api, CSRF-exempt, in this order."""
