"""Every sentence a player reads about a game, built from the engine's data.

The engine gives codes and parameters (a move's lines, an error's key and
cells, an end reason); this module turns them into words through gettext, so
the pages, the files and the JSON API say each thing one way, and a language
is a catalog away. It is the only module that calls gettext for game text;
the JavaScript gets its strings from the page. No Flask, no URLs.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from babel import Locale, dates, numbers

from . import engine, i18n
from .engine.messages import N_, N_plural, Template, Words
from .i18n import gettext, ngettext

WORDS = Words(gettext, ngettext)
"""The engine's message words (tile names, cells, directions) in the page's language."""

COLOR_LETTERS: dict[str, str] = {
    "red": N_("R"), "orange": N_("O"), "yellow": N_("Y"), "green": N_("G"),
    "blue": N_("B"), "purple": N_("P"), "pink": N_("K"), "brown": N_("N"),
}
"""The letter on each colour's tiles in colour-blind mode (pink K, brown N, so
that no two colours share one)."""

END_BONUS = engine.END_BONUS
"""The end bonus, as the sentences name it."""

UNIT_TEXTS: dict[str, dict[str, str | tuple[str, str]]] = {
    "tile": {
        "placed": N_plural("Placed %(num)d tile", "Placed %(num)d tiles"),
        "last": N_(
            "%(name)s placed their last tile with the bag empty: +%(n)d end bonus."
        ),
        "stalled": N_(
            "No tile left in the game can be placed anywhere: no end bonus."
        ),
        "board": N_plural("The board, %(num)d tile", "The board, %(num)d tiles"),
        "first": N_("Tap the square to place the first tile."),
        "entry": N_("Tap a dashed square next to the board, then pick the tile."),
        "supply": N_("Unseen tiles"),
        "ready": N_plural(
            "%(num)d tile ready: confirm to score.",
            "%(num)d tiles ready: confirm to score.",
        ),
    },
    "cube": {
        "placed": N_plural("Placed %(num)d cube", "Placed %(num)d cubes"),
        "last": N_(
            "%(name)s placed their last cube with the bag empty: +%(n)d end bonus."
        ),
        "stalled": N_(
            "No cube left in the game can be placed anywhere: no end bonus."
        ),
        "board": N_plural("The board, %(num)d cube", "The board, %(num)d cubes"),
        "first": N_(
            "Tap the square to place the first cube (the first move places at"
            " least %(n)d cubes)."
        ),
        "entry": N_(
            "Tap a dashed square next to the board, then pick the cube's colour and"
            " face."
        ),
        "supply": N_("Cubes left"),
        "ready": N_plural(
            "%(num)d cube ready: confirm to score.",
            "%(num)d cubes ready: confirm to score.",
        ),
    },
}
"""The sentences that name what a set is made of, by the variant's unit."""


def _by_unit(
    variant: engine.Variant, key: str, num: int = 0, **variables: object
) -> str:
    """Return the unit's sentence `key`, translated and filled in (num chooses
    between singular and plural)."""
    template = UNIT_TEXTS[variant.unit][key]
    if isinstance(template, tuple):
        return ngettext(template[0], template[1], num, **variables)
    return gettext(template, **variables)


# --- tiles and colours ---


def color_name(color: str) -> str:
    """Return a colour's name: "red"."""
    return WORDS.color(color)


def shape_name(shape: str) -> str:
    """Return a shape's name: "circle"."""
    return WORDS.shape(shape)


def tile_name(color: str, shape: str) -> str:
    """Return a tile's name: "red circle"."""
    return WORDS.tile((color, shape))


def color_letter(color: str) -> str:
    """Return the letter colour-blind mode writes on a tile of this colour."""
    return gettext(COLOR_LETTERS[color])


def color_letters(variant: engine.Variant) -> dict[str, str]:
    """Return the colour-blind letter of every colour of the set."""
    return {color: color_letter(color) for color in variant.color_names}


BOX_NAMES: dict[str, str] = {"classic": "", "cubes": N_("Qwirkle Cubes")}
"""What lists call each boxed set ("" for the classic box, which needs no name)."""


def set_name(variant: engine.Variant) -> str:
    """Name a set for lists: the box's name, else what sets a custom set apart."""
    box = BOX_NAMES.get(variant.name)
    if box is not None:
        return gettext(box) if box else ""
    return gettext(
        "%(c)d colours, %(k)d copies", c=variant.colors, k=variant.copies
    )


def set_description(variant: engine.Variant) -> str:
    """Describe a set that is not the classic box, for a sheet's heading."""
    if variant.name == "classic":
        return ""
    return gettext(
        "%(c)d colours, %(k)d copies, hands of %(h)d",
        c=variant.colors, k=variant.copies, h=variant.hand_size,
    )


def variant_comment(name: str) -> str:
    """Return the note a play logged elsewhere (BG Stats) carries for its set."""
    return gettext("Variant: %(name)s", name=name)


# --- engine errors ---


def error(exc: engine.EngineError) -> str:
    """Return an engine error's sentence (illegal move, record, name, bad input)."""
    return WORDS.sentence(exc.key, exc.params)


def illegal_move(exc: engine.IllegalMove) -> str:
    """Return why a move is refused, naming its cells and tiles."""
    return error(exc)


def record_error(exc: engine.RecordError) -> str:
    """Return why a game record is refused, naming the move."""
    return error(exc)


def invalid_name(exc: engine.InvalidName) -> str:
    """Return why a player name (or a table of names) is refused."""
    return error(exc)


