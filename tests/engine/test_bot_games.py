"""Seeded full games by a simple bot against itself (RULES §5, §6).

The test keeps its own bag and hands of real tiles, independent of the engine's
counts: after every move the engine's bag, hands, scores, turn and end must
agree with the simulation, to the last move; then the record round-trips.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scorekeeper import engine

from . import reference
from .helpers import frontier, full_set, random_legal_move

END_BONUS = 6


class Table:
    """A real table: a shuffled bag, each player's tiles, scores, the end."""

    def __init__(self, variant: engine.Variant, players: int, seed: int) -> None:
        self.variant = variant
        self.rng = random.Random(seed)
        self.bag = full_set(variant)
        self.rng.shuffle(self.bag)
        self.hands = [[self.bag.pop() for _ in range(variant.hand_size)]
                      for _ in range(players)]
        self.scores = [0] * players
        self.passes = 0
        self.final: tuple | None = None  # (reason, bonus player)
        self.states: list[tuple] = []  # the engine's state after each move

    def draw(self, hand: list, count: int) -> None:
        for _ in range(min(count, len(self.bag))):
            hand.append(self.bag.pop())

    def unplayed(self) -> set:
        return set(self.bag) | {t for hand in self.hands for t in hand}


def snapshot(game: engine.Game) -> tuple:
    """The engine's whole visible state."""
    return (list(game.board.tiles()), game.bag, list(game.hands), list(game.scores),
            game.current_player, game.final, game.status, game.unseen())


def anything_fits(board: engine.Board, kinds: set) -> bool:
    """Whether any unplayed tile fits anywhere, decided by the reference rules.

    The engine's legal_cells proposes; the reference implementation confirms
    a "yes" and, for a "no", tries every kind on every cell next to the board.
    """
    variant = board.variant
    tiles = {(r, c): (color, shape) for r, c, color, shape in board.tiles()}

    def fits(cell, kind) -> bool:
        broken, _ = reference.judge(tiles, [(*cell, *kind)], variant.color_names,
                                    variant.shape_names, variant.copies)
        return not broken

    for kind in sorted(kinds):
        cells = board.legal_cells(*kind)
        if cells:
            assert fits(min(cells), kind), (kind, min(cells))
            return True
    for cell in frontier(board):
        for kind in kinds:
            assert not fits(cell, kind), (kind, cell)
    return False


def choose(board: engine.Board, hand: list, rng: random.Random, greedy: bool):
    """The bot's placing move: one of best_moves' answers, or a random legal one."""
    if greedy:
        options = engine.best_moves(board, hand, limit=3)
        return list(rng.choice(options)[1]) if options else None
    return random_legal_move(board, hand, rng)


def play_out(
    variant: engine.Variant, players: int, seed: int, greedy: bool, lazy: bool = False
):
    """Play a whole game, checking the engine against the table after every move.

    A lazy bot sometimes passes once the bag is empty even though it could
    place (the scorekeeper cannot see hands, so that is allowed), which is how
    a table reaches the all-passed end.
    """
    table = Table(variant, players, seed)
    rng = table.rng
    first = rng.randrange(players)
    game = engine.Game(variant, players=players, first_player=first)
    seat = first

    table.states.append(snapshot(game))
    for turn in range(2000):
        if table.final is not None:
            break
        assert game.current_player == seat
        hand = table.hands[seat]
        move = choose(game.board, hand, rng, greedy)
        if lazy and not table.bag and rng.random() < 0.4:
            move = None
        if move is not None:
            played = game.place(move)
            table.passes = 0
            for _, _, color, shape in move:
                hand.remove((color, shape))
            table.scores[seat] += played.score
            table.draw(hand, len(move))
            if not hand and not table.bag:
                table.scores[seat] += END_BONUS
                table.final = ("hand_emptied", seat)
            elif not anything_fits(game.board, table.unplayed()):
                table.final = ("stalled", None)
            assert played.end_bonus == (END_BONUS if table.final and
                                        table.final[0] == "hand_emptied" else 0)
        elif table.bag and turn > 0:
            # Stuck: trade some tiles (never more than the bag holds).
            count = rng.randint(1, min(len(hand), len(table.bag)))
            out = [hand.pop(rng.randrange(len(hand))) for _ in range(count)]
            table.draw(hand, count)
            table.bag.extend(out)
            rng.shuffle(table.bag)
            played = game.trade(count)
            assert (played.type, played.count, played.score) == ("trade", count, 0)
            table.passes = 0
        else:
            played = game.pass_turn()
            table.passes += 1
            if table.passes == players:
                table.final = ("all_passed", None)
        assert played.player == seat
        seat = (seat + 1) % players

        assert game.bag == len(table.bag), turn
        assert game.hands == [len(h) for h in table.hands], turn
        assert game.scores == table.scores, turn
        # The tiles not on the board are exactly those in the bag and the hands.
        unplayed = Counter(table.bag) + Counter(t for h in table.hands for t in h)
        assert {k: n for k, n in game.unseen().items() if n} == dict(unplayed)
        if table.final is None:
            assert game.final is None, (turn, game.final)
            assert game.status == "active"
        else:
            assert game.final is not None, turn
            assert (game.final.reason.value, game.final.end_bonus_player) == table.final
            assert list(game.final.scores) == table.scores
            assert game.status == "finished"
        table.states.append(snapshot(game))
    else:
        raise AssertionError("the game did not end in 2000 turns")
    return game, table


