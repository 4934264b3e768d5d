"""The synthetic photos are fixed by their seeds, from real corpus positions."""

from __future__ import annotations

import random
from dataclasses import replace

from scorekeeper import engine
from scorekeeper.photo import read_move

from . import synth, synth_alt
from .helpers import BOARD, MOVE, PLAIN


def test_the_benchmark_cases_are_fixed_by_their_seed() -> None:
    assert synth.cases(11, 5) == synth.cases(11, 5)
    assert synth.cases(11, 5) != synth.cases(12, 5)


def test_each_case_is_the_next_move_on_a_real_corpus_position() -> None:
    games = dict(synth.positions())
    for case in synth.cases(13, 8):
        name, k = case.name.split("#")
        board = engine.Board()
        for move in games[name][: int(k) - 1]:
            board.play(move)
        assert sorted(board.tiles()) == sorted(case.stored)
        board.check(case.move)  # raises IllegalMove for a move the rules refuse


def test_a_photo_is_the_same_bytes_for_the_same_seed() -> None:
    shot = replace(PLAIN, tile_px=32)
    assert synth.photo(synth.Case("x", BOARD, MOVE, shot, 5)) == \
        synth.photo(synth.Case("x", BOARD, MOVE, shot, 5))


def test_the_second_renderer_draws_a_board_the_reader_can_read() -> None:
    case = synth.Case("held-out", BOARD, MOVE, replace(PLAIN, tile_px=48, angle=25), 3)
    reading = read_move(synth.photo(case, synth_alt.render), list(BOARD))
    assert sorted(t[:4] for t in reading.tiles) == sorted(MOVE)


def _pixels(case: synth.Case) -> int:
    cells = [(r, c) for r, c, _, _ in case.stored + case.move]
    w, h = synth.camera(cells, case.shot, random.Random(case.seed))[1]
    return w * h


def test_a_guess_through_a_lamp_off_the_moves_line_does_not_refuse_the_move(
) -> None:
    # Renders of the benchmark's own set (`bench_photo.SETS`) with a glare
    # spot, the three smallest: the spot may light an empty cell beside the
    # board enough to read a tile through the lamp's wash (what keeps its
    # colour on grey), off the line of the move's tiles, and make the move
    # "not one line". Such a guess gives way to the tiles read plainly.
    lit = [case for case in synth.cases(2026, 60)
           if case.shot.glare >= 0.1 and case.stored]
    for case in sorted(lit, key=_pixels)[:3]:
        reading = read_move(synth.photo(case, synth.render), list(case.stored))
        assert sorted(t[:4] for t in reading.tiles) == sorted(case.move), case.name
