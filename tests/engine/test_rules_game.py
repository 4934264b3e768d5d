"""One test per game-level rule of RULES.md (§1 table, §2 start, §5 trades and
passes, §6 bag, hands and the end, §7 sets)."""

from __future__ import annotations

import pytest

from scorekeeper import engine

from . import reference

TINY = engine.Variant(colors=3, copies=1, hand_size=2)
"""9 tiles, hands of 2: with two players the bag holds 5 at the start."""

# A scripted two-player game on the tiny set (scores worked out by hand):
TINY_MOVES = [
    [(0, 0, "red", "circle"), (0, 1, "red", "crisscross")],        # P0 2, bag 3
    [(1, 0, "orange", "circle"), (1, 1, "orange", "crisscross")],  # P1 2+2+2, bag 1
    [(2, 0, "yellow", "circle")],                    # P0 circle Qwirkle 3+3, bag 0
    [(2, 1, "yellow", "crisscross")],                # P1 2 + Qwirkle 6 = 8
    [(0, 2, "red", "diamond")],                      # P0 red Qwirkle 6
    [(1, 2, "orange", "diamond")],                   # P1 6 + 2 = 8, hand empty: +6
]
TINY_SCORES = [2, 6, 6, 8, 6, 8]
TINY_BAGS = [3, 1, 0, 0, 0, 0]
TINY_HANDS = [[2, 2], [2, 2], [2, 2], [2, 1], [1, 1], [1, 0]]


def tiny_game(moves: int) -> engine.Game:
    """The tiny scripted game after its first `moves` moves."""
    game = engine.Game(TINY, players=2)
    for tiles in TINY_MOVES[:moves]:
        game.place(tiles)
    return game


def bag_formula(variant: engine.Variant, board_tiles: int, players: int) -> int:
    """RULES §6/§7: max(0, N·N·C − board − H·players)."""
    return max(0, variant.total_tiles - board_tiles - variant.hand_size * players)


# --- §1 / §2 table and start -------------------------------------------------


def test_s2_play_starts_with_the_first_player_and_goes_round_the_seats():
    game = engine.Game(players=3, first_player=2)

    seats = []
    for col in range(5):
        seats.append(game.current_player)
        game.place([(0, col, "red", ("circle", "crisscross", "diamond", "square",
                                     "starburst")[col])])

    assert seats == [2, 0, 1, 2, 0]
    assert [move.player for move in game.moves] == seats
    assert game.first_player == 2


@pytest.mark.parametrize("players, first", [(2, 2), (2, -1), (3, 3)])
def test_s2_a_first_player_outside_the_table_is_refused(players, first):
    with pytest.raises(ValueError):
        engine.Game(players=players, first_player=first)


def test_s1_s7_a_custom_set_seats_up_to_eight():
    variant = engine.Variant(colors=8, copies=1, hand_size=6)

    assert engine.Game(variant, players=8).players == 8
    with pytest.raises(ValueError):
        engine.Game(variant, players=9)


def test_s2_the_first_move_may_not_be_a_trade():
    game = engine.Game()

    with pytest.raises(engine.IllegalMove) as refused:
        game.trade(2)

    assert refused.value.code == "first_move_trade"
    assert game.turn == 0


def test_s2_a_first_move_scores_its_tiles_and_fills_the_hand_again():
    game = engine.Game(players=2)

    move = game.place([(0, 0, "red", "circle"), (0, 1, "red", "square"),
                       (0, 2, "red", "diamond")])

    assert (move.player, move.type, move.score) == (0, "place", 3)
    assert game.scores == [3, 0]
    assert game.hands == [6, 6]
    assert game.current_player == 1


# --- §5 trading and passing --------------------------------------------------


def test_s5_trading_does_not_change_the_bag_and_scores_nothing():
    game = engine.Game(players=2)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    bag = game.bag

    move = game.trade(6)

    assert game.bag == bag == 108 - 2 - 12
    assert (move.type, move.count, move.score, move.player) == ("trade", 6, 0, 1)
    assert game.hands == [6, 6]
    assert game.scores == [2, 0]
    assert game.current_player == 0