# --- scores ---


LINE_LABELS: dict[tuple[str, str], str] = {
    ("color", "red"): N_("red line %(length)d"),
    ("color", "orange"): N_("orange line %(length)d"),
    ("color", "yellow"): N_("yellow line %(length)d"),
    ("color", "green"): N_("green line %(length)d"),
    ("color", "blue"): N_("blue line %(length)d"),
    ("color", "purple"): N_("purple line %(length)d"),
    ("color", "pink"): N_("pink line %(length)d"),
    ("color", "brown"): N_("brown line %(length)d"),
    ("shape", "circle"): N_("circle line %(length)d"),
    ("shape", "crisscross"): N_("crisscross line %(length)d"),
    ("shape", "diamond"): N_("diamond line %(length)d"),
    ("shape", "square"): N_("square line %(length)d"),
    ("shape", "starburst"): N_("starburst line %(length)d"),
    ("shape", "clover"): N_("clover line %(length)d"),
    ("shape", "heart"): N_("heart line %(length)d"),
    ("shape", "triangle"): N_("triangle line %(length)d"),
}
"""A scored line's label by what it shares, whole, so that a language can make
the colour agree with its word for line ("rote Reihe", "línea roja") or name
the shapes its own way ("rij van vierkanten")."""


def line_label(line: engine.LineScore) -> str:
    """Name a scored line as the rule book does: "red line 4", "red line 6 +
    Qwirkle 6", "single tile 1"."""
    if line.kind == "tile":
        return gettext("single tile %(n)d", n=line.points)
    label = gettext(LINE_LABELS[(line.kind, line.value)], length=line.length)
    if line.qwirkle:
        label += " + " + gettext("Qwirkle %(n)d", n=line.bonus)
    return label


def breakdown(score: engine.MoveScore, end_bonus: int = 0) -> str:
    """Return a placing move's score as the table says it: "red line 4 + square
    line 3 = 7" (the end bonus, when earned, as one more part)."""
    parts = [line_label(line) for line in score.lines]
    if end_bonus:
        parts.append(gettext("end bonus %(n)d", n=end_bonus))
    return " + ".join(parts) + f" = {score.points + end_bonus}"


def breakdown_json(score: engine.MoveScore) -> dict[str, object]:
    """Return a breakdown as the API writes it: the engine's data plus each
    line's `label` and the whole `summary` (end bonus excluded)."""
    return {
        "points": score.points,
        "qwirkles": score.qwirkles,
        "lines": [
            {**line.to_dict(), "label": line_label(line)} for line in score.lines
        ],
        "summary": breakdown(score),
    }


def preview(result: engine.Preview) -> str:
    """Return what a pending move would score, and whether it ends the game."""
    text = breakdown(result.breakdown, result.end_bonus)
    if result.ends_game:
        text += " · " + gettext("ends the game")
    return text


# --- moves ---


PENALTY_RESULTS: dict[tuple[str, str], Template] = {
    ("illegal", "lose_turn"): N_("illegal move: turn lost"),
    ("illegal", "deduct"): N_plural(
        "illegal move: %(num)d point deducted", "illegal move: %(num)d points deducted"
    ),
    ("illegal", "exclude"): N_("illegal move: excluded from the game"),
    ("timeout", "lose_turn"): N_("out of time: turn lost"),
    ("timeout", "deduct"): N_plural(
        "out of time: %(num)d point deducted", "out of time: %(num)d points deducted"
    ),
    ("timeout", "exclude"): N_("out of time: excluded from the game"),
}
"""What a penalty did (RULES §7), by its reason and consequence (a deduction's
sentence by its number of points)."""

PENALTY_COSTS: dict[str, Template] = {
    "lose_turn": N_("turn lost"),
    "deduct": N_plural("%(num)d point deducted", "%(num)d points deducted"),
    "exclude": N_("excluded from the game"),
}
"""What a penalty cost, by its consequence, for a line that has already said
its reason (the replay's "Penalty for an illegal move: turn lost")."""

PENALTY_SUMMARIES: dict[str, str] = {
    "illegal": N_("Penalty for an illegal move"),
    "timeout": N_("Penalty for running out of time"),
}
"""What a penalty move was, by its reason, without its consequence."""

CONSEQUENCES: dict[str, Template] = {
    "retry": N_("the player takes the move back and tries again"),
    "none": N_("nothing"),
    "lose_turn": N_("the turn passes"),
    "deduct": N_plural(
        "%(num)d point off and the turn passes",
        "%(num)d points off and the turn passes",
    ),
    "exclude": N_("the player leaves the game"),
}
"""What each table-discipline consequence does, as the form and the game page
name it."""


def _words(template: Template, num: int) -> str:
    """Return a sentence or, for a (singular, plural) pair, the one num asks for,
    translated and filled in with num."""
    if isinstance(template, tuple):
        return ngettext(template[0], template[1], num)
    return gettext(template)


def move_result(move: engine.Move) -> str:
    """Return what a move did, after its player's name: the breakdown of a
    placing move, "traded 2", "passed" or what a penalty cost."""
    if move.breakdown is not None:
        return breakdown(move.breakdown, move.end_bonus)
    if move.type == "trade":
        return gettext("traded %(n)d", n=move.count)
    if move.type == "penalty":
        return _words(PENALTY_RESULTS[(move.reason, move.consequence)], -move.score)
    return gettext("passed")


