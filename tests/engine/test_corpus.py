"""Replay the independently scored corpus in tests/data/games (CONTRACT §5)."""

from __future__ import annotations

import copy

import pytest

from scorekeeper import engine

from .helpers import PROBES, corpus_records, load, record_tiles

RECORDS = corpus_records()


def test_the_corpus_is_there():
    names = {p.name.split("-")[0] for p in RECORDS}

    assert len(RECORDS) >= 15
    assert {"classic", "n5", "stalled"} <= names


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_record_replays_with_every_score_and_the_same_end(path):
    record = load(path)

    game, names = engine.from_record(copy.deepcopy(record))

    assert names == record["players"]
    assert [m.score for m in game.moves] == [m.get("score", 0) for m in record["moves"]]
    assert [m.player for m in game.moves] == [m["player"] for m in record["moves"]]
    final = record["final"]
    assert game.final is not None
    assert game.final.reason.value == final["reason"]
    assert game.final.end_bonus_player == final["end_bonus_player"]
    assert list(game.final.scores) == final["scores"] == game.scores


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_record_replays_move_by_move_with_push(path):
    record = load(path)
    variant = engine.Variant.from_dict(record["variant"])
    players = len(record["players"])
    game = engine.Game(variant, players=players,
                       first_player=record["moves"][0]["player"])
    total = variant.total_tiles

    for number, move in enumerate(record["moves"], start=1):
        assert game.final is None, f"ended early, before move {number}"
        assert game.current_player == move["player"], number
        pushed = game.push(move)
        assert pushed.player == move["player"], number
        assert pushed.type == move["type"], number
        assert pushed.score == move.get("score", 0), number
        # RULES §6: the bag, and the hands hold exactly the unplayed tiles.
        board = len(game.board)
        assert game.bag == max(0, total - board - variant.hand_size * players), number
        assert game.bag + sum(game.hands) == total - board, number
        assert all(0 <= h <= variant.hand_size for h in game.hands), number

    final = record["final"]
    assert game.final.to_dict() == final
    last = game.moves[-1]
    if final["end_bonus_player"] is None:
        assert last.end_bonus == 0
    else:
        assert (last.player, last.end_bonus) == (final["end_bonus_player"], 6)
        assert game.hands[last.player] == 0 and game.bag == 0


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_record_export_of_import_gives_the_same_record(path):
    record = load(path)

    game, names = engine.from_record(copy.deepcopy(record))
    exported = engine.to_record(game, names)

    assert exported == record
    again, _ = engine.from_record(exported)
    assert engine.to_record(again, names) == record


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_record_board_moves_replay_on_a_bare_board_with_the_same_scores(path):
    record = load(path)
    board = engine.Board(engine.Variant.from_dict(record["variant"]))

    for move in record["moves"]:
        if move["type"] == "place":
            assert board.play(record_tiles(move)) == move["score"]

    assert sum(board.unseen().values()) == board_total(record) - len(board)


def board_total(record: dict) -> int:
    v = record["variant"]
    return v["colors"] * v["shapes"] * v["copies"]


def test_record_with_a_wrong_score_names_the_move():
    record = load(RECORDS[0])
    number = next(i for i, m in enumerate(record["moves"], 1) if m["type"] == "place"
                  and i > 3)
    record["moves"][number - 1]["score"] += 1

    with pytest.raises(engine.RecordError) as error:
        engine.from_record(record)

    assert error.value.code == "score_mismatch"
    assert error.value.move_number == number
    assert str(number) in str(error.value)


def test_record_with_an_illegal_move_names_the_move_and_the_code():
    record = load(RECORDS[0])
    place = record["moves"][4]
    assert place["type"] == "place"
    # Put the fifth move's first tile on a cell the first move occupies.
    first = record["moves"][0]["tiles"][0]
    place["tiles"] = [dict(place["tiles"][0], row=first["row"], col=first["col"])]
    place.pop("score", None)

    with pytest.raises(engine.RecordError) as error:
        engine.from_record(record)

    assert error.value.code == "occupied"
    assert error.value.move_number == 5
    assert "5" in str(error.value)


def test_record_played_out_of_turn_is_refused():
    record = load(RECORDS[0])
    record["moves"][1]["player"] = record["moves"][0]["player"]

    with pytest.raises(engine.RecordError) as error:
        engine.from_record(record)

    assert error.value.code == "out_of_turn"
    assert error.value.move_number == 2