def test_s5_no_more_tiles_may_be_traded_than_the_bag_holds():
    game = tiny_game(2)
    assert game.bag == 1

    with pytest.raises(engine.IllegalMove) as refused:
        game.trade(2)
    move = game.trade(1)

    assert refused.value.code == "trade_exceeds_bag"
    assert move.count == 1
    assert game.bag == 1


def test_s5_no_trade_once_the_bag_is_empty():
    game = tiny_game(3)
    assert game.bag == 0

    with pytest.raises(engine.IllegalMove) as refused:
        game.trade(1)

    assert refused.value.code == "trade_exceeds_bag"
    # Said as an empty bag, not as "holds 0 tiles; a trade of 1 would need more".
    assert str(refused.value).startswith("The bag is empty")


def test_s5_a_pass_while_the_bag_holds_tiles_is_not_allowed():
    game = tiny_game(2)

    with pytest.raises(engine.IllegalMove) as refused:
        game.pass_turn()

    assert refused.value.code == "pass_not_allowed"


def test_s5_a_pass_is_allowed_once_the_bag_is_empty():
    game = tiny_game(3)

    move = game.pass_turn()

    assert (move.type, move.score, move.player) == ("pass", 0, 1)
    assert game.current_player == 0
    assert game.final is None


# --- §6 bag, hands, end ------------------------------------------------------


@pytest.mark.parametrize("variant, players, first_move", [
    (engine.Variant(), 2, 3),
    (engine.Variant(), 3, 1),
    (engine.Variant(), 4, 5),
    (engine.Variant(colors=5, copies=2, hand_size=5), 3, 4),
    (engine.Variant(colors=8, copies=1, hand_size=6), 8, 2),
    (engine.Variant(colors=4, copies=9, hand_size=12), 5, 3),
])
def test_s6_s7_bag_is_max0_of_set_minus_board_minus_hands(variant, players, first_move):
    game = engine.Game(variant, players=players)
    assert game.bag == bag_formula(variant, 0, players)

    game.place([(0, c, "red", shape) for c, shape in
                enumerate(variant.shape_names[:first_move])])

    assert game.bag == bag_formula(variant, first_move, players)
    assert game.hands == [variant.hand_size] * players


def test_s6_classic_bag_after_a_first_move_of_three_with_two_players_is_93():
    game = engine.Game()

    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square"),
                (0, 2, "red", "diamond")])

    assert game.bag == 93


def test_s6_once_the_bag_is_empty_a_player_draws_only_what_is_left():
    game = engine.Game(TINY, players=2)
    assert (game.bag, game.hands) == (5, [2, 2])

    seen = []
    for tiles in TINY_MOVES[:5]:
        game.place(tiles)
        seen.append((game.bag, list(game.hands)))

    assert seen == list(zip(TINY_BAGS[:5], TINY_HANDS[:5], strict=True))
    assert [move.score for move in game.moves] == TINY_SCORES[:5]
    # The bag and the hands always hold the tiles not on the board.
    assert game.bag + sum(game.hands) == TINY.total_tiles - len(game.board)


def test_s6_emptying_the_hand_with_the_bag_empty_ends_the_game_with_6_bonus():
    game = tiny_game(5)

    move = game.place(TINY_MOVES[5])

    assert (move.score, move.end_bonus) == (8, 6)
    assert game.is_over()
    assert game.status == "finished"
    assert game.final.reason == engine.EndReason.HAND_EMPTIED
    assert game.final.reason == "hand_emptied"
    assert game.final.end_bonus_player == 1
    assert game.scores == [2 + 6 + 6, 6 + 8 + 8 + 6]
    assert list(game.final.scores) == game.scores
    assert game.final.to_dict() == {"scores": [14, 28], "end_bonus_player": 1,
                                    "reason": "hand_emptied"}


def test_s6_the_end_bonus_stays_6_in_every_set():
    game = tiny_game(5)

    game.place(TINY_MOVES[5])

    assert game.moves[-1].end_bonus == 6
    assert game.scores[1] - sum(m.score for m in game.moves if m.player == 1) == 6


