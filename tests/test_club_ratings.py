"""The ratings' update (store.ratings.rate_owned) against openskill's own
PlackettLuce.rate(), on random games: ties, exclusions, 2 to 8 players."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from scorekeeper import engine
from scorekeeper.store.ratings import rate_owned


def test_the_update_gives_the_floats_openskill_rate_gives() -> None:
    model = PlackettLuce()
    rng = random.Random(23)
    public = {i: model.rating() for i in range(40)}
    ours = {i: model.rating() for i in range(40)}
    for _ in range(5000):
        players = rng.sample(range(40), rng.choice([2, 2, 3, 4, 4, 8]))
        scores = [rng.randint(0, 6) for _ in players]  # small: many ties
        excluded = [seat for seat in range(len(players)) if rng.random() < 0.1]
        ranks = engine.rating_ranks(scores, excluded)
        rated = model.rate([[public[p]] for p in players],
                           ranks=[float(r) for r in ranks])
        for p, [rating] in zip(players, rated, strict=True):
            public[p] = rating
        for p, rating in zip(
            players, rate_owned([ours[p] for p in players], ranks), strict=True
        ):
            ours[p] = rating
        for p in players:
            assert (ours[p].mu, ours[p].sigma) == (public[p].mu, public[p].sigma)
