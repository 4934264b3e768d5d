"""Every engine message is reachable, and text.py writes it in the page's language.

Each case below makes the engine refuse something for real; together they
reach every template of engine/messages.py, every illegal-move code of
CONTRACT §7 (plus the two Qwirkle Cubes codes) and every RecordError code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from scorekeeper import engine, i18n, text
from scorekeeper.engine.messages import MESSAGES

RED_PAIR = [{"row": 0, "col": 0, "color": "red", "shape": "circle"},
            {"row": 0, "col": 1, "color": "red", "shape": "square"}]
SIX = ("circle", "crisscross", "diamond", "square", "starburst", "clover")
CUBES_SMALL = {"name": "cubes", "system": "cubes", "colors": 6, "copies": 3,
               "hand_size": 6}
TINY = {"colors": 3, "copies": 1, "hand_size": 3}
"""9 tiles, hands of 3: two players leave 3 in the bag."""
ONE_COPY = {"colors": 6, "copies": 1, "hand_size": 6}
"""One copy of each tile: a second red circle is one too many."""


def tiles(*cells: tuple[int, int, str, str]) -> list[dict[str, Any]]:
    """Return tile dicts from (row, col, colour, shape)."""
    return [{"row": r, "col": c, "color": k, "shape": s} for r, c, k, s in cells]


def place(*cells: tuple[int, int, str, str]) -> dict[str, Any]:
    """Return a place move."""
    return {"type": "place", "tiles": tiles(*cells)}


RED_ROW = place(*[(0, c, "red", s) for c, s in enumerate(SIX)])
CIRCLES = place((0, 0, "red", "circle"), (0, 1, "blue", "circle"))

# (variant, moves before, the refused move, code, message key)
MOVE_CASES: list[tuple[dict[str, Any] | None, list[dict[str, Any]], dict[str, Any],
                       str, str]] = [
    (None, [], {"type": "place", "tiles": []}, "empty_move", "empty_move"),
    (None, [place(*[(0, c, "red", s) for c, s in enumerate(SIX[:2])])],
     {"type": "trade", "count": 0}, "empty_move", "empty_trade"),
    (None, [], place((0, 0, "pink", "circle")), "unknown_tile", "unknown_color_at"),
    (None, [], place((0, 0, "red", "heart")), "unknown_tile", "unknown_shape_at"),
    (CUBES_SMALL, [], place((0, 0, "red", "circle")),
     "first_move_too_small", "first_move_too_small"),
    (ONE_COPY, [], place((0, 0, "red", "circle"), (0, 1, "red", "circle")),
     "tile_exhausted", "tile_exhausted_more"),
    (ONE_COPY, [place((0, 0, "red", "circle"))], place((0, 1, "red", "circle")),
     "tile_exhausted", "tile_exhausted_all"),
    (CUBES_SMALL, [place((0, 0, "red", "circle"), (0, 1, "red", "square"))],
     place((1, 0, "red", "square"), (1, 1, "red", "circle")),
     "tile_exhausted", "cubes_exhausted"),
    (None, [], place((0, 0, "red", "circle"), (0, 0, "red", "square")),
     "same_cell_twice", "same_cell_twice"),
    (None, [CIRCLES], place((0, 0, "green", "circle")), "occupied", "occupied"),
    (None, [CIRCLES], place((1, 0, "red", "square"), (2, 1, "red", "diamond")),
     "not_in_line", "not_in_line"),
    (None, [CIRCLES], place((0, 2, "green", "circle"), (0, 4, "purple", "circle")),
     "gap", "gap"),
    (None, [CIRCLES], place((5, 5, "red", "square")),
     "not_connected", "not_connected"),
    (None, [RED_ROW], place((0, 6, "blue", "circle")),
     "line_too_long", "line_too_long"),
    (None, [{"type": "place", "tiles": RED_PAIR}],
     place((0, 2, "red", "circle")), "duplicate_in_line", "duplicate_in_line"),
    (None, [{"type": "place", "tiles": RED_PAIR}], place((0, 2, "blue", "diamond")),
     "mixed_line", "mixed_line_color"),
    (None, [CIRCLES], place((0, 2, "green", "square")),
     "mixed_line", "mixed_line_shape"),
    (None, [place((0, 0, "red", "circle"))], place((0, 1, "blue", "square")),
     "mixed_line", "mixed_line"),
    (TINY, [place((0, 0, "red", "circle"))], {"type": "trade", "count": 3},
     "trade_exceeds_bag", "trade_exceeds_bag"),
    # Nine tiles dealt round the table: the bag is empty from the start.
    ({"colors": 3, "copies": 1, "hand_size": 6}, [place((0, 0, "red", "circle"))],
     {"type": "trade", "count": 1}, "trade_exceeds_bag", "trade_bag_empty"),
    (None, [{"type": "place", "tiles": RED_PAIR}], {"type": "trade", "count": 7},
     "too_many_tiles", "hand_trades"),
    # Nine tiles dealt round the table: the first player holds 5, not 6.
    ({"colors": 3, "copies": 1, "hand_size": 6}, [],
     place((0, 0, "red", "circle"), (0, 1, "red", "diamond"),
           (0, 2, "red", "crisscross"), (1, 0, "orange", "circle"),
           (2, 0, "yellow", "circle"), (-1, 0, "orange", "diamond")),
     "too_many_tiles", "hand_places"),
    (CUBES_SMALL, [place((0, 0, "red", "circle"), (0, 1, "red", "square"))],
     {"type": "trade", "count": 1}, "trade_not_allowed", "trade_not_allowed"),
    (None, [], {"type": "trade", "count": 1}, "first_move_trade", "first_move_trade"),
    (None, [{"type": "place", "tiles": RED_PAIR}], {"type": "pass"},
     "pass_not_allowed", "pass_not_allowed"),
    (CUBES_SMALL, [place((0, 0, "red", "circle"), (0, 1, "red", "square"))],
     {"type": "pass"}, "pass_not_allowed", "pass_not_allowed_cubes"),
    ({"colors": 3, "copies": 1, "hand_size": 6},
     [{"type": "pass"}, {"type": "pass"}], {"type": "pass"}, "game_over", "game_over"),
    # A friendly table (the default options) gives no penalty (CONTRACT §10).
    (None, [], {"type": "penalty", "reason": "illegal"},
     "no_penalty", "no_penalty_illegal"),
    (None, [{"type": "place", "tiles": RED_PAIR}],
     {"type": "penalty", "reason": "timeout"}, "no_penalty", "no_penalty_timeout"),
]


def refuse(call: Callable[[], object], kind: type[engine.EngineError]) -> Any:
    """Run call; return the engine error of the given kind it raised."""
    with pytest.raises(kind) as refused:
        call()
    return refused.value


def game_for(variant: dict[str, Any] | None, moves: list[dict[str, Any]]) -> Any:
    """Return a two-player game with these moves played."""
    game = engine.Game(engine.Variant.from_dict(variant), 2)
    for move in moves:
        game.push(move)
    return game


def record_for(
    variant: dict[str, Any] | None, moves: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    """Return a record of these moves (players alternating from seat 0)."""
    return {
        "format": engine.FORMAT,
        "variant": engine.Variant.from_dict(variant).to_dict(),
        "players": ["Ann", "Bob"],
        "moves": [{"player": i % 2, **move} for i, move in enumerate(moves)],
        **extra,
    }


def other_errors() -> list[engine.EngineError]:
    """Refusals that are not a move: inputs, names, whole records."""
    classic = engine.Variant()
    board = engine.Board()
    record = record_for(None, [{"type": "place", "tiles": RED_PAIR},
                               place((1, 0, "blue", "circle"))])
    finished = record_for(
        {"colors": 3, "copies": 1, "hand_size": 6}, [{"type": "pass"}] * 2
    )
    left = engine.Game(players=3)
    left.leave(2)                                 # Cy left: cannot leave again
    errors: list[tuple[Callable[[], object], type[engine.EngineError]]] = [
        (lambda: board.legal_cells("pink", "circle"), engine.IllegalMove),
        (lambda: board.legal_cells("red", "heart"), engine.IllegalMove),
        (lambda: board.play([(0, c, "red", "circle") for c in range(7)]),
         engine.IllegalMove),
        (lambda: engine.Variant(system="dice"), engine.BadInput),
        (lambda: engine.Variant(colors=9), engine.BadInput),
        (lambda: engine.Variant.from_dict([6]), engine.BadInput),
        (lambda: engine.Variant.from_dict({"shapes": 5}), engine.BadInput),
        (lambda: engine.Variant.from_dict({"name": "classic", "colors": 5}),
         engine.BadInput),
        (lambda: engine.Game(classic, 5), engine.BadInput),
        (lambda: engine.Game(classic, 2, 2), engine.BadInput),
        (lambda: engine.parse_tiles("tiles"), engine.BadInput),
        (lambda: engine.parse_tiles([1]), engine.BadInput),
        (lambda: engine.parse_tiles([{"row": 0}]), engine.BadInput),
        (lambda: engine.parse_tiles([{"row": 0.5, "col": 0, "color": "red",
                                      "shape": "circle"}]), engine.BadInput),
        (lambda: engine.parse_tiles([{"row": 0, "col": 0, "color": 1,
                                      "shape": "circle"}]), engine.BadInput),
        (lambda: board.play([[0, 0]]), engine.BadInput),
        (lambda: board.play([(0.5, 0, "red", "circle")]), engine.BadInput),
        (lambda: engine.Game().trade("2"), engine.BadInput),  # type: ignore[arg-type]
        (lambda: engine.Game().push(["place"]), engine.BadInput),  # type: ignore[arg-type]
        (lambda: engine.Game().push({"type": "trade"}), engine.BadInput),
        (lambda: engine.Game().push({"type": "jump"}), engine.BadInput),
        (lambda: engine.Game().push({"type": "pass", "seconds": -1}), engine.BadInput),
        (lambda: engine.Game().push({"type": "penalty", "reason": "late"}),
         engine.BadInput),
        (lambda: engine.Game().push({"type": "penalty", "reason": "timeout",
                                     "seconds": 3}), engine.BadInput),
        (lambda: engine.Game().push({"type": "leave", "player": 2}), engine.BadInput),
        (lambda: engine.Game().push({"type": "leave", "player": 0, "seconds": 3}),
         engine.BadInput),
        (lambda: left.leave(2), engine.IllegalMove),
        (lambda: engine.from_record({
            **engine.to_record(engine.Game(players=3), ["Ann", "Bob", "Cy"]),
            "moves": [{"player": 2, "type": "leave"}] * 2}), engine.RecordError),
        (lambda: engine.Options.from_dict([]), engine.BadInput),
        (lambda: engine.Options.from_dict({"clock": 30}), engine.BadInput),
        (lambda: engine.Options(move_seconds=5), engine.BadInput),
        (lambda: engine.Options(on_timeout="retry"), engine.BadInput),
        (lambda: engine.Options(penalty_points=0), engine.BadInput),
        (lambda: engine.from_record({**record, "options": {"on_illegal": "x"}}),
         engine.RecordError),
        (lambda: engine.normalise_name("   "), engine.InvalidName),
        (lambda: engine.normalise_name("B" * 41), engine.InvalidName),
        (lambda: engine.normalise_name("Bo\u200bb"), engine.InvalidName),
        (lambda: engine.check_players(["Ann Lee", "ann  lee"], classic),
         engine.InvalidName),
        (lambda: engine.check_players(["Ann"], classic), engine.InvalidName),
        (lambda: engine.check_players(list("ABCDE"), classic), engine.InvalidName),
        (lambda: engine.check_stored_players([" Ann", "Bob"], classic),
         engine.InvalidName),
        (lambda: engine.from_record([]), engine.RecordError),
        (lambda: engine.from_record({**record, "format": "x"}), engine.RecordError),
        (lambda: engine.from_record({**record, "variant": {"colors": 12}}),
         engine.RecordError),
        (lambda: engine.from_record({**record, "players": "Ann, Bob"}),
         engine.RecordError),
        (lambda: engine.from_record({**record, "players": ["Ann", "ann"]}),
         engine.RecordError),
        (lambda: engine.from_record({**record, "moves": {}}), engine.RecordError),
        (lambda: engine.from_record({**record, "first_player": 1}), engine.RecordError),
        (lambda: engine.from_record({**record, "players": ["Solo"]}),
         engine.RecordError),
        (lambda: engine.from_record({**record, "moves": ["place"]}),
         engine.RecordError),
        (lambda: engine.from_record({**record, "moves": [
            record["moves"][0], {**record["moves"][1], "player": 0}]}),
         engine.RecordError),
        (lambda: engine.from_record({**record, "moves": [
            {**record["moves"][0], "type": "jump"}]}), engine.RecordError),
        (lambda: engine.from_record({**record, "moves": [
            {**record["moves"][0], "score": 9}]}), engine.RecordError),
        (lambda: engine.from_record({**record, "final": {"scores": [2, 4]}}),
         engine.RecordError),
        (lambda: engine.from_record({**finished, "final": None}), engine.RecordError),
        (lambda: engine.from_record({**finished, "final": {"scores": [0, 0]}}),
         engine.RecordError),
    ]
    long_game = engine.Game()
    long_game.place([(0, 0, "red", "circle")])
    while long_game.turn < engine.MAX_MOVES:
        long_game.trade(1)
    errors += [
        (lambda: long_game.trade(1), engine.IllegalMove),
        (lambda: board.play([(10**30, 0, "red", "circle")]), engine.BadInput),
        (lambda: engine.Game().close("stalled"), engine.BadInput),
        (lambda: engine.from_record(
            {**record, "moves": [{"type": "pass"}] * (engine.MAX_MOVES + 1)}),
         engine.RecordError),
    ]
    return [refuse(call, kind) for call, kind in errors]


def all_errors() -> list[engine.EngineError]:
    """Every refusal of the cases: moves as played and as records, and the rest."""
    found: list[engine.EngineError] = []
    for variant, before, move, _code, _key in MOVE_CASES:
        game = game_for(variant, before)
        found.append(refuse(lambda g=game, m=move: g.push(m), engine.IllegalMove))
        record = record_for(variant, [*before, move])
        found.append(refuse(lambda r=record: engine.from_record(r), engine.RecordError))
    return found + other_errors()


@pytest.mark.parametrize(
    ("variant", "before", "move", "code", "key"), MOVE_CASES,
    ids=[case[4] for case in MOVE_CASES],
)
def test_each_case_refuses_with_its_code_and_message(
    variant: Any, before: Any, move: Any, code: str, key: str
) -> None:
    game = game_for(variant, before)
    refused = refuse(lambda: game.push(move), engine.IllegalMove)
    assert (refused.code, refused.key) == (code, key)
    record = refuse(
        lambda: engine.from_record(record_for(variant, [*before, move])),
        engine.RecordError,
    )
    assert record.code == code
    assert record.move_number == len(before) + 1
    assert record.params["reason"].key == key


def test_every_template_every_illegal_code_and_every_record_code_is_reached() -> None:
    errors = all_errors()
    keys: set[str] = set()
    for error in errors:
        keys.add(error.key)
        reason = error.params.get("reason")
        if isinstance(reason, engine.EngineError):
            keys.add(reason.key)
    illegal = {e.code for e in errors if isinstance(e, engine.IllegalMove)}
    records = {e.code for e in errors if isinstance(e, engine.RecordError)}

    assert keys == set(MESSAGES)
    assert illegal == engine.ILLEGAL_MOVE_CODES
    assert records == engine.RECORD_ERROR_CODES


def test_text_writes_each_error_as_the_engine_says_it_in_english() -> None:
    for error in all_errors():
        written = text.error(error)
        assert written == str(error)
        assert "%(" not in written, written


def test_text_writes_the_parameters_in_the_pages_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A tiny stand-in catalog: what a Dutch page would show.
    catalog = {
        "red": "rood", "circle": "cirkel", "square": "vierkant", "row": "rij",
        "red circle": "rode cirkel", "red square": "rood vierkant",
        "blue square": "blauw vierkant",
        "This cell already holds a tile: %(tile)s.":
            "Op dit vakje ligt al een blokje: %(tile)s.",
        "This %(direction)s would hold %(tiles)s: the tiles of a line must share one"
        " colour or one shape.":
            "Deze %(direction)s: %(tiles)s.",
    }

    def gettext(message: str, **variables: Any) -> str:
        translated = catalog.get(message, message)
        return translated % variables if variables else translated

    monkeypatch.setattr(text.WORDS, "gettext", gettext)
    occupied = refuse(lambda: game_for(None, [{"type": "place", "tiles": RED_PAIR}])
                      .push(place((0, 0, "red", "square"))), engine.IllegalMove)
    mixed = refuse(lambda: game_for(None, [place((0, 0, "red", "circle"))])
                   .push(place((0, 1, "blue", "square"))), engine.IllegalMove)

    assert text.illegal_move(occupied) == (
        "Op dit vakje ligt al een blokje: rode cirkel.")
    assert text.illegal_move(mixed) == "Deze rij: rode cirkel, blauw vierkant."
    # The exception itself stays English (CONTRACT §3); the cells stay in its data.
    assert str(occupied) == "This cell already holds a tile: red circle."
    assert occupied.cells == ((0, 0),)


def test_the_breakdown_end_and_moves_are_written_by_text() -> None:
    game = game_for(None, [])
    first = game.push({"type": "place", "tiles": RED_PAIR})
    second = game.push(place((1, 0, "blue", "circle"), (1, 1, "blue", "square")))

    assert text.breakdown(first.breakdown) == "red line 2 = 2"  # type: ignore[arg-type]
    assert text.move_result(second) == (
        "blue line 2 + circle line 2 + square line 2 = 6"
    )
    assert text.move_points(second) == "+6"
    assert text.last_points(game) == ["+2", "+6"]
    data = text.breakdown_json(second.breakdown)  # type: ignore[arg-type]
    assert data["summary"] == "blue line 2 + circle line 2 + square line 2 = 6"
    assert [line["label"] for line in data["lines"]] == [  # type: ignore[index]
        "blue line 2", "circle line 2", "square line 2"]
    ended = engine.Final((20, 14), 0, engine.EndReason.HAND_EMPTIED)
    assert text.final_reason(ended, ["Ann", "Bob"], engine.CLASSIC) == (
        "Ann placed their last tile with the bag empty: +6 end bonus."
    )
    assert "last cube" in text.final_reason(ended, ["Ann", "Bob"], engine.CUBES)
    assert text.winners_line(["Ann", "Bob"], (0, 1)) == "Winners: Ann, Bob"
    letters = text.color_letters(engine.Variant(colors=8, copies=1))
    assert letters == {
        "red": "R", "orange": "O", "yellow": "Y", "green": "G", "blue": "B",
        "purple": "P", "pink": "K", "brown": "N"}
    assert len(set(letters.values())) == 8


def test_a_one_point_deduction_is_written_in_the_singular() -> None:
    options = engine.Options(on_illegal="deduct", on_timeout="deduct",
                             penalty_points=1)
    game = engine.Game(engine.CLASSIC, 2, options=options)
    game.push({"type": "place", "tiles": RED_PAIR})
    illegal = game.push({"type": "penalty", "reason": "illegal"})
    late = game.push({"type": "penalty", "reason": "timeout"})

    assert text.move_result(illegal) == "illegal move: 1 point deducted"
    assert text.move_result(late) == "out of time: 1 point deducted"
    assert text.penalty_action("illegal", "Ann", options) == (
        "Illegal move by Ann: 1 point off and the turn passes"
    )
    with i18n.language("nl"):
        assert text.move_result(illegal) == "ongeldige zet: 1 punt aftrek"
        assert text.consequence("deduct", 2) == (
            "2 punten aftrek en de beurt gaat naar de volgende"
        )


def test_penalties_exclusions_and_their_end_are_written_by_text() -> None:
    options = engine.Options(on_illegal="deduct", on_timeout="exclude",
                             penalty_points=4)
    game = engine.Game(engine.CLASSIC, 2, options=options)
    game.push({"type": "place", "tiles": RED_PAIR})
    deducted = game.push({"type": "penalty", "reason": "illegal"})
    excluded = game.push({"type": "penalty", "reason": "timeout"})

    assert text.move_result(deducted) == "illegal move: 4 points deducted"
    assert text.move_points(deducted) == "−4"
    assert text.move_line(excluded, ["Ann", "Bob"]) == (
        "Ann: out of time: excluded from the game"
    )
    assert text.move_summary(excluded, engine.CLASSIC) == (
        "Penalty for running out of time"
    )
    assert text.last_points(game) == ["✕", "−4"]
    assert game.final is not None
    assert "no end bonus" in text.final_reason(game.final, ["Ann", "Bob"],
                                               engine.CLASSIC)
    assert text.penalty_action("illegal", "Bob", options) == (
        "Illegal move by Bob: 4 points off and the turn passes"
    )
    assert text.penalty_action("timeout", "Ann", options) == (
        "Ann is out of time: the player leaves the game"
    )
    assert text.thinking_time(75) == "1:15"
    assert text.average_thinking(None) == "–"
    assert text.average_thinking(23.4) == "23 s"
    assert text.average_thinking(125) == "2:05 min"


def test_a_legends_marks_keep_their_equals_sign_on_the_same_line() -> None:
    legend = text.sheet_legend(engine.CLASSIC, trade="⇄", passed="–", bonus="+6",
                               winner="★")
    assert "★\u00a0= winner" in legend and " = " not in legend
