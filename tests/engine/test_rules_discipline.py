"""Table discipline (RULES §7 "Configurable sets (ahoi, 003)" and "Table
discipline as this scorekeeper applies it"; CONTRACT §10): the options, the
penalty move and what an exclusion does to turns, the bag, hands and the end."""

from __future__ import annotations

import json
import random

import pytest

from scorekeeper import engine

from .helpers import full_set, load, random_legal_move

TINY = engine.Variant(colors=3, copies=1, hand_size=2)
"""9 tiles, hands of 2: with three players the bag holds 3 at the start."""

LOSE = engine.Options(on_illegal="lose_turn", on_timeout="lose_turn")
DEDUCT = engine.Options(on_illegal="deduct", on_timeout="deduct", penalty_points=7)
EXCLUDE = engine.Options(on_illegal="exclude", on_timeout="exclude")


def snapshot(game: engine.Game) -> tuple:
    """Everything a player can see of a game."""
    return (
        list(game.board.tiles()), game.bag, game.hands, game.scores,
        game.current_player, game.excluded, game.final, game.status, game.turn,
        game.qwirkles, game.can_pass(), game.max_trade(),
    )


def tiny(options: engine.Options, players: int = 3) -> engine.Game:
    return engine.Game(TINY, players=players, options=options)


# --- the options ---


def test_s7_the_default_table_has_no_clock_and_no_penalty() -> None:
    options = engine.Options()

    assert options.to_dict() == {
        "move_seconds": None, "on_illegal": "retry", "on_timeout": "none",
        "penalty_points": 5,
    }
    assert options.is_default
    assert options.penalties == ()
    assert engine.Options.from_dict(None) == options
    assert engine.Game().options == options


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"move_seconds": 9}, "options_move_seconds"),
        ({"move_seconds": 3601}, "options_move_seconds"),
        ({"move_seconds": 30.0}, "options_move_seconds"),
        ({"move_seconds": "30"}, "options_move_seconds"),
        ({"move_seconds": True}, "options_move_seconds"),
        ({"on_illegal": "none"}, "options_choice"),
        ({"on_illegal": "exclusion"}, "options_choice"),
        ({"on_illegal": None}, "options_choice"),
        ({"on_illegal": ["retry"]}, "options_choice"),
        ({"on_timeout": "retry"}, "options_choice"),
        ({"on_timeout": "Deduct"}, "options_choice"),
        ({"penalty_points": 0}, "options_penalty_points"),
        ({"penalty_points": 101}, "options_penalty_points"),
        ({"penalty_points": None}, "options_penalty_points"),
        ({"penalty_points": False}, "options_penalty_points"),
        ({"penalty_points": 5.5}, "options_penalty_points"),
        ({"move_second": 30}, "options_unknown"),
        ([], "options_not_object"),
        ("retry", "options_not_object"),
    ],
)
def test_s7_options_outside_the_contract_are_refused(data: object, key: str) -> None:
    with pytest.raises(engine.BadInput) as caught:
        engine.Options.from_dict(data)

    assert caught.value.key == key
    assert isinstance(caught.value, ValueError)
    assert str(caught.value)


@pytest.mark.parametrize(
    "data",
    [
        {"move_seconds": 10}, {"move_seconds": 3600}, {"move_seconds": None},
        {"on_illegal": "lose_turn", "on_timeout": "exclude"},
        {"on_illegal": "deduct", "penalty_points": 1},
        {"on_timeout": "deduct", "penalty_points": 100},
        {},
    ],
)
def test_s7_options_inside_the_contract_round_trip(data: dict) -> None:
    options = engine.Options.from_dict(data)

    assert engine.Options.from_dict(options.to_dict()) == options
    assert {k: options.to_dict()[k] for k in data} == data


def test_s7_a_table_penalises_only_what_it_chose() -> None:
    assert engine.Options(on_illegal="deduct").penalties == ("illegal",)
    assert engine.Options(on_timeout="exclude").penalties == ("timeout",)
    assert LOSE.penalties == ("illegal", "timeout")


# --- the penalty move ---


@pytest.mark.parametrize("reason", ["illegal", "timeout"])
def test_s7_a_lost_turn_passes_the_turn_and_changes_nothing_else(reason: str) -> None:
    game = engine.Game(options=LOSE, players=3)
    game.place([(0, 0, "red", "circle")])
    before = snapshot(game)

    move = game.penalty(reason)

    assert (move.player, move.type, move.reason, move.consequence, move.score) == (
        1, "penalty", reason, "lose_turn", 0
    )
    assert game.current_player == 2
    assert (game.scores, game.hands, game.bag) == (before[3], before[2], before[1])
    assert game.excluded == frozenset()


