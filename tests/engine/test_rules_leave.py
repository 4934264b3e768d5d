"""A player who leaves a running game (RULES §7.5): the hand goes back into the
bag, the others play on, the end works as before among them, undo takes the
leave back, and records carry it; and seeded games with players leaving at
random, checked move by move against test_bot_games's table of real tiles."""

from __future__ import annotations

import pytest

from scorekeeper import engine

from .test_bot_games import Table, anything_fits, choose
from .test_bot_games import snapshot as bot_snapshot

TINY = engine.Variant(colors=3, copies=1, hand_size=2)
"""9 tiles, hands of 2: with three players the bag holds 3 at the start."""


def snapshot(game: engine.Game) -> tuple:
    """Everything a player can see of a game."""
    return (
        list(game.board.tiles()), game.bag, game.hands, game.scores,
        game.current_player, game.excluded, game.left, game.final, game.turn,
        game.can_pass(), game.max_trade(),
    )


def opened() -> engine.Game:
    """A classic 3-player game after Ann's opening move of 3 (Bob to move)."""
    game = engine.Game(players=3)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square"),
                (0, 2, "red", "diamond")])
    return game


def test_s7_5_the_leavers_tiles_go_back_into_the_bag() -> None:
    game = opened()
    assert game.bag == 108 - 3 - 6 * 3

    game.leave(2)

    # RULES §6's formula with the two players still in play.
    assert game.bag == 108 - 3 - 6 * 2
    assert game.hands == [6, 6, 0]
    assert game.excluded == game.left == frozenset({2})


def test_s7_5_a_player_leaving_out_of_turn_keeps_the_turn_where_it_was() -> None:
    game = opened()

    game.leave(2)                                   # Cy leaves in Bob's turn

    assert game.current_player == 1
    game.place([(1, 0, "blue", "circle")])          # Bob
    assert game.current_player == 0                 # Cy's seat is skipped


def test_s7_5_a_player_leaving_in_turn_hands_the_turn_on() -> None:
    game = opened()

    game.leave(1)                                   # Bob leaves in his turn

    assert game.current_player == 2
    assert game.scores == [3, 0, 0]


def test_s7_5_the_leavers_score_stays_and_is_not_ranked() -> None:
    game = opened()
    game.leave(0)                                   # Ann leaves with 3 points
    game.place([(1, 0, "blue", "circle")])          # Bob 2
    game.leave(2)                                   # Cy leaves: Bob is left

    final = game.final
    assert final is not None and final.reason == engine.EndReason.LEFT
    assert final.scores == (3, 2, 0) and final.end_bonus_player is None
    assert final.winners == (1,)
    assert [s.seat for s in final.ranking()] == [1]


def test_s7_5_the_end_and_its_bonus_work_as_before_among_those_still_playing(
) -> None:
    game = engine.Game(TINY, players=3)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "crisscross")])   # Ann
    game.leave(2)                   # in Bob's turn: Cy's 2 tiles back
    assert game.bag == 9 - 2 - 2 * 2
    game.place([(1, 0, "orange", "circle"), (1, 1, "orange", "crisscross")])
    game.place([(2, 0, "yellow", "circle"), (2, 1, "yellow", "crisscross")])
    assert game.bag == 0 and game.hands == [1, 2, 0]
    game.place([(0, 2, "red", "diamond")])                               # Bob

    last = game.place([(1, 2, "orange", "diamond")])    # Ann's last tile

    assert last.player == 0 and last.end_bonus == engine.END_BONUS
    assert game.final is not None and game.final.reason == "hand_emptied"
    assert game.final.excluded == (2,)


def test_s7_5_a_leave_once_the_bag_is_empty_fills_it_so_passing_stops() -> None:
    game = engine.Game(TINY, players=3)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "crisscross")])      # Ann
    game.place([(1, 0, "orange", "circle")])                                # Bob
    game.place([(2, 0, "yellow", "circle")])                                # Cy
    game.pass_turn()                                                        # Ann
    game.pass_turn()                                                        # Bob
    assert game.bag == 0 and game.hands == [2, 2, 1]

    game.leave(2)                    # in Cy's turn: Cy's tile goes back

    assert not game.is_over() and game.current_player == 0
    assert game.bag == 1 and not game.can_pass() and game.max_trade() == 1


def test_s7_5_undo_of_a_leave_gives_back_the_game_as_it_stood() -> None:
    game = opened()
    before = snapshot(game)
    game.leave(1)

    game.pop()

    assert snapshot(game) == before


def test_s7_5_undo_of_the_leave_that_ended_the_game_reopens_it() -> None:
    game = opened()
    game.leave(1)
    before = snapshot(game)
    game.leave(2)
    assert game.is_over()

    game.pop()

    assert snapshot(game) == before and not game.is_over()


@pytest.mark.parametrize(
    ("seat", "error", "code"),
    [(3, engine.BadInput, None), (-1, engine.BadInput, None),
     (True, engine.BadInput, None), ("1", engine.BadInput, None),
     (None, engine.BadInput, None), (2, engine.IllegalMove, "not_in_play")],
)
def test_s7_5_a_leave_of_no_seat_in_play_is_refused_and_changes_nothing(
    seat: object, error: type[Exception], code: str | None
) -> None:
    game = opened()
    game.leave(2)
    before = snapshot(game)

    with pytest.raises(error) as caught:
        game.push({"type": "leave", "player": seat})

    assert getattr(caught.value, "code", None) == code
    assert snapshot(game) == before