def penalty_cost(move: engine.Move) -> str:
    """Return what a penalty move cost, without its reason: "turn lost",
    "3 points deducted", "excluded from the game"."""
    return _words(PENALTY_COSTS[move.consequence], -move.score)


def move_points(move: engine.Move) -> str:
    """Return a move in the score column's shorthand, the score sheet's own
    marks (templates/history/_sheet.html): "+7", "⇄ 2" for a trade, "–" for a
    pass, "−5" for a deduction, "!" for a turn lost, "✕" for an exclusion. A
    player card holds it at 360 px with four players in every language; the
    last-move line says it in words."""
    if move.type == "place":
        return f"+{move.points}"
    if move.type == "trade":
        return f"⇄ {move.count}"
    if move.type == "penalty":
        if move.score:
            return f"−{-move.score}"
        return "✕" if move.excludes else "!"
    return "–"


def move_summary(move: engine.Move, variant: engine.Variant) -> str:
    """Return what a move was, without its score: "Placed 3 tiles", "Traded 2
    tiles", "Passed", "Penalty for an illegal move"."""
    if move.type == "place":
        return _by_unit(variant, "placed", num=len(move.tiles))
    if move.type == "trade":
        return ngettext("Traded %(num)d tile", "Traded %(num)d tiles", move.count)
    if move.type == "penalty":
        return gettext(PENALTY_SUMMARIES[move.reason])
    return gettext("Passed")


def replay_title(step: int, round_number: int, who: str) -> str:
    """Return a replay step's heading: "Move 5, round 3: Ann" (step 0: before)."""
    if step == 0:
        return gettext("Before the first move")
    return gettext("Move %(n)d, round %(r)d: %(who)s", n=step, r=round_number, who=who)


def points_word(points: int) -> str:
    """Return the word after a move's points, "point" or "points", by the
    language's plural rule for the number without its sign (a deduction too)."""
    return ngettext("point", "points", abs(points))


def replay_strings(variant: engine.Variant) -> dict[str, object]:
    """Return the words the replay page's script puts around each step's figures."""
    return {
        "qwirkle": gettext("Qwirkle!"),
        "next": gettext("next: %(who)s", who="%(who)s"),
        "out": gettext("excluded, not ranked"),
        "tile_names": {
            f"{color} {shape}": tile_name(color, shape)
            for color, shape in variant.kinds
        },
        "letters": color_letters(variant),
    }


# --- table discipline (RULES §7) ---


def consequence(name: str, points: int) -> str:
    """Return what a table-discipline consequence does: "5 points off and the
    turn passes"."""
    return _words(CONSEQUENCES[name], points)


def penalty_action(reason: str, name: str, options: engine.Options) -> str:
    """Name a penalty before it is recorded, with its consequence: "Illegal move
    by Ann: 5 points off and the turn passes"."""
    what = consequence(options.consequence(reason).value, options.penalty_points)
    if reason == engine.Reason.ILLEGAL:
        return gettext("Illegal move by %(name)s: %(what)s", name=name, what=what)
    return gettext("%(name)s is out of time: %(what)s", name=name, what=what)


def excluded_heading() -> str:
    """Return the heading of the players excluded from a game."""
    return gettext("Out of the game")


def excluded_note() -> str:
    """Say where an excluded player's score stands (RULES §7)."""
    return gettext(
        "Excluded players keep their points on the sheet but are not ranked."
    )


def thinking_time(seconds: int) -> str:
    """Return a thinking time as the countdown shows it: "0:30", "12:00"."""
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    return f"{sign}{seconds // 60}:{seconds % 60:02d}"


def average_thinking(seconds: float | None) -> str:
    """Return an average thinking time: "23 s", "2:05 min" or "–"."""
    if seconds is None:
        return "–"
    whole = round(seconds)
    if whole < 60:
        return gettext("%(n)d s", n=whole)
    return gettext("%(time)s min", time=thinking_time(whole))


def countdown_strings() -> dict[str, str]:
    """Return the sentences countdown.js shows (it builds none of its own)."""
    return {"expired": gettext("Time is up!")}


def penalty_legend(*, penalty: str, excluded: str) -> str:
    """Return the key to a score sheet's penalty marks (only on a sheet that has
    penalties)."""
    return _keep_marks(gettext(
        "%(penalty)s = penalty (a deduction counts in the points), %(excluded)s"
        " = excluded from the game (not ranked).",
        penalty=penalty, excluded=excluded,
    ))


def _keep_marks(legend: str) -> str:
    """Join each mark of a legend to its "=" with a no-break space, so that a
    line (the PDF's too) never ends on a lone "★"."""
    return legend.replace(" = ", "\u00a0= ")


def move_line(move: engine.Move, names: Sequence[str]) -> str:
    """Return a move as one line: "Ann: red line 3 = 3", "Bob: traded 2"."""
    return gettext(
        "%(name)s: %(what)s", name=names[move.player], what=move_result(move)
    )


def last_points(game: engine.Game) -> list[str | None]:
    """Return, per seat, that player's latest move in shorthand (None: none yet)."""
    out: list[str | None] = [None] * game.players
    for move in reversed(game.moves):
        if out[move.player] is None:
            out[move.player] = move_points(move)
            if all(text is not None for text in out):
                break
    return out


# --- the end ---