def test_s6_placing_last_tiles_while_the_bag_still_holds_tiles_does_not_end():
    # Hands of 2: a two-tile move empties the hand, but the bag refills it.
    game = engine.Game(TINY, players=2)

    game.place(TINY_MOVES[0])

    assert game.final is None
    assert game.hands == [2, 2]


# Three colours, two copies, hands of 2: after five moves all six circles are on
# the board in a 3x2 block, and no crisscross or diamond fits next to it.
STALL_VARIANT = engine.Variant(colors=3, copies=2, hand_size=2)
STALL_MOVES = [
    ([(0, 0, "orange", "circle")], 1),
    ([(1, 0, "red", "circle")], 2),
    ([(1, 1, "orange", "circle")], 2),
    ([(0, 1, "yellow", "circle"), (2, 1, "red", "circle")], 6 + 2),
    ([(2, 0, "yellow", "circle")], 6 + 2),
]


def test_s6_the_game_ends_stalled_without_bonus_when_no_unplayed_tile_fits():
    game = engine.Game(STALL_VARIANT, players=2)
    for tiles, points in STALL_MOVES[:-1]:
        assert game.place(tiles).score == points
        assert game.final is None

    tiles, points = STALL_MOVES[-1]
    move = game.place(tiles)

    assert move.score == points
    assert move.end_bonus == 0
    assert game.bag == 18 - 6 - 4 > 0
    assert game.final.reason == engine.EndReason.STALLED
    assert game.final.end_bonus_player is None
    assert game.scores == [1 + 2 + 8, 2 + 8]
    unplayed = [kind for kind, n in game.unseen().items() if n]
    assert unplayed and all(not game.board.legal_cells(*kind) for kind in unplayed)


def test_s6_the_game_ends_when_every_player_passes_in_turn():
    game = tiny_game(4)

    game.pass_turn()
    assert game.final is None
    game.pass_turn()

    assert game.final.reason == engine.EndReason.ALL_PASSED
    assert game.final.end_bonus_player is None
    assert game.scores == [2 + 6, 6 + 8]


def test_s6_a_placing_move_between_passes_starts_the_count_again():
    game = tiny_game(3)

    game.pass_turn()                      # P1
    game.place(TINY_MOVES[4])             # P0 places
    game.pass_turn()                      # P1

    assert game.final is None


@pytest.mark.parametrize("act", [
    lambda g: g.pass_turn(),
    lambda g: g.trade(1),
    lambda g: g.place([(2, 2, "yellow", "diamond")]),
    lambda g: g.push({"type": "place", "tiles": [
        {"row": 2, "col": 2, "color": "yellow", "shape": "diamond"}]}),
    lambda g: g.check_place([(2, 2, "yellow", "diamond")]),
])
def test_s6_no_move_after_the_end(act):
    game = tiny_game(6)
    assert game.is_over()

    with pytest.raises(engine.IllegalMove) as refused:
        act(game)

    assert refused.value.code == "game_over"
    assert len(game.moves) == 6


def test_s6_undo_of_the_last_move_reopens_a_finished_game():
    game = tiny_game(6)
    scores_before = tiny_game(5).scores

    undone = game.pop()

    assert undone.type == "place" and undone.end_bonus == 6
    assert game.final is None
    assert game.status == "active"
    assert not game.is_over()
    assert game.scores == scores_before
    assert game.hands == TINY_HANDS[4]
    assert game.current_player == 1
    game.place(TINY_MOVES[5])
    assert game.final.reason == "hand_emptied"


def test_s6_undo_restores_bag_hands_scores_and_board_move_by_move():
    states = []
    game = engine.Game(TINY, players=2)
    for tiles in TINY_MOVES:
        states.append((list(game.board.tiles()), game.bag, list(game.hands),
                       list(game.scores), game.current_player))
        game.place(tiles)

    for expected in reversed(states):
        game.pop()
        assert (list(game.board.tiles()), game.bag, list(game.hands),
                list(game.scores), game.current_player) == expected
    with pytest.raises(IndexError):
        game.pop()


def test_s6_undo_of_a_pass_reopens_an_all_passed_game():
    game = tiny_game(4)
    game.pass_turn()
    game.pass_turn()

    game.pop()

    assert game.final is None
    assert game.status == "active"
    assert game.current_player == 1
    # The second player places their last tile instead: now the hand ends it.
    game.place([(1, 2, "orange", "diamond")])
    assert game.final.reason == "hand_emptied"
    assert game.final.end_bonus_player == 1