@pytest.mark.parametrize("reason", ["illegal", "timeout"])
def test_s7_a_deduction_takes_the_points_off_and_may_go_below_zero(
    reason: str,
) -> None:
    game = engine.Game(options=DEDUCT)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])  # Ann 2

    first = game.penalty(reason)   # Bob 0 - 7
    game.penalty(reason)           # Ann 2 - 7

    assert first.score == -7 and first.points == -7
    assert game.scores == [-5, -7]
    assert game.current_player == 1
    assert game.turn == 3


@pytest.mark.parametrize("reason", ["illegal", "timeout"])
def test_s7_an_excluded_players_hand_goes_back_into_the_bag_and_their_seat_is_skipped(
    reason: str,
) -> None:
    game = engine.Game(options=EXCLUDE, players=3)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    bag = game.bag

    move = game.penalty(reason)

    assert move.excludes
    assert game.excluded == frozenset({1})
    assert game.hands == [6, 0, 6]
    assert game.bag == bag + 6
    assert game.current_player == 2
    game.place([(1, 0, "blue", "circle")])
    assert game.current_player == 0
    game.place([(2, 0, "green", "circle")])
    assert game.current_player == 2  # seat 1 is skipped from now on


@pytest.mark.parametrize("reason", ["illegal", "timeout"])
@pytest.mark.parametrize(
    "options",
    [engine.Options(), engine.Options(on_illegal="retry", on_timeout="none",
                                      move_seconds=30)],
)
def test_s7_retry_and_none_record_no_penalty(
    reason: str, options: engine.Options
) -> None:
    game = engine.Game(options=options)
    game.place([(0, 0, "red", "circle")])
    before = snapshot(game)

    with pytest.raises(engine.IllegalMove) as caught:
        game.penalty(reason)

    assert caught.value.code == "no_penalty"
    assert snapshot(game) == before


def test_s7_only_the_reason_the_table_penalises_is_recorded() -> None:
    game = engine.Game(options=engine.Options(on_illegal="deduct"))

    game.penalty("illegal")
    with pytest.raises(engine.IllegalMove) as caught:
        game.penalty("timeout")

    assert caught.value.code == "no_penalty"
    assert "running out of thinking time" in str(caught.value)


@pytest.mark.parametrize("reason", [None, "", "late", 1, "ILLEGAL"])
def test_s7_a_penalty_needs_a_known_reason(reason: object) -> None:
    game = engine.Game(options=LOSE)

    with pytest.raises(engine.BadInput):
        game.push({"type": "penalty", "reason": reason})

    assert game.turn == 0


def test_s7_no_penalty_after_the_end() -> None:
    game = engine.Game(options=EXCLUDE)
    game.penalty("illegal")  # Bob is left alone: the game is over

    with pytest.raises(engine.IllegalMove) as caught:
        game.penalty("timeout")

    assert caught.value.code == "game_over"


def test_s7_a_penalty_on_the_first_turn_leaves_the_first_move_to_the_next_player(
) -> None:
    game = engine.Game(options=LOSE)
    game.penalty("illegal")

    with pytest.raises(engine.IllegalMove) as caught:
        game.trade(1)
    assert caught.value.code == "first_move_trade"
    assert game.max_trade() == 0
    game.place([(0, 0, "red", "circle")])
    assert game.moves[-1].player == 1


# --- exclusion and the rest of the rules ---


def test_s7_when_one_player_is_left_in_play_the_game_ends_excluded_with_no_bonus(
) -> None:
    game = engine.Game(options=EXCLUDE, players=3)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])  # Ann 2
    game.penalty("timeout")                                          # Bob out
    game.penalty("illegal")                                          # Cy out

    final = game.final
    assert final is not None
    assert final.reason == "excluded"
    assert final.end_bonus_player is None
    assert final.scores == (2, 0, 0)
    assert final.excluded == (1, 2)
    assert final.winners == (0,)
    assert [s.seat for s in final.ranking()] == [0]
    assert final.to_dict() == {
        "scores": [2, 0, 0], "end_bonus_player": None, "reason": "excluded"
    }