def end_reason(
    reason: str, finisher: str | None = None,
    variant: engine.Variant = engine.CLASSIC,
) -> str:
    """Return how a game ended; `finisher` is who emptied their hand."""
    if reason == engine.EndReason.HAND_EMPTIED:
        name = finisher if finisher is not None else gettext("A player")
        return _by_unit(variant, "last", name=name, n=END_BONUS)
    if reason == engine.EndReason.STALLED:
        return _by_unit(variant, "stalled")
    if reason == engine.EndReason.ALL_PASSED:
        return gettext("Every player passed in turn: no end bonus.")
    if reason == engine.EndReason.EXCLUDED:
        return gettext(
            "Every other player was excluded, so one player is left: the game"
            " ends with no end bonus."
        )
    if reason == engine.EndReason.ENDED:
        return gettext("The table ended the game here: scored as it stood, no end"
                       " bonus.")
    if reason == engine.EndReason.ABANDONED:
        return gettext("The table abandoned the game: it has no result.")
    return reason


def final_reason(
    final: engine.Final, names: Sequence[str], variant: engine.Variant
) -> str:
    """Return how this game ended (end_reason with the finisher's name)."""
    seat = final.end_bonus_player
    return end_reason(
        final.reason.value, names[seat] if seat is not None else None, variant
    )


def winners_line(names: Sequence[str], winners: Sequence[int]) -> str:
    """Return "Winner: Ann" ("Winners: Ann, Bob" on a tie), or that the game runs."""
    if not winners:
        return gettext("Game still running")
    return ngettext(
        "Winner: %(names)s", "Winners: %(names)s", len(winners),
        names=", ".join(names[seat] for seat in winners),
    )


def sheet_title(game_id: int) -> str:
    """Return a printed score sheet's title."""
    return gettext("Qwirkle score sheet – game %(id)d", id=game_id)


def round_label() -> str:
    """Return the heading of a sheet's round column."""
    return gettext("Round")


def chart_title() -> str:
    """Return the score chart's title."""
    return gettext("Running totals per round")


def points_label() -> str:
    """Return the label of the chart's points axis."""
    return gettext("Points")


def total_label() -> str:
    """Return the heading of a sheet's total row."""
    return gettext("Total")


def qwirkles_label() -> str:
    """Return the heading of a sheet's row of Qwirkles per player."""
    return gettext("Qwirkles")


def sheet_legend(
    variant: engine.Variant, *, trade: str, passed: str, bonus: str, winner: str
) -> str:
    """Return the key to a score sheet's marks, given how the sheet writes them."""
    return _keep_marks(gettext(
        "Q = Qwirkle (its %(q)d bonus points are included), %(bonus)s = end bonus"
        " (included), %(trade)s = trade, %(passed)s = pass, %(winner)s = winner.",
        q=variant.colors, bonus=bonus, trade=trade, passed=passed, winner=winner,
    ))


# --- time ---


def parse_time(value: str | None) -> datetime | None:
    """Return a stored ISO timestamp as an aware datetime (None if empty or bad).

    The datetime keeps the offset written in the timestamp (a restored backup may
    carry one); parse_utc converts it to UTC.
    """
    if not value or not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if moment.tzinfo is None:
            # Stored times are UTC; an old naive one is read as such.
            return moment.replace(tzinfo=UTC)
        # Converting year 1 or 9999 with an offset would leave datetime's range
        # later (OverflowError): such a time is no time at all.
        moment.astimezone(UTC)
    except (ValueError, OverflowError):
        return None
    return moment


def parse_utc(value: str | None) -> datetime | None:
    """Return a stored ISO timestamp as an aware UTC datetime (None if empty or bad)."""
    moment = parse_time(value)
    return None if moment is None else moment.astimezone(UTC)


def duration_minutes(first: str | None, last: str | None) -> int | None:
    """Return whole minutes between two timestamps (None when either is unknown)."""
    start, end = parse_utc(first), parse_utc(last)
    if start is None or end is None:
        return None
    try:
        return max(0, round((end - start).total_seconds() / 60))
    except OverflowError:
        return None