def test_record_with_a_wrong_final_is_refused():
    record = load(RECORDS[0])
    record["final"] = dict(record["final"], scores=[s + 1 for s in
                                                    record["final"]["scores"]])

    with pytest.raises(engine.RecordError):
        engine.from_record(record)


@pytest.mark.parametrize("broken", [
    lambda r: r.update(format="qwirkle-game/2"),
    lambda r: r.pop("moves"),
    lambda r: r.update(players=["solo"]),
    lambda r: r["moves"][0].update(type="jump"),
    lambda r: r["moves"][0]["tiles"][0].update(row="zero"),
    lambda r: r.update(variant={"colors": 2}),
])
def test_malformed_record_is_a_record_error(broken):
    record = load(RECORDS[0])
    broken(record)

    with pytest.raises(engine.RecordError):
        engine.from_record(record)


def test_record_without_final_replays_an_unfinished_game():
    record = load(RECORDS[0])
    record["moves"] = record["moves"][:10]
    record["final"] = None

    game, _ = engine.from_record(record)

    assert game.final is None and game.status == "active"
    assert engine.to_record(game, record["players"]) == record


# --- the probes: a mid-game position and moves to try on it -------------------

PROBE_DATA = load(PROBES) if PROBES.exists() else {"probes": []}


def probe_position() -> engine.Game:
    variant = engine.Variant.from_dict(PROBE_DATA["variant"])
    game = engine.Game(variant, players=len(PROBE_DATA["players"]),
                       first_player=PROBE_DATA["position_moves"][0]["player"])
    for move in PROBE_DATA["position_moves"]:
        assert game.push(move).score == move["score"]
    return game


def test_probe_position_replays_to_the_listed_board():
    game = probe_position()

    listed = {(t["row"], t["col"]): (t["color"], t["shape"])
              for t in PROBE_DATA["board"]}
    assert {(t[0], t[1]): (t[2], t[3]) for t in game.board.tiles()} == listed


@pytest.mark.parametrize(
    "probe", PROBE_DATA["probes"],
    ids=[f"{i}-{p['category']}" for i, p in enumerate(PROBE_DATA["probes"])],
)
def test_probe_gives_its_expected_code_or_score(probe):
    game = probe_position()
    board = game.board
    before = list(board.tiles())
    tiles = record_tiles(probe)

    if probe["expected"] == "illegal":
        with pytest.raises(engine.IllegalMove) as refused:
            board.play(tiles)
        assert refused.value.code == probe["code"], refused.value
        with pytest.raises(engine.IllegalMove) as in_game:
            game.place(tiles)
        assert in_game.value.code == probe["code"]
    else:
        assert board.check(tiles).points == probe["score"]
        assert game.check_place(tiles).points == probe["score"]
        assert board.play(tiles) == probe["score"]
        board.pop()
    assert list(board.tiles()) == before


def test_record_claiming_an_end_the_moves_do_not_reach_is_refused():
    record = load(RECORDS[0])
    record["moves"] = record["moves"][:10]

    with pytest.raises(engine.RecordError) as error:
        engine.from_record(record)

    assert "final" in str(error.value).lower() or error.value.code.startswith("final")


def test_record_with_a_move_after_the_end_names_that_move():
    record = load(RECORDS[0])
    last = record["moves"][-1]
    players = len(record["players"])
    record["moves"].append({"player": (last["player"] + 1) % players, "type": "pass"})

    with pytest.raises(engine.RecordError) as error:
        engine.from_record(record)

    assert error.value.code == "game_over"
    assert error.value.move_number == len(record["moves"])


def test_a_record_of_a_game_without_moves_keeps_its_first_player():
    game = engine.Game(players=3, first_player=2)

    record = engine.to_record(game, ["Ann", "Bob", "Cas"])
    again, _ = engine.from_record(record)

    assert record["first_player"] == 2
    assert again.first_player == 2 and again.current_player == 2
    assert engine.to_record(again, ["Ann", "Bob", "Cas"]) == record


def test_a_record_whose_first_player_contradicts_its_first_move_is_refused():
    game = engine.Game(players=2)
    game.place([(0, 0, "red", "circle")])
    record = engine.to_record(game, ["Ann", "Bob"])
    record["first_player"] = 1

    with pytest.raises(engine.RecordError) as refused:
        engine.from_record(record)

    assert refused.value.code == "out_of_turn" and refused.value.move_number == 1