def test_s7_an_excluded_player_is_not_ranked_even_with_the_highest_score() -> None:
    game = engine.Game(options=EXCLUDE)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])  # Ann 2
    game.place([(1, 0, "red", "diamond")])                           # Bob 2
    game.place([(2, 0, "red", "clover")])                            # Ann 3
    game.penalty("illegal")                                          # Bob out

    assert game.scores == [5, 2]
    assert game.final is not None and game.final.winners == (0,)
    other = engine.Game(options=EXCLUDE)
    other.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])  # Ann 2
    other.penalty("illegal")                                          # Bob out
    assert other.final is not None and other.final.winners == (0,)
    assert [(s.rank, s.seat, s.score) for s in other.final.ranking()] == [(1, 0, 2)]


def test_s7_the_bag_counts_only_the_hands_still_in_play() -> None:
    game = engine.Game(options=EXCLUDE, players=4)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    game.penalty("illegal")
    game.place([(1, 0, "blue", "circle")])

    in_play = len(game.in_play())
    assert in_play == 3
    assert game.bag == max(0, 108 - len(game.board) - 6 * in_play)
    assert game.bag + len(game.board) + sum(game.hands) == 108


def test_s7_an_exclusion_after_the_bag_ran_out_refills_it_and_short_hands_draw_up(
) -> None:
    game = tiny(EXCLUDE)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "crisscross")])  # bag 1
    game.place([(1, 0, "orange", "circle"), (1, 1, "orange", "crisscross")])
    assert (game.hands, game.bag) == ([2, 1, 2], 0)
    assert game.can_pass()

    game.penalty("illegal")  # Cy's two tiles go back into the bag

    assert (game.hands, game.bag) == ([2, 1, 0], 2)
    assert not game.can_pass()
    assert game.max_trade() == 2
    game.place([(2, 0, "yellow", "circle")])       # Ann: 1 left, draws 1
    assert (game.hands, game.bag) == ([2, 1, 0], 1)
    game.place([(2, 1, "yellow", "crisscross")])   # Bob: 0 left, draws 1
    assert (game.hands, game.bag) == ([2, 1, 0], 0)
    assert game.bag + len(game.board) + sum(game.hands) == TINY.total_tiles
    assert not game.is_over()


def test_s7_a_preview_counts_the_tiles_an_exclusion_put_back() -> None:
    game = tiny(EXCLUDE)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "crisscross")])
    game.place([(1, 0, "orange", "circle"), (1, 1, "orange", "crisscross")])
    game.place([(2, 0, "yellow", "circle")])
    last_tile = [(2, 1, "yellow", "crisscross")]
    # Without the exclusion Bob's last tile would end the game with the bonus:
    lost = tiny(LOSE)
    for move in game.moves:
        lost.push(move.to_dict())
    lost.penalty("illegal")
    assert lost.preview(last_tile).ends_game

    game.penalty("illegal")   # Ann out: her two tiles go back into the bag
    before = snapshot(game)
    result = game.preview(last_tile)

    assert (result.ends_game, result.end_bonus) == (False, 0)
    assert snapshot(game) == before
    game.place(last_tile)
    assert game.hands == [0, 2, 1] and game.bag == 0


def test_s7_all_passed_counts_only_the_players_in_play() -> None:
    game = tiny(EXCLUDE)
    game.penalty("illegal")                                                # Ann out
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "crisscross")])     # Bob
    game.place([(1, 0, "orange", "circle"), (1, 1, "orange", "crisscross")])
    game.place([(2, 0, "yellow", "circle")])                               # Bob
    assert game.bag == 0

    game.pass_turn()   # Cy
    game.pass_turn()   # Bob: both players in play passed in turn

    assert game.final is not None
    assert game.final.reason == "all_passed"
    assert game.final.excluded == (0,)


def test_s7_a_penalty_is_not_a_pass_so_the_passes_count_again() -> None:
    options = engine.Options(on_illegal="lose_turn")
    game = engine.Game(TINY, players=2, options=options)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "crisscross")])
    game.place([(1, 0, "orange", "circle"), (1, 1, "orange", "crisscross")])
    game.place([(2, 0, "yellow", "circle")])
    assert game.bag == 0

    game.pass_turn()           # Bob
    game.penalty("illegal")    # Ann
    game.pass_turn()           # Bob
    assert not game.is_over()
    game.pass_turn()           # Ann

    assert game.final is not None and game.final.reason == "all_passed"