GAMES = [
    (engine.Variant(), 2, 1, True),
    (engine.Variant(), 2, 2, False),
    (engine.Variant(), 3, 3, True),
    (engine.Variant(), 4, 4, False),
    (engine.Variant(colors=5, copies=2, hand_size=5), 2, 5, True),
    (engine.Variant(colors=5, copies=2, hand_size=5), 3, 6, False),
    (engine.Variant(colors=3, copies=2, hand_size=2), 2, 7, False),
    (engine.Variant(colors=3, copies=2, hand_size=2), 3, 8, True),
    (engine.Variant(colors=4, copies=1, hand_size=3), 2, 9, False),
    (engine.Variant(colors=8, copies=1, hand_size=6), 5, 10, True),
    (engine.Variant(colors=7, copies=2, hand_size=7), 2, 11, False),
    (engine.Variant(colors=4, copies=2, hand_size=12), 2, 12, False),
    (engine.Variant(colors=6, copies=1, hand_size=6), 3, 13, False),
]

LAZY_GAMES = [
    (engine.Variant(), 2, 21, True),
    (engine.Variant(colors=4, copies=2, hand_size=3), 3, 22, False),
    (engine.Variant(colors=5, copies=1, hand_size=4), 2, 23, False),
]


@pytest.mark.parametrize(
    "variant, players, seed, greedy", GAMES,
    ids=[f"n{v.colors}-c{v.copies}-h{v.hand_size}-p{p}-s{s}-{'best' if g else 'rnd'}"
         for v, p, s, g in GAMES],
)
def test_bot_game_bookkeeping_agrees_with_a_real_table_to_the_last_move(
    variant, players, seed, greedy
):
    game, table = play_out(variant, players, seed, greedy)

    record = engine.to_record(game, [f"P{i}" for i in range(players)])
    again, names = engine.from_record(record)

    assert names == [f"P{i}" for i in range(players)]
    assert engine.to_record(again, names) == record
    assert again.scores == table.scores
    assert again.final == game.final
    assert record["final"]["reason"] == table.final[0]

    # Undo every move: each pop gives back exactly the state before that move,
    # and no cache goes stale (legal cells as on a freshly replayed board).
    for expected in reversed(table.states[:-1]):
        game.pop()
        assert snapshot(game) == expected
        if len(game.moves) % 7 == 0:
            fresh = engine.Board(variant)
            for move in game.moves:
                if move.type == "place":
                    fresh.play(move.tiles)
            assert game.board.legal_map() == fresh.legal_map()
    assert game.turn == 0


@pytest.mark.parametrize("variant, players, seed, greedy", LAZY_GAMES)
def test_bot_game_with_voluntary_passes_agrees_with_the_table(
    variant, players, seed, greedy
):
    game, table = play_out(variant, players, seed, greedy, lazy=True)

    assert game.final.reason.value == table.final[0]
    record = engine.to_record(game, [f"P{i}" for i in range(players)])
    assert engine.to_record(engine.from_record(record)[0], record["players"]) == record


def test_bot_games_reach_every_kind_of_end():
    reasons: dict[str, int] = {}
    variant = engine.Variant(colors=3, copies=2, hand_size=1)
    for seed in range(400):
        _, table = play_out(variant, 2, seed, greedy=False, lazy=seed % 2 == 1)
        reasons.setdefault(table.final[0], seed)
        if len(reasons) == 3:
            break

    assert set(reasons) == {"hand_emptied", "stalled", "all_passed"}, reasons


def play_out_cubes(variant: engine.Variant, players: int, seed: int):
    """A Qwirkle Cubes game (RULES §7): cubes drawn by colour and rolled; a
    player who cannot place re-rolls all until they can; no trades, no passes."""
    rng = random.Random(seed)
    bag = [color for color in variant.color_names for _ in range(variant.copies)]
    rng.shuffle(bag)
    hands = [[bag.pop() for _ in range(variant.hand_size)] for _ in range(players)]
    scores = [0] * players
    game = engine.Game(variant, players=players)
    seat = 0
    while game.final is None:
        hand = hands[seat]
        for _ in range(500):
            faces = [(color, rng.choice(variant.shape_names)) for color in hand]
            options = engine.best_moves(game.board, faces, limit=5)
            if not game.moves:
                # The first move places at least 2 cubes.
                options = [o for o in options if len(o[1]) >= 2]
            if options:
                break
        else:
            raise AssertionError("no placeable roll in 500 tries")
        _, move = rng.choice(options)
        played = game.place(list(move))
        for _, _, color, _ in move:
            hand.remove(color)
        for _ in range(min(len(move), len(bag))):
            hand.append(bag.pop())
        scores[seat] += played.score
        if not hand and not bag:
            scores[seat] += END_BONUS
            assert game.final is not None
            assert (game.final.reason, game.final.end_bonus_player) == (
                "hand_emptied", seat)
        assert game.bag == len(bag)
        assert game.hands == [len(h) for h in hands]
        assert game.scores == scores
        unplayed = Counter(bag) + Counter(c for h in hands for c in h)
        assert {k[0]: n for k, n in game.unseen().items() if n} == dict(unplayed)
        seat = (seat + 1) % players
    return game


@pytest.mark.parametrize("variant, players, seed", [
    (engine.CUBES, 2, 1),
    (engine.CUBES, 4, 2),
    (engine.Variant(colors=3, copies=4, hand_size=3, system="cubes"), 2, 3),
])
def test_cubes_bot_game_bookkeeping_agrees_with_a_real_table(variant, players, seed):
    game = play_out_cubes(variant, players, seed)

    record = engine.to_record(game, [f"P{i}" for i in range(players)])
    again, names = engine.from_record(record)
    assert engine.to_record(again, names) == record
    assert record["variant"]["name"] == "cubes"