def test_s6_preview_checks_game_rules_without_applying():
    game = tiny_game(5)

    preview = game.check_place(TINY_MOVES[5])
    with pytest.raises(engine.IllegalMove) as refused:
        game.check_place([(1, 2, "orange", "diamond"), (2, 2, "yellow", "diamond")])

    assert preview.points == 8
    assert refused.value.code == "too_many_tiles"
    assert len(game.moves) == 5 and game.final is None


def test_s6_push_takes_contract_move_dicts_and_ignores_player_and_score():
    game = engine.Game(TINY, players=2)

    first = game.push({"type": "place", "player": 1, "score": 99, "tiles": [
        {"row": r, "col": c, "color": color, "shape": shape}
        for r, c, color, shape in TINY_MOVES[0]]})
    second = game.push({"type": "place", "tiles": [
        {"row": r, "col": c, "color": color, "shape": shape}
        for r, c, color, shape in TINY_MOVES[1]]})
    trade = game.push({"type": "trade", "count": 1})

    assert (first.player, first.score) == (0, 2)
    assert (second.player, second.score) == (1, 6)
    assert (trade.player, trade.type, trade.count) == (0, "trade", 1)
    assert first.to_dict() == {"player": 0, "type": "place", "score": 2, "tiles": [
        {"row": 0, "col": 0, "color": "red", "shape": "circle"},
        {"row": 0, "col": 1, "color": "red", "shape": "crisscross"}]}
    assert trade.to_dict() == {"player": 0, "type": "trade", "count": 1}
    assert trade.to_dict(with_score=True)["score"] == 0


def test_s6_unseen_counts_the_tiles_not_on_the_board():
    game = tiny_game(3)

    unseen = game.unseen()

    assert sum(unseen.values()) == 9 - 5 == game.bag + sum(game.hands)
    assert unseen[("red", "circle")] == 0
    assert unseen[("yellow", "diamond")] == 1
    assert unseen == game.board.unseen()


def test_s6_emptying_the_hand_ends_with_the_bonus_even_when_nothing_else_fits():
    # The last tile placed leaves the one unplayed tile (a yellow crisscross in
    # the other hand) nowhere to go: both ends hold; the player who emptied
    # their hand still earns the +6 (RULES §6: the first ending is the rule,
    # the stalled end is for games where nobody can finish).
    game = engine.Game(engine.Variant(colors=3, copies=1, hand_size=2), players=2,
                       first_player=1)
    game.place([(0, 0, "yellow", "diamond")])
    game.trade(1)
    game.place([(1, 1, "orange", "circle"), (1, 0, "yellow", "circle")])
    game.place([(0, -1, "red", "diamond")])
    game.place([(2, 2, "orange", "diamond"), (2, 1, "orange", "crisscross")])
    game.place([(-1, -1, "red", "crisscross")])
    assert game.final is None and game.bag == 0 and game.hands == [1, 1]

    last = game.place([(-1, -2, "red", "circle")])

    tiles = {(r, c): (color, shape) for r, c, color, shape in game.board.tiles()}
    cells = {(r + dr, c + dc) for r, c in tiles
             for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))} - set(tiles)
    variant = game.variant
    assert all(reference.judge(tiles, [(*cell, "yellow", "crisscross")],
                               variant.color_names, variant.shape_names, 1)[0]
               for cell in cells)
    assert (last.score, last.end_bonus) == (2, 6)
    assert game.final.reason == "hand_emptied"
    assert game.final.end_bonus_player == 1
    assert game.scores == [2 + 2, 1 + 4 + 4 + 2 + 6]


def test_s6_highest_total_wins_and_ties_are_shared():
    tie = engine.Final(scores=(30, 41, 41), end_bonus_player=1,
                       reason=engine.EndReason.HAND_EMPTIED)
    alone = engine.Final(scores=(50, 41), end_bonus_player=None,
                         reason=engine.EndReason.STALLED)

    assert tie.winners == (1, 2)
    assert alone.winners == (0,)
