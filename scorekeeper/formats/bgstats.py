"""BG Stats "push play" links for finished games.

The scheme is BG Stats' documented one
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/):
``https://app.bgstatsapp.com/createPlay.html?data=<URL-encoded JSON>`` or the
same path under ``bgstats://``; the JSON carries ``sourceName``, ``playDate``
("YYYY-MM-DD HH:MM:SS"), ``durationMin``, ``game`` (``name``, ``bggId``,
``highestWins``, ``noPoints``, ``sourceGameId``) and ``players`` (``name``,
``score``, ``winner``, ``startPlayer``, ``rank``, ``sourcePlayerId``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from urllib.parse import quote

from .. import engine, text, timestamps
from .base import GameFile

SOURCE_NAME = "Qwirkle Scorekeeper"
"""Name BG Stats shows as the play's source; it keys the user's saved matches."""

QWIRKLE_BGG_ID = 25669
"""BoardGameGeek id of Qwirkle."""

APP_URL = "https://app.bgstatsapp.com/createPlay.html"
"""Universal link: opens the app when installed, BG Stats' web page otherwise."""

SCHEME_URL = "bgstats://app.bgstatsapp.com/createPlay.html"
"""Custom-scheme link: opens the installed app directly."""


def _play_date(moment: datetime | str | None) -> str | None:
    """Return `moment` in BG Stats' "YYYY-MM-DD HH:MM:SS" form, or None."""
    if moment is None:
        return None
    if isinstance(moment, str):
        try:
            moment = datetime.fromisoformat(moment.replace("Z", "+00:00"))
        except ValueError:
            return None
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def play_data(
    *,
    names: Sequence[str],
    scores: Sequence[int],
    winners: Sequence[bool],
    start_player: int,
    play_date: datetime | str | None,
    duration_min: int | None,
    source_url: str | None = None,
    source_play_id: str | None = None,
    variant_name: str = "classic",
    variant_label: str = "",
    excluded: Sequence[int] = (),
) -> dict[str, Any]:
    """Return the BG Stats play JSON object for one finished game.

    Excluded players (RULES §7) are ranked after every player in play.
    """
    in_play = [seat for seat in range(len(scores)) if seat not in excluded]
    places = dict(zip(in_play, engine.ranks([scores[s] for s in in_play]),
                      strict=True))
    ranks = [places.get(seat, len(in_play) + 1) for seat in range(len(scores))]
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "game": {
            "name": "Qwirkle",
            "bggId": QWIRKLE_BGG_ID,
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": "qwirkle",
        },
        "players": [
            {
                "name": name,
                "score": int(score),
                "winner": bool(winner),
                "startPlayer": seat == start_player,
                "rank": rank,
                "sourcePlayerId": engine.name_key(name),
            }
            for seat, (name, score, winner, rank) in enumerate(
                zip(names, scores, winners, ranks, strict=True)
            )
        ],
    }
    date = _play_date(play_date)
    if date:
        data["playDate"] = date
    if duration_min is not None:
        data["durationMin"] = int(duration_min)
    if source_url:
        data["sourceUrl"] = source_url
    if source_play_id:
        data["sourcePlayId"] = source_play_id
    if variant_name != "classic":
        data["comments"] = text.variant_comment(variant_label or variant_name)
    return data


def push_url(data: dict[str, Any], *, scheme: bool = False) -> str:
    """Return the link that hands `data` to BG Stats (URL-encoded compact JSON)."""
    compact = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    encoded = quote(compact, safe="")
    return f"{SCHEME_URL if scheme else APP_URL}?data={encoded}"


def play_link(source: GameFile, source_url: str, *, scheme: bool = False) -> str | None:
    """Return the push-play link of a finished game (None while it runs, and
    for an abandoned game, which has no result to log).

    source_url is the game's page, which BG Stats keeps with the play.
    """
    game = source.game
    final = game.final
    if final is None or not final.scored:
        return None
    scores = list(final.scores)
    data = play_data(
        names=source.names,
        scores=scores,
        winners=[seat in final.winners for seat in range(len(scores))],
        start_player=game.first_player,
        play_date=source.started_at,
        duration_min=timestamps.duration_minutes(
            source.first_move_at, source.last_move_at
        ),
        source_url=source_url,
        source_play_id=f"{source.id}-{source.created_at}",
        variant_name=game.variant.name,
        variant_label=text.set_name(game.variant),
        excluded=final.excluded,
    )
    return push_url(data, scheme=scheme)