def test_s6_s7_the_end_bonus_still_goes_to_a_player_in_play_who_empties_the_hand(
) -> None:
    game = tiny(EXCLUDE)
    game.penalty("timeout")                                                # Ann out
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "crisscross")])     # Bob 2
    game.place([(1, 0, "orange", "circle"), (1, 1, "orange", "crisscross")])
    game.place([(2, 0, "yellow", "circle")])                               # Bob 3+?
    game.place([(2, 1, "yellow", "crisscross"), (2, 2, "yellow", "diamond")])

    final = game.final
    assert final is not None
    assert (final.reason, final.end_bonus_player) == ("hand_emptied", 2)
    assert game.moves[-1].end_bonus == engine.END_BONUS
    assert final.excluded == (0,)
    assert 0 not in final.winners


def test_s6_s7_a_game_can_still_stall_after_an_exclusion() -> None:
    # The corpus's stalled two-player game, played by seats 1 and 2 of three
    # after seat 0 was excluded: the same bag, hands and board, the same end.
    source = load("stalled-n3-c2-h2-20048.json")
    variant = engine.Variant.from_dict(source["variant"])
    game = engine.Game(variant, players=3, options=EXCLUDE)
    game.penalty("illegal")

    for move in source["moves"]:
        game.push(move)

    final = game.final
    assert final is not None
    assert final.reason == "stalled"
    assert final.scores == (0, *source["final"]["scores"])
    assert final.excluded == (0,)
    assert final.winners == (2,)


def test_s7_undo_of_a_penalty_restores_everything() -> None:
    for options in (LOSE, DEDUCT, EXCLUDE):
        game = engine.Game(options=options, players=3)
        game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
        before = snapshot(game)

        game.penalty("illegal")
        game.pop()

        assert snapshot(game) == before, options


def test_s7_undo_of_the_exclusion_that_ended_the_game_reopens_it() -> None:
    game = engine.Game(options=EXCLUDE)
    game.place([(0, 0, "red", "circle")])
    before = snapshot(game)
    game.penalty("illegal")
    assert game.is_over()

    undone = game.pop()

    assert undone.excludes
    assert snapshot(game) == before
    assert game.status == "active"
    game.place([(0, 1, "red", "square")])  # Bob plays on
    assert game.moves[-1].player == 1


def test_s7_at_a_step_shows_who_was_out_and_who_was_to_play() -> None:
    game = engine.Game(options=EXCLUDE, players=3)
    game.place([(0, 0, "red", "circle")])
    game.penalty("illegal")                  # Bob out
    game.place([(1, 0, "blue", "circle")])   # Cy
    game.place([(2, 0, "green", "circle")])  # Ann

    before, after, now = game.at(1), game.at(2), game.at(4)

    assert (before.excluded, before.current_player) == (frozenset(), 1)
    assert (after.excluded, after.current_player) == (frozenset({1}), 2)
    assert (now.excluded, now.current_player) == (frozenset({1}), 2)
    assert after.hands == (6, 0, 6)
    assert after.bag == game.at(1).bag + 6


def test_s7_qwirkle_cubes_take_penalties_and_exclusions_too() -> None:
    game = engine.Game(engine.CUBES, players=3, options=EXCLUDE)
    game.penalty("timeout")   # Ann out before the first move

    assert game.bag == 90 - 12
    with pytest.raises(engine.IllegalMove) as caught:
        game.place([(0, 0, "red", "circle")])
    assert caught.value.code == "first_move_too_small"
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")])
    assert game.moves[-1].player == 1
    game.penalty("illegal")   # Cy out: Bob is left

    assert game.final is not None
    assert (game.final.reason, game.final.winners) == ("excluded", (1,))


def test_the_rounds_of_a_game_skip_excluded_seats() -> None:
    game = engine.Game(options=EXCLUDE, players=3)
    game.place([(0, 0, "red", "circle")])    # round 1: Ann
    game.penalty("illegal")                  # Bob out
    game.place([(1, 0, "blue", "circle")])   # Cy
    game.place([(2, 0, "green", "circle")])  # round 2: Ann
    game.place([(3, 0, "yellow", "circle")])  # Cy
    game.place([(4, 0, "purple", "circle")])  # round 3: Ann

    assert engine.move_rounds(m.mover for m in game.moves) == [1, 1, 1, 2, 2, 3]
    plain = engine.Game(players=3)
    for row in range(7):
        plain.place([(row, 0, engine.COLOR_NAMES[row % 6], "circle")] if row < 6
                    else [(0, 1, "red", "square")])
    assert engine.move_rounds(m.mover for m in plain.moves) == [
        1, 1, 1, 2, 2, 2, 3]