def duration(minutes: int | None) -> str:
    """Return a duration as players say it: "1 h 05 min", "12 min" or "–"."""
    if minutes is None:
        return "–"
    if minutes >= 60:
        return gettext("%(h)d h %(m)02d min", h=minutes // 60, m=minutes % 60)
    return gettext("%(m)d min", m=minutes)


def _local(moment: datetime) -> datetime:
    """Return a moment in the reader's zone (UTC until the page knows theirs)."""
    return moment.astimezone(i18n.current().zone)


def _zone_suffix(moment: datetime) -> str:
    """Return " UTC" while the reader's zone is unknown, else ""."""
    return "" if i18n.current().zone_known else " UTC"


def date(value: str | None) -> str:
    """Return a timestamp's date and time in the reader's language and zone:
    "26 nov. 2026 14:05" (with " UTC" while the zone is unknown)."""
    moment = parse_utc(value)
    if moment is None:
        return ""
    return local_time(value, "datetime")


def local_time(value: str | None, style: str = "datetime") -> str:
    """Return a timestamp as the page shows it before the browser localises it:
    date and time in the reader's language and zone, or only the date with style
    "date" ("" when there is none)."""
    moment = parse_utc(value)
    if moment is None:
        return ""
    locale = i18n.current().locale
    local = _local(moment)
    day = dates.format_date(local, "medium", locale=locale)
    if style == "date":
        return day
    clock = dates.format_time(local, "short", locale=locale)
    joined = dates.get_datetime_format("medium", locale=locale)
    return str(joined).format(clock, day) + _zone_suffix(local)


# --- numbers ---


def decimal(value: float | None, digits: int = 1) -> str:
    """Return a number with `digits` decimals as the reader writes it ("12,5";
    "–" for None)."""
    if value is None:
        return "–"
    pattern = "0." + "0" * digits if digits else "0"
    return numbers.format_decimal(
        value, pattern, locale=i18n.current().locale, decimal_quantization=True
    )


def percent(value: float | None) -> str:
    """Return a fraction as a whole percentage in the reader's style ("50 %")."""
    if value is None:
        return "–"
    return numbers.format_percent(value, locale=i18n.current().locale)


# --- the game page ---


def board_label(variant: engine.Variant, tiles: int) -> str:
    """Return the board's accessible name: "The board, 12 tiles"."""
    return _by_unit(variant, "board", num=tiles)


def board_label_forms(variant: engine.Variant) -> dict[str, str]:
    """Return the board's name for no tile, one, and more ("0", "1", "n"),
    for a page's script to name the board as tiles are placed (its number
    put in): the catalog's plural rule says how 0 and 1 read (French: "0
    pion"); every language here reads 2 and more alike."""
    return {"0": board_label(variant, 0), "1": board_label(variant, 1),
            "n": board_label(variant, 2)}


def first_move_hint(variant: engine.Variant) -> str:
    """Return the hint on an empty board."""
    return _by_unit(variant, "first", n=variant.min_first_move)


def entry_hint(variant: engine.Variant) -> str:
    """Return the hint above the move entry before a tile is picked."""
    return _by_unit(variant, "entry")


def supply_heading(variant: engine.Variant) -> str:
    """Return the heading of the tracker of what is still off the board."""
    return _by_unit(variant, "supply")


def cubes_hint(variant: engine.Variant = engine.CUBES) -> str:
    """Describe Qwirkle Cubes for the new-game form (RULES §7)."""
    return gettext(
        "Qwirkle Cubes: %(copies)d cubes of each colour, open hands, no trading or"
        " passing; the first move places at least %(n)d cubes.",
        copies=variant.copies, n=variant.min_first_move,
    )


def board_strings(variant: engine.Variant) -> dict[str, object]:
    """Return the sentences the game page's scripts show (they build none).

    Templates hold %(name)s-style gaps the scripts fill with numbers and names.
    Where the plural rule matters (it varies by language), a list holds the
    sentence for every count: "ready" one per number of pending tiles (0
    unused), "left" the tracker's "… left" of a set counted per colour for
    every count from 0 to a colour's copies, the colour's name still a gap.
    """
    return {
        "illegal": gettext("That move is not allowed."),
        "conflict": gettext(
            "Another device entered a move first; here is the game now."
        ),
        "forbidden": gettext(
            "This device may not enter moves for this game: scan the game's code"
            " from the device that started it."
        ),
        "refused": gettext("The move was refused (%(status)s)."),
        "offline": gettext("No connection to the scorekeeper. Try again."),
        "ready": ready_strings(variant),
        "to_play": gettext("%(name)s to play", name="%(name)s"),
        "game_over": gettext("Game over"),
        "last_move": last_move_line("%(name)s", "%(move)s"),
        "hand": gettext("hand %(n)s", n="%(n)s"),
        "undone": gettext("The last move was taken back."),
        "move_line": gettext("%(name)s: %(what)s", name="%(name)s", what="%(what)s"),
        "nothing_to_undo": gettext("There is no move to undo."),
        "left": [
            ngettext("%(color)s %(num)d left", "%(color)s %(num)d left", n,
                     color="%(color)s")
            for n in range(variant.copies + 1)
        ] if variant.supply_per_color else [],
        **board_cell_strings(variant),
    }


def board_cell_strings(variant: engine.Variant) -> dict[str, object]:
    """Return what board.js says of cells and picker tiles (issue 10): the
    screen reader's names of the cell under the keyboard cursor, the picker's
    names with the count left (one per count, the plural rule applied here),
    every tile's name, and why a cell or a greyed tile takes nothing."""
    cell = {"row": "%(row)s", "col": "%(col)s"}
    return {
        "cell_tile": gettext("%(tile)s, row %(row)s, column %(col)s",
                             tile="%(tile)s", **cell),
        "cell_pending": gettext("%(tile)s, not confirmed yet, row %(row)s,"
                                " column %(col)s", tile="%(tile)s", **cell),
        "cell_free": gettext("free cell, row %(row)s, column %(col)s", **cell),
        "cell_dead": gettext("dead cell, row %(row)s, column %(col)s", **cell),
        "cell_empty": gettext("empty, row %(row)s, column %(col)s", **cell),
        "pick": [
            ngettext("%(tile)s, %(num)d left", "%(tile)s, %(num)d left", n,
                     tile="%(tile)s")
            for n in range(variant.copies + 1)
        ],
        "names": {
            f"{color} {shape}": tile_name(color, shape)
            for color, shape in variant.kinds
        },
        "none_fit": gettext(
            "Nothing left can go on this cell. Tap a greyed tile to see why."
        ),
        "dead": gettext(
            "A dead cell: nothing left can go here. Tap a greyed tile to see why."
        ),
        "zoom": gettext("Zoomed in: tap the cell again to place a tile."),
    }


def last_move_line(name: str, move: str) -> str:
    """Return the status line's last move: "Last move (Ann): red line 3 = 3"."""
    return gettext("Last move (%(name)s): %(move)s", name=name, move=move)


def ready_strings(variant: engine.Variant) -> list[str]:
    """Return what board.js says with n tiles pending, indexed by n (0 unused),
    so that each language's plural rule is applied here, not in JavaScript."""
    return [""] + [
        _by_unit(variant, "ready", num=n) for n in range(1, variant.hand_size + 1)
    ]


# --- insights (issue 11) ---


def hint_strings(variant: engine.Variant) -> dict[str, object]:
    """Return the words the hints panel's script (static/hints.js) shows."""
    return {
        "threats": gettext("Qwirkle threats: %(n)s", n="%(n)s"),
        "threat": gettext("%(tile)s makes a Qwirkle (%(n)s still out)",
                          tile="%(tile)s", n="%(n)s"),
        "hot": gettext("Best single tile: %(points)s", points="%(points)s"),
        "hot_next": gettext("Next best: %(points)s", points="%(points)s"),
        "dead": gettext("Dead cells: %(n)s", n="%(n)s"),
        "none": gettext("No Qwirkle can be completed with one tile now."),
        "failed": gettext("The hints could not be loaded. Try again."),
        "best": gettext("Best move: %(points)s (%(tiles)s)", points="%(points)s",
                        tiles="%(tiles)s"),
        "no_best": gettext("None of these cubes can be placed."),
        "tile_names": {
            f"{color} {shape}": tile_name(color, shape)
            for color, shape in variant.kinds
        },
    }



def best_spot_line(score: int, best: int) -> str:
    """Return a placing move's "same tiles, best spot" line with its efficiency."""
    if best <= score:
        return gettext("Same tiles, best spot: this was it (%(best)s).", best=best)
    return gettext(
        "Same tiles, best spot: %(best)s (scored %(score)s, %(efficiency)s).",
        best=best, score=score, efficiency=percent(score / best if best else None),
    )


# --- a photo of the board (CONTRACT §12) ---


PHOTO_LIMIT_MB = 15
"""The largest photo the page takes, in MB, as the sentences name it."""

PHOTO_LIMIT_MEGAPIXELS = 40
"""The most pixels a photo may have, in millions, as the sentences name it."""

PHOTO_REASONS: dict[str, str] = {
    "not_an_image": N_(
        "The file is not a JPEG or PNG photo. Take the photo again with the camera"
        " and send it as it is."
    ),
    "too_large_bytes": N_(
        "The photo is too large (%(size)s MB). Send a photo of at most %(limit)d MB."
    ),
    "too_large_pixels": N_(
        "The photo is too large (%(width)d × %(height)d pixels). Send a photo of at"
        " most %(limit)d megapixels."
    ),
    "too_small": N_(
        "The photo is too small to read the tiles (%(width)d × %(height)d pixels)."
        " Take it closer, so that the board fills most of the picture."
    ),
    "blurred": N_(
        "The photo is too blurred to read the tiles. Hold the phone still, let it"
        " focus on the board and take it again."
    ),
    "no_tiles": N_(
        "No Qwirkle tiles were found in the photo. Take it from straight above,"
        " with the whole board in the picture and enough light."
    ),
    "no_match": N_(
        "The tiles in the photo do not match the board as it is stored (%(matched)d"
        " of %(stored)d recognised). Take the whole board from above, in even"
        " light, and check the board on the page."
    ),
    "not_one_line": N_(
        "The new tiles in the photo do not form one line next to the board. Check"
        " the tiles on the table, or enter the move by hand."
    ),
    "not_read": N_(
        "The photo could not be read. Take it again from straight above, with the"
        " whole board in the picture and enough light."
    ),
    "too_many_tiles": N_(
        "The photo shows %(count)d new tiles, more than one move can place"
        " (%(limit)d). Check the board on the page, or take the photo again with"
        " the whole board in the picture."
    ),
    "teach_count": N_(
        "%(count)d tiles were found in the photo, not %(expected)d. Lay out one"
        " tile of each colour, a little apart, and take the photo again from"
        " above, close enough that they fill most of it."
    ),
    "teach_alike": N_(
        "Two of the tiles are too alike in colour to tell apart. Lay out one tile"
        " of each colour, and take the photo again in even light."
    ),
    "teach_pale": N_(
        "A tile's colour is washed out (glare or too much light). Take the photo"
        " again without the reflection."
    ),
}
"""Why a photo could not be read, by the photo reader's reason code (the size
refusals split by what was too large), each saying how to retake it."""


def _whole(value: object) -> int:
    """Return a parameter as a whole number (0 when it is none)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def photo_unreadable(reason: str, params: dict[str, object]) -> str:
    """Return why a photo could not be read and how to retake it, in the page's
    language, from the reader's reason code and parameters."""
    key = reason
    values: dict[str, object] = {}
    if reason == "too_large":
        if "width" in params:
            key = "too_large_pixels"
            values = {"width": _whole(params.get("width")),
                      "height": _whole(params.get("height")),
                      "limit": _whole(params.get("megapixels"))
                      if "megapixels" in params else PHOTO_LIMIT_MEGAPIXELS}
        else:
            size = params.get("megabytes")
            key = "too_large_bytes"
            values = {"size": decimal(size if isinstance(size, float | int) else None),
                      "limit": PHOTO_LIMIT_MB}
    elif reason == "too_small":
        values = {"width": _whole(params.get("width")),
                  "height": _whole(params.get("height"))}
    elif reason == "no_match":
        values = {"matched": _whole(params.get("matched")),
                  "stored": _whole(params.get("stored"))}
    elif reason == "teach_unread":
        return ngettext(
            "The colour of %(num)d tile could not be read: too dark or too small in"
            " the photo. Take it closer, in more light.",
            "The colour of %(num)d tiles could not be read: too dark or too small in"
            " the photo. Take it closer, in more light.",
            max(1, _whole(params.get("count"))),
        )
    elif reason == "teach_count":
        values = {"count": _whole(params.get("count")),
                  "expected": _whole(params.get("expected"))}
    elif reason == "too_many_tiles":
        values = {"count": _whole(params.get("count")),
                  "limit": _whole(params.get("limit"))}
    template = PHOTO_REASONS.get(key, PHOTO_REASONS["not_read"])
    return gettext(template, **values)


def photo_summary(count: int, unsure: int) -> str:
    """Return what a read photo gave: how many new tiles, how many to check."""
    if not count:
        return gettext(
            "The photo shows no new tile next to the board. Place the move on the"
            " table, then take the photo again, or enter the move by hand."
        )
    read = ngettext(
        "%(num)d tile read from the photo: check it, then confirm.",
        "%(num)d tiles read from the photo: check them, then confirm.", count,
    )
    if not unsure:
        return read
    return read + " " + ngettext(
        "%(num)d tile is uncertain and marked: tap it to fix it if it is wrong.",
        "%(num)d tiles are uncertain and marked: tap one to fix it if it is wrong.",
        unsure,
    )


def photo_unsure_label(color: str, shape: str, row: int, col: int) -> str:
    """Return a screen reader's words for a tile the photo left uncertain."""
    return gettext("Uncertain from the photo: %(tile)s", tile=tile_name(color, shape))


def photo_conflicts(conflicts: Sequence[tuple[int, int, str, str, str, str]]) -> str:
    """Return a warning for stored tiles the photo shows otherwise (row, col,
    stored colour, stored shape, seen colour, seen shape): the table and the
    page may have drifted apart ("" when there are none)."""
    if not conflicts:
        return ""
    if len(conflicts) == 1:
        _r, _c, color, shape, seen_color, seen_shape = conflicts[0]
        return gettext(
            "On the photo: %(seen)s; on the page: %(stored)s. Check that the table"
            " and the page agree.",
            seen=tile_name(seen_color, seen_shape), stored=tile_name(color, shape),
        )
    return ngettext(
        "The photo shows %(num)d stored tile otherwise than the page: check that"
        " the table and the page agree.",
        "The photo shows %(num)d stored tiles otherwise than the page: check that"
        " the table and the page agree.",
        len(conflicts),
    )


def photo_glare(cells: Sequence[tuple[int, int]]) -> str:
    """Return a warning for glare over the board at these cells ("" when
    there is none): a tile there may be missing or misread."""
    if not cells:
        return ""
    return ngettext(
        "Glare on the photo at %(cells)s: a tile there may be missing or misread."
        " Check the move, or take the photo again without the reflection.",
        "Glare on the photo at %(cells)s: tiles there may be missing or misread."
        " Check the move, or take the photo again without the reflection.",
        len(cells), cells=WORDS.cells(list(cells)),
    )


def photo_unread(cells: Sequence[tuple[int, int]]) -> str:
    """Return a warning for tiles the photo shows whose symbols could not be
    read ("" when there are none): they may be missing from the move."""
    if not cells:
        return ""
    return ngettext(
        "At %(cells)s the photo shows a tile whose symbol could not be read: it"
        " may be missing from the move. Check the move, or take the photo again"
        " in better light.",
        "At %(cells)s the photo shows tiles whose symbols could not be read: they"
        " may be missing from the move. Check the move, or take the photo again"
        " in better light.",
        len(cells), cells=WORDS.cells(list(cells)),
    )


def photo_too_often(seconds: int) -> str:
    """Return why a photo was turned away for this device's or game's photo rate
    (429), and when the next may be sent."""
    return ngettext(
        "Photos are coming too fast from this device or for this game. Send the"
        " next one in %(num)d second.",
        "Photos are coming too fast from this device or for this game. Send the"
        " next one in %(num)d seconds.",
        seconds,
    )


def photo_strings() -> dict[str, str]:
    """Return the sentences the page's photo script shows (it builds none)."""
    return {
        "reading": gettext("Reading the photo…"),
        "failed": gettext("The photo could not be sent (%(status)s). Try again."),
        "offline": gettext("No connection to the scorekeeper. Try again."),
        "busy": gettext(
            "Another photo is being read. Try again in a moment."
        ),
    }


# --- said aloud (issue 21) ---


SPEECH_TAGS: dict[str, str] = {
    "en": "en-GB", "nl": "nl-NL", "de": "de-DE", "fr": "fr-FR", "es": "es-ES",
}
"""The voice each page language asks the browser for (en-GB: the app writes
British English)."""


def spoken_move(move: engine.Move, names: Sequence[str]) -> str:
    """Return what the device says after a move: "Ann: 12 points, Qwirkle!",
    "Bob traded 3 tiles.", "Ann passed."."""
    name = names[move.player]
    if move.type == "place":
        if move.qwirkles == 0:
            return ngettext("%(name)s: %(num)d point.", "%(name)s: %(num)d points.",
                            move.points, name=name)
        if move.qwirkles == 1:
            return ngettext("%(name)s: %(num)d point, Qwirkle!",
                            "%(name)s: %(num)d points, Qwirkle!",
                            move.points, name=name)
        return ngettext("%(name)s: %(num)d point, %(q)d Qwirkles!",
                        "%(name)s: %(num)d points, %(q)d Qwirkles!",
                        move.points, name=name, q=move.qwirkles)
    if move.type == "trade":
        return ngettext("%(name)s traded %(num)d tile.",
                        "%(name)s traded %(num)d tiles.", move.count, name=name)
    if move.type == "pass":
        return gettext("%(name)s passed.", name=name)
    return gettext("%(name)s, %(what)s.", name=name, what=move_result(move))


def spoken_end(final: engine.Final, names: Sequence[str]) -> str:
    """Return what the device says when the game ends: the winner, then every
    total in play, best first."""
    if not final.scored:
        return gettext("The game is over.")
    winners = final.winners
    totals = ", ".join(
        ngettext("%(name)s %(num)d point", "%(name)s %(num)d points", standing.score,
                 name=names[standing.seat])
        for standing in final.ranking()
    )
    return " ".join([
        ngettext("Game over. The winner is %(names)s.",
                 "Game over. The winners are %(names)s.", len(winners),
                 names=", ".join(names[seat] for seat in winners)),
        gettext("Totals: %(totals)s.", totals=totals),
    ])


def spoken_last(game: engine.Game, names: Sequence[str]) -> str:
    """Return what the device says of the game's latest move ("" before the
    first), with the end when that move ended the game."""
    if not game.moves:
        return ""
    said = spoken_move(game.moves[-1], names)
    # A game the table ended or abandoned was not ended by its last move.
    if game.final is not None and game.final.reason not in engine.CLOSING:
        said += " " + spoken_end(game.final, names)
    return said


def speech_strings() -> dict[str, str]:
    """Return static/speech.js's own sentences (the moves' come with each state)."""
    return {
        "on": gettext("The score will be said aloud."),
        "no_voice": gettext(
            "This device has no %(language)s voice: it uses the nearest one"
            " (%(voice)s).", language="%(language)s", voice="%(voice)s",
        ),
        "blocked": gettext(
            "The browser speaks only once the page has been tapped: tap anywhere"
            " on it."
        ),
    }


def speech_voice() -> dict[str, str]:
    """Return the voice static/speech.js asks for: its language tag ("nl-NL")
    and the language's own name, for the sentence when the device lacks it."""
    code = i18n.current().code
    return {
        "lang": SPEECH_TAGS.get(code, code),
        "language": str(Locale.parse(code).get_display_name(code) or code),
    }
# --- club nights (issue 23) ---


def standings_labels() -> dict[str, str]:
    """Return the column headings of a club night's standings."""
    return {
        "rank": gettext("Place"),
        "name": gettext("Player"),
        "games": gettext("Games"),
        "wins": gettext("Wins"),
        "points": gettext("Points"),
        "rating": gettext("Rating"),
    }


def event_delete_note(games: int) -> str:
    """Return what deleting a club night does to its games (they stay)."""
    if not games:
        return gettext("The club night has no games: nothing else goes with it.")
    return ngettext(
        "Its %(num)d game stays in the history, in no club night; only the"
        " evening and its standings go.",
        "Its %(num)d games stay in the history, in no club night; only the"
        " evening and its standings go.",
        games,
    )


def event_deleted(games: int) -> str:
    """Return the notice after a club night was deleted."""
    return ngettext(
        "Club night deleted; its %(num)d game stays in the history.",
        "Club night deleted; its %(num)d games stay in the history.",
        games,
    )


def event_gone() -> str:
    """Say on a club night's open page or TV view that the night was deleted
    meanwhile (its games are never deleted with it)."""
    return gettext(
        "This club night was deleted. Its games are kept: you find them in the history."
    )


def standings_title(name: str) -> str:
    """Return the heading of a club night's standings sheet."""
    return gettext("Standings: %(name)s", name=name)


def standings_note(finished: int, running: int) -> str:
    """Return what the standings count: finished games, and those still running."""
    done = ngettext("%(num)d finished game", "%(num)d finished games", finished)
    if not running:
        return done
    return gettext(
        "%(done)s (%(running)s still being played: not counted yet)",
        done=done,
        running=ngettext("%(num)d game", "%(num)d games", running),
    )


def rating_value(ordinal: float) -> str:
    """Return a rating as shown: its ordinal with one decimal."""
    return decimal(ordinal, 1)


def rating_detail(mu: float, sigma: float, games: int) -> str:
    """Return a rating's parts in words: mu plus or minus sigma, over n games."""
    return ngettext(
        "skill %(mu)s ± %(sigma)s (%(num)d rated game)",
        "skill %(mu)s ± %(sigma)s (%(num)d rated games)",
        games, mu=decimal(mu, 1), sigma=decimal(sigma, 1),
    )


def rating_chart_labels() -> dict[str, str]:
    """Return the rating chart's title and axis labels."""
    return {
        "title": gettext("Rating after each game"),
        "x": gettext("Rated games"),
        "y": gettext("Rating"),
        "band": gettext("skill ± 1 σ"),
    }


def day(value: str) -> str:
    """Return a calendar date ("2026-12-04") in the reader's language, e.g.
    "4 dec. 2026"; the text as given when it is not such a date."""
    try:
        moment = datetime.strptime(value, "%Y-%m-%d").date()
    except (TypeError, ValueError):
        return str(value)
    return str(dates.format_date(moment, "medium", locale=i18n.current().locale))
