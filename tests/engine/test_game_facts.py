"""The facts the app shows, answered by the Game: preview, at(step), Qwirkles per
seat, pass and trade limits, ranking, and the variant's behaviour (RULES §5–§7)."""

from __future__ import annotations

from typing import Any

import pytest
from corpus import game_files, load

from scorekeeper import engine

CORPUS = game_files()


def replayed(record: dict[str, Any], moves: int | None = None) -> engine.Game:
    """Return a fresh game of the record with its first `moves` moves played."""
    variant = engine.Variant.from_dict(record["variant"])
    first = record["moves"][0]["player"] if record["moves"] else 0
    game = engine.Game(variant, len(record["players"]), first)
    for move in record["moves"][:moves]:
        game.push(move)
    return game


def snapshot(game: engine.Game) -> tuple[Any, ...]:
    """Everything a preview could disturb."""
    return (
        game.turn, list(game.moves), game.board.tiles(), game.scores, game.hands,
        game.bag, game.qwirkles, game.final, game.board.legal_masks(),
        len(game._states),
    )


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_at_every_step_equals_a_replay_to_that_step(path: Any) -> None:
    record = load(path)
    game = replayed(record)

    for step in range(game.turn + 1):
        position = game.at(step)
        fresh = replayed(record, step)
        assert position.step == step
        assert [(t.row, t.col, t.color, t.shape) for t in position.tiles] == (
            fresh.board.tiles()
        )
        assert list(position.scores) == fresh.scores
        assert list(position.hands) == fresh.hands
        assert position.bag == fresh.bag
        assert list(position.qwirkles) == fresh.qwirkles
        assert position.current_player == fresh.current_player
        assert position.final == (fresh.final if step == game.turn else None)
        for tile in position.tiles:
            placed = game.moves[tile.move].tiles
            assert (tile.row, tile.col, tile.color, tile.shape) in placed
    with pytest.raises(IndexError):
        game.at(game.turn + 1)
    with pytest.raises(IndexError):
        game.at(-1)