# --- thinking time ---


def test_s7_a_move_may_carry_its_thinking_time() -> None:
    game = engine.Game()
    game.push({"type": "place", "tiles": [
        {"row": 0, "col": 0, "color": "red", "shape": "circle"}], "seconds": 12})
    game.push({"type": "trade", "count": 2, "seconds": 0})
    game.place([(0, 1, "red", "square")])

    assert [m.seconds for m in game.moves] == [12, 0, None]
    assert game.moves[0].to_dict()["seconds"] == 12
    assert "seconds" not in game.moves[2].to_dict()


@pytest.mark.parametrize("seconds", [-1, 1.5, "12", True, None, 86_401])
def test_s7_thinking_time_is_whole_seconds_within_a_day(seconds: object) -> None:
    game = engine.Game()
    move = {"type": "place", "tiles": [
        {"row": 0, "col": 0, "color": "red", "shape": "circle"}], "seconds": seconds}

    if seconds is None:
        game.push(move)
        assert game.moves[0].seconds is None
        return
    with pytest.raises(engine.BadInput) as caught:
        game.push(move)
    assert caught.value.key == "move_seconds"
    assert game.turn == 0


def test_s7_a_penalty_carries_no_thinking_time() -> None:
    game = engine.Game(options=LOSE)

    with pytest.raises(engine.BadInput) as caught:
        game.push({"type": "penalty", "reason": "timeout", "seconds": 40})

    assert caught.value.key == "penalty_seconds"


# --- records ---


def disciplined_game() -> tuple[engine.Game, list[str]]:
    options = engine.Options(
        move_seconds=45, on_illegal="deduct", on_timeout="exclude", penalty_points=3
    )
    game = engine.Game(players=3, options=options)
    game.place([(0, 0, "red", "circle"), (0, 1, "red", "square")], seconds=20)
    game.penalty("illegal")                                  # Bob -3
    game.trade(2, seconds=31)                                # Cy
    game.penalty("timeout")                                  # Ann out
    game.place([(1, 0, "blue", "circle")], seconds=9)        # Bob
    return game, ["Ann", "Bob", "Cy"]


def test_s7_a_record_keeps_options_penalties_and_thinking_times() -> None:
    game, names = disciplined_game()

    record = engine.to_record(game, names)

    assert record["options"] == {
        "move_seconds": 45, "on_illegal": "deduct", "on_timeout": "exclude",
        "penalty_points": 3,
    }
    assert list(record) == ["format", "variant", "players", "options", "moves",
                            "final"]
    assert record["moves"][1] == {"player": 1, "type": "penalty", "reason": "illegal"}
    assert record["moves"][3] == {"player": 0, "type": "penalty", "reason": "timeout"}
    assert record["moves"][2] == {"player": 2, "type": "trade", "count": 2,
                                  "seconds": 31}
    assert record["moves"][4]["seconds"] == 9


def test_s7_a_record_with_discipline_round_trips_byte_for_byte() -> None:
    game, names = disciplined_game()
    text = engine.dumps_record(engine.to_record(game, names))

    again, again_names = engine.from_record(json.loads(text))

    assert engine.dumps_record(engine.to_record(again, again_names)) == text
    assert again.options == game.options
    assert again.scores == game.scores == [2, -1, 0]
    assert again.excluded == frozenset({0})
    assert again.current_player == 2


def test_s7_a_record_without_discipline_has_no_options_key() -> None:
    game = engine.Game()
    game.place([(0, 0, "red", "circle")])

    assert "options" not in engine.to_record(game, ["Ann", "Bob"])


def test_s7_a_record_with_a_penalty_its_table_does_not_give_is_refused() -> None:
    game, names = disciplined_game()
    record = engine.to_record(game, names)
    del record["options"]

    with pytest.raises(engine.RecordError) as caught:
        engine.from_record(record)

    assert (caught.value.code, caught.value.move_number) == ("no_penalty", 2)


@pytest.mark.parametrize(
    "options", [{"penalty_points": 0}, {"on_timeout": "retry"}, "strict", {"x": 1}]
)
def test_s7_a_record_with_bad_options_is_refused(options: object) -> None:
    game, names = disciplined_game()
    record = dict(engine.to_record(game, names), options=options)

    with pytest.raises(engine.RecordError) as caught:
        engine.from_record(record)

    assert caught.value.code == "bad_record"
    assert "options" in str(caught.value)


