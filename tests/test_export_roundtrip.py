"""Bot-played games of several variants: record export → import → export is stable."""

from __future__ import annotations

import json
import random

import pytest
from flask.testing import FlaskClient

from scorekeeper import engine


def bot_game(seed: int, variant: engine.Variant, players: int) -> engine.Game:
    """Play a whole game with random legal moves from a simulated bag."""
    rng = random.Random(seed)
    game = engine.Game(variant, players=players, first_player=seed % players)
    bag = [
        (c, s)
        for c in variant.color_names
        for s in variant.shape_names
        for _ in range(variant.copies)
    ]
    rng.shuffle(bag)
    hands = [[bag.pop() for _ in range(variant.hand_size)] for _ in range(players)]
    while not game.is_over() and game.turn < 500:
        hand = hands[game.current_player]
        found = engine.best_moves(game.board, hand, limit=4)
        if found and (game.turn == 0 or not bag or rng.random() < 0.9):
            _points, tiles = rng.choice(found)
            game.place(tiles)
            for _r, _c, color, shape in tiles:
                hand.remove((color, shape))
            while len(hand) < variant.hand_size and bag:
                hand.append(bag.pop())
        elif bag:
            count = rng.randint(1, min(len(bag), len(hand)))
            out = rng.sample(hand, count)
            for tile in out:
                hand.remove(tile)
            hand.extend(bag.pop() for _ in range(count))
            bag.extend(out)
            rng.shuffle(bag)
            game.trade(count)
        else:
            game.pass_turn()
    return game


CASES = [
    (1, engine.Variant(), 2),
    (2, engine.Variant(), 4),
    (3, engine.Variant(colors=5, copies=2, hand_size=5), 3),
    (4, engine.Variant(colors=3, copies=2, hand_size=2), 2),
    (5, engine.Variant(colors=8, copies=1, hand_size=8), 5),
]


@pytest.mark.parametrize(("seed", "variant", "players"), CASES)
def test_bot_game_round_trips_byte_for_byte(
    client: FlaskClient, seed: int, variant: engine.Variant, players: int
) -> None:
    game = bot_game(seed, variant, players)
    names = [f"Bot {i + 1}" for i in range(players)]
    text = engine.dumps_record(engine.to_record(game, names))
    response = client.post(
        "/api/games/import", data=text, content_type="application/json"
    )
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["id"]
    exported = client.get(f"/games/{game_id}/record.json").get_data(as_text=True)
    assert exported == text
    # The replay's last step agrees with the record's totals.
    last = client.get(f"/games/{game_id}/replay").get_data(as_text=True)
    record = json.loads(text)
    totals = (record["final"] or {}).get("scores") or list(game.scores)
    for seat, total in enumerate(totals):
        assert f'data-total="{seat}">{total}<' in last
    # And the backup holds the same record.
    backup = json.loads(client.get("/backup").data)
    entry = {
        k: v
        for k, v in backup["games"][-1].items()
        if k not in ("created_at", "updated_at", "finished_at", "move_times")
    }
    assert entry == record