@pytest.mark.parametrize("path", CORPUS[:6], ids=lambda p: p.stem)
def test_a_game_replayed_to_a_step_offers_what_a_fresh_replay_offers(
    path: Any,
) -> None:
    record = load(path)
    game = replayed(record)
    before = snapshot(game)
    for step in sorted({0, 1, game.turn // 2, game.turn - 1, game.turn}):
        past = game.replayed_to(step)
        fresh = replayed(record, step)
        assert past.turn == step and past.moves == fresh.moves
        assert past.board.tiles() == fresh.board.tiles()
        assert (past.scores, past.hands, past.bag) == (
            fresh.scores, fresh.hands, fresh.bag)
        assert past.first_options() == fresh.first_options()
        for cell in list(fresh.first_options())[:3]:
            assert past.cell_options(cell) == fresh.cell_options(cell)
    assert snapshot(game) == before  # the game itself is left as it was
    with pytest.raises(IndexError):
        game.replayed_to(game.turn + 1)
    with pytest.raises(IndexError):
        game.replayed_to(-1)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_each_seats_qwirkles_are_the_qwirkles_of_its_moves(path: Any) -> None:
    game = replayed(load(path))

    expected = [0] * game.players
    for move in game.moves:
        expected[move.player] += move.qwirkles
    assert game.qwirkles == expected
    undone = game.pop()  # undo takes the last move's Qwirkles back too
    expected[undone.player] -= undone.qwirkles
    assert game.qwirkles == expected


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_a_preview_says_what_the_move_does_and_changes_nothing(path: Any) -> None:
    record = load(path)
    for step, move in enumerate(record["moves"]):
        if move["type"] != "place" or step % 3:
            continue
        game = replayed(record, step)
        tiles = [(t["row"], t["col"], t["color"], t["shape"]) for t in move["tiles"]]
        before = snapshot(game)

        preview = game.preview(tiles)

        assert snapshot(game) == before
        played = game.place(tiles)
        assert preview.score == played.score
        assert preview.breakdown == played.breakdown
        assert preview.end_bonus == played.end_bonus
        assert preview.ends_game == (game.final is not None)


@pytest.mark.parametrize("path", CORPUS[:4], ids=lambda p: p.stem)
def test_a_cells_options_are_every_kind_whose_move_is_legal_with_its_preview(
    path: Any,
) -> None:
    record = load(path)
    for step, move in enumerate(record["moves"]):
        if move["type"] != "place" or step % 5:
            continue
        game = replayed(record, step)
        tiles = [(t["row"], t["col"], t["color"], t["shape"]) for t in move["tiles"]]
        pending, (row, col, *_kind) = tiles[:-1], tiles[-1]
        before = snapshot(game)

        options = game.cell_options((row, col), pending)

        assert snapshot(game) == before
        unseen = game.unseen()
        for kind in game.variant.kinds:
            tried = [*pending, (row, col, *kind)]
            left = unseen[kind] - sum(1 for t in pending if tuple(t[2:]) == kind)
            try:
                want: Any = game.preview(tried)
            except engine.IllegalMove as exc:
                want = exc.code if exc.code in engine.MENDABLE else None
                if exc.code in ("gap", "not_connected"):
                    # Offered while more tiles may still mend it (any order).
                    want = exc.code if game.board.mend_fault(tried) is None else None
            if left <= 0:
                want = None
            got = options.get(kind)
            if isinstance(got, engine.IllegalMove):
                assert got.code == want, (step, kind)
            else:
                assert got == want, (step, kind)
        assert options[tuple(tiles[-1][2:])] == game.preview(tiles)


@pytest.mark.parametrize("path", CORPUS[:3] + CORPUS[-2:], ids=lambda p: p.stem)
def test_the_first_tiles_options_are_every_free_cells_options(path: Any) -> None:
    record = load(path)
    for step in range(0, len(record["moves"]), 7):
        game = replayed(record, step)
        everywhere = game.first_options()
        cells = {(r + dr, c + dc) for r, c, *_ in game.board.tiles()
                 for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        cells = {cell for cell in cells if game.board.get(cell) is None} or {(0, 0)}
        for cell in cells:
            single = game.cell_options(cell)
            assert set(everywhere.get(cell, {})) == set(single), (step, cell)
            for kind, result in single.items():
                got = everywhere[cell][kind]
                if isinstance(result, engine.IllegalMove):
                    assert isinstance(got, engine.IllegalMove)
                    assert got.code == result.code
                else:
                    assert got == result
        assert set(everywhere) <= cells


def test_a_gap_or_a_first_move_too_small_is_offered_with_its_refusal() -> None:
    game = engine.Game()
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    gap = game.cell_options((0, 4), [(0, 2, "red", "diamond")])
    assert isinstance(gap[("red", "clover")], engine.IllegalMove)
    assert gap[("red", "clover")].code == "gap"
    # Only what the red line may still take once the gap is filled: the move
    # itself is checked again when confirmed.
    assert {exc.code for exc in gap.values()} == {"gap"}
    assert set(gap) == {("red", "clover"), ("red", "starburst"), ("red", "crisscross")}

    cubes = engine.Game(engine.CUBES, 2)
    first = cubes.cell_options((0, 0))
    assert len(first) == len(engine.CUBES.kinds)
    assert {exc.code for exc in first.values()} == {"first_move_too_small"}
    everywhere = cubes.first_options()
    assert list(everywhere) == [(0, 0)]
    assert {kind: exc.code for kind, exc in everywhere[(0, 0)].items()} == {
        kind: exc.code for kind, exc in first.items()
    }


def test_no_options_once_the_game_is_over() -> None:
    record = load(CORPUS[0])
    game = replayed(record)
    assert game.final is not None
    assert game.cell_options((0, 0)) == {}
    assert game.first_options() == {}


def test_a_refused_preview_changes_nothing() -> None:
    game = engine.Game()
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    before = snapshot(game)

    with pytest.raises(engine.IllegalMove):
        game.preview([(0, 2, "blue", "diamond")])

    assert snapshot(game) == before


def test_s6_a_preview_of_the_last_tile_ends_the_game_with_the_bonus() -> None:
    # Three colours, one copy, hands of 6: 9 tiles dealt 5 and 4, the bag empty.
    game = engine.Game(engine.Variant(colors=3, copies=1, hand_size=6), 2)
    row = [(0, c, "red", s) for c, s in enumerate(("circle", "crisscross", "diamond"))]
    game.place(row)
    game.place([(1, 0, "orange", "circle"), (2, 0, "yellow", "circle")])
    tiles = [(1, 1, "orange", "crisscross"), (1, 2, "orange", "diamond")]

    preview = game.preview(tiles)

    assert (preview.ends_game, preview.end_bonus) == (True, engine.END_BONUS)


def test_s5_with_the_bag_empty_from_the_start_a_pass_is_allowed_on_turn_0() -> None:
    # 3 colours × 3 shapes × 1 copy = 9 tiles; two hands of 6 would need 12.
    game = engine.Game(engine.Variant(colors=3, copies=1, hand_size=6), 2)

    assert (game.bag, game.turn) == (0, 0)
    assert game.can_pass()
    assert game.max_trade() == 0
    game.pass_turn()
    assert game.moves[-1].type == "pass"


def test_s5_trade_and_pass_limits() -> None:
    game = engine.Game()
    assert (game.max_trade(), game.can_pass()) == (0, False)  # first move: place
    game.place([(0, 0, "red", "circle")])
    assert (game.max_trade(), game.can_pass()) == (6, False)
    small = engine.Game(engine.Variant(colors=3, copies=1, hand_size=3), 2)
    small.place([(0, 0, "red", "circle")])
    assert small.bag == 2 and small.max_trade() == 2  # no more than the bag holds


def test_s7_cubes_say_no_trade_no_pass_per_colour_supply_and_two_to_start() -> None:
    cubes, classic = engine.CUBES, engine.CLASSIC

    assert (cubes.allows_trade, cubes.allows_pass) == (False, False)
    assert (classic.allows_trade, classic.allows_pass) == (True, True)
    assert (cubes.unit, classic.unit) == ("cube", "tile")
    assert (cubes.min_first_move, classic.min_first_move) == (2, 1)
    assert cubes.supply_per_color and not classic.supply_per_color
    assert cubes.supply_key("red", "circle") == ("red", "")
    assert classic.supply_key("red", "circle") == ("red", "circle")
    assert cubes.supply_keys == tuple((c, "") for c in cubes.color_names)
    assert len(classic.supply_keys) == 36
    game = engine.Game(cubes, 2)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    assert (game.max_trade(), game.can_pass()) == (0, False)
    by_kind = game.unseen_by_kind()
    assert len(by_kind) == 36
    assert {by_kind[("red", s)] for s in cubes.shape_names} == {13}
    assert {by_kind[("blue", s)] for s in cubes.shape_names} == {15}


def test_unseen_by_kind_counts_each_tile_in_the_tile_game() -> None:
    game = engine.Game()
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])

    by_kind = game.unseen_by_kind()

    assert by_kind[("red", "circle")] == 2
    assert by_kind[("blue", "circle")] == 3
    assert by_kind == game.unseen()


def test_s6_ties_share_a_rank_and_the_win() -> None:
    final = engine.Final((20, 31, 31, 5), 1, engine.EndReason.HAND_EMPTIED)

    assert final.winners == (1, 2)
    assert [(s.rank, s.seat, s.score, s.end_bonus) for s in final.ranking()] == [
        (1, 1, 31, True), (1, 2, 31, False), (3, 0, 20, False), (4, 3, 5, False),
    ]
    assert engine.ranks([20, 31, 31, 5]) == [3, 1, 1, 4]