def test_s7_a_recorded_deduction_with_a_score_is_checked() -> None:
    game, names = disciplined_game()
    record = engine.to_record(game, names)
    record["moves"][1] = dict(record["moves"][1], score=-3)
    engine.from_record(record)

    record["moves"][1]["score"] = -5
    with pytest.raises(engine.RecordError) as caught:
        engine.from_record(record)
    assert (caught.value.code, caught.value.move_number) == ("score_mismatch", 2)


# --- a bot table with penalties, checked against its own tiles ---


class Table:
    """A real table with penalties: the test's own bag and hands, independent of
    the engine's counts."""

    def __init__(
        self, variant: engine.Variant, players: int, options: engine.Options,
        seed: int,
    ) -> None:
        self.rng = random.Random(seed)
        self.variant, self.options = variant, options
        self.bag = full_set(variant)
        self.rng.shuffle(self.bag)
        self.hands = [[self.bag.pop() for _ in range(variant.hand_size)]
                      for _ in range(players)]
        self.scores = [0] * players
        self.out: set[int] = set()
        self.game = engine.Game(variant, players, options=options)

    def next_seat(self, seat: int) -> int:
        seat = (seat + 1) % len(self.hands)
        while seat in self.out:
            seat = (seat + 1) % len(self.hands)
        return seat

    def turn(self) -> None:
        game, rng = self.game, self.rng
        seat = game.current_player
        hand = self.hands[seat]
        reasons = self.options.penalties
        if reasons and rng.random() < 0.15:
            reason = rng.choice(reasons)
            consequence = self.options.consequence(reason)
            game.push({"type": "penalty", "reason": reason})
            if consequence == "deduct":
                self.scores[seat] -= self.options.penalty_points
            elif consequence == "exclude":
                self.bag.extend(hand)
                self.rng.shuffle(self.bag)
                hand.clear()
                self.out.add(seat)
            return
        seconds = rng.randint(0, 120)
        move = random_legal_move(game.board, hand, rng)
        if move is not None:
            played = game.place(move, seconds=seconds)
            for _r, _c, color, shape in move:
                hand.remove((color, shape))
            while len(hand) < self.variant.hand_size and self.bag:
                hand.append(self.bag.pop())
            self.scores[seat] += played.points
        elif self.bag and game.board:
            count = min(len(hand), len(self.bag))
            game.trade(count, seconds=seconds)
            returned = [hand.pop() for _ in range(count)]
            hand.extend(self.bag.pop() for _ in range(count))
            self.bag.extend(returned)
            self.rng.shuffle(self.bag)
        else:
            game.pass_turn(seconds=seconds)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_s7_a_bot_game_with_random_penalties_keeps_its_tiles_and_replays(
    seed: int,
) -> None:
    rng = random.Random(seed)
    options = engine.Options(
        move_seconds=rng.choice([None, 30]),
        on_illegal=rng.choice(["lose_turn", "deduct", "exclude"]),
        on_timeout=rng.choice(["none", "lose_turn", "deduct", "exclude"]),
        penalty_points=rng.randint(1, 10),
    )
    variant = engine.Variant(colors=4, copies=2, hand_size=4)
    table = Table(variant, players=4, options=options, seed=seed)
    game = table.game

    while not game.is_over() and game.turn < 400:
        expected_seat = game.current_player
        table.turn()
        assert game.moves[-1].player == expected_seat
        assert game.excluded == frozenset(table.out)
        assert game.bag == len(table.bag)
        assert game.hands == [len(hand) for hand in table.hands]
        assert game.scores == table.scores
        if not game.is_over():
            assert game.current_player == table.next_seat(expected_seat)

    assert game.is_over()
    final = game.final
    assert final is not None
    if final.reason == "excluded":
        assert len(game.in_play()) == 1
    assert set(final.winners).isdisjoint(table.out)
    record = engine.to_record(game, [f"P{i}" for i in range(4)])
    text = engine.dumps_record(record)
    again, names = engine.from_record(json.loads(text))
    assert engine.dumps_record(engine.to_record(again, names)) == text
    assert again.scores == game.scores and again.final == final


def test_s7_the_analysis_of_a_game_skips_its_penalties() -> None:
    game, _names = disciplined_game()

    analysis = engine.analyse_game(game)

    assert [m.number for m in analysis.moves] == [1, 5]
    assert all(m.best_same_tiles >= m.score for m in analysis.moves)