def test_s7_5_nobody_leaves_a_finished_game() -> None:
    game = opened()
    game.leave(1)
    game.leave(2)

    with pytest.raises(engine.IllegalMove) as caught:
        game.leave(0)

    assert caught.value.code == "game_over"


def test_s7_5_a_record_keeps_the_leave_and_replays_it() -> None:
    game = opened()
    game.leave(2)
    game.place([(1, 0, "blue", "circle")])
    record = engine.to_record(game, ["Ann", "Bob", "Cy"])

    assert record["moves"][1] == {"player": 2, "type": "leave"}
    again, names = engine.from_record(record)
    assert snapshot(again) == snapshot(game)
    assert engine.to_record(again, names) == record


def test_s7_5_a_leave_before_the_first_move_keeps_the_starter_in_the_record(
) -> None:
    game = engine.Game(players=3, first_player=1)
    game.leave(1)                    # the starter leaves: Cy opens
    assert game.current_player == 2
    with pytest.raises(engine.IllegalMove) as caught:
        game.trade(1)                # still the opening turn: no trade
    assert caught.value.code == "first_move_trade"

    record = engine.to_record(game, ["Ann", "Bob", "Cy"])
    again, _ = engine.from_record(record)

    assert record["first_player"] == 1
    assert snapshot(again) == snapshot(game)


# --- against a real table (test_bot_games's), players leaving at random ---


def play_with_leaves(
    variant: engine.Variant, players: int, seed: int
) -> tuple[engine.Game, list[tuple], set[int], str]:
    """Play a seeded bot game in which, now and then, a random player in play
    leaves; check the engine against the table's real tiles after every move.
    Return the game, the engine's state after each move, the leavers and the
    table's end."""
    table = Table(variant, players, seed)
    rng = table.rng
    game = engine.Game(variant, players=players)
    out: set[int] = set()
    seat = 0

    def after(s: int) -> int:
        s = (s + 1) % players
        while s in out:
            s = (s + 1) % players
        return s

    states = [bot_snapshot(game) + (game.excluded,)]
    for turn in range(2000):
        if table.final is not None:
            break
        in_play = [s for s in range(players) if s not in out]
        if turn and rng.random() < 0.06:
            leaver = rng.choice(in_play)
            game.leave(leaver)
            table.bag.extend(table.hands[leaver])
            table.hands[leaver] = []
            out.add(leaver)
            table.passes = 0
            if len(in_play) == 2:
                table.final = ("left", None)
            if seat == leaver:
                seat = after(seat)
        else:
            hand = table.hands[seat]
            move = choose(game.board, hand, rng, greedy=False)
            if move is not None:
                played = game.place(move)
                for _, _, color, shape in move:
                    hand.remove((color, shape))
                table.scores[seat] += played.score
                # A hand left short once the bag ran out refills after a leave.
                table.draw(hand, variant.hand_size - len(hand))
                table.passes = 0
                if not hand and not table.bag:
                    table.scores[seat] += engine.END_BONUS
                    table.final = ("hand_emptied", seat)
                elif not anything_fits(game.board, table.unplayed()):
                    table.final = ("stalled", None)
            elif table.bag:
                count = rng.randint(1, min(len(hand), len(table.bag)))
                traded = [hand.pop(rng.randrange(len(hand))) for _ in range(count)]
                table.draw(hand, count)
                table.bag.extend(traded)
                game.trade(count)
                table.passes = 0
            else:
                game.pass_turn()
                table.passes += 1
                if table.passes == len(in_play):
                    table.final = ("all_passed", None)
            seat = after(seat)
        rng.shuffle(table.bag)

        assert game.bag == len(table.bag), turn
        assert game.hands == [len(h) for h in table.hands], turn
        assert game.scores == table.scores, turn
        assert game.excluded == game.left == out, turn
        if table.final is None:
            assert game.final is None and game.current_player == seat, turn
        else:
            assert game.final is not None, turn
            assert (game.final.reason.value, game.final.end_bonus_player) == (
                table.final)
        states.append(bot_snapshot(game) + (game.excluded,))
    return game, states, out, table.final[0]


@pytest.mark.parametrize(
    ("variant", "players", "seed", "end"),
    [(engine.Variant(), 4, 1, "hand_emptied"), (engine.Variant(), 3, 2, "left"),
     (engine.Variant(colors=4, copies=2, hand_size=3), 3, 1, "hand_emptied"),
     (engine.Variant(colors=5, copies=1, hand_size=4), 4, 10, "left"),
     (engine.Variant(colors=3, copies=2, hand_size=2), 3, 113, "stalled")],
)
def test_s7_5_leaves_at_random_agree_with_a_real_table_undo_and_the_record(
    variant: engine.Variant, players: int, seed: int, end: str
) -> None:
    game, states, out, ended = play_with_leaves(variant, players, seed)
    assert out and ended == end, "another seed: a leave and each end are wanted"

    names = [f"P{i}" for i in range(players)]
    record = engine.to_record(game, names)
    again, _ = engine.from_record(record)
    assert engine.to_record(again, names) == record

    for expected in reversed(states[:-1]):
        game.pop()
        assert bot_snapshot(game) + (game.excluded,) == expected
