"""What a device says aloud after a move: built by text.py from the
catalogs, carried in the game page's state (last_move.spoken) and the TV's."""

from __future__ import annotations

from typing import Any

from scorekeeper import engine, i18n, text


def place(*cells: tuple[int, int, str, str]) -> dict[str, Any]:
    return {"type": "place", "tiles": [
        {"row": r, "col": c, "color": color, "shape": shape}
        for r, c, color, shape in cells]}


def test_a_move_is_said_with_its_player_points_and_qwirkles() -> None:
    game = engine.Game(engine.CLASSIC, 2)
    names = ["Anna", "Bob"]
    game.push(place((0, 0, "red", "circle"), (0, 1, "red", "square")))
    assert text.spoken_move(game.moves[-1], names) == "Anna: 2 points."
    game.push({"type": "trade", "count": 3})
    assert text.spoken_move(game.moves[-1], names) == "Bob traded 3 tiles."
    game.push(place(*[(0, c, "red", s) for c, s in enumerate(
        ("crisscross", "diamond", "starburst", "clover"), start=2)]))
    assert text.spoken_move(game.moves[-1], names) == "Anna: 12 points, Qwirkle!"
    with i18n.language("nl"):
        assert text.spoken_move(game.moves[-1], names) == (
            "Anna: 12 punten, Qwirkle!")
    with i18n.language("es"):
        assert text.spoken_move(game.moves[-1], names) == (
            "Anna: 12 puntos, ¡Qwirkle!")


def test_the_end_is_said_with_the_winner_and_every_total() -> None:
    final = engine.Final(scores=(20, 25, 18), end_bonus_player=1,
                         reason=engine.EndReason.HAND_EMPTIED)
    names = ["Anna", "Bob", "Chris"]
    assert text.spoken_end(final, names) == (
        "Game over. The winner is Bob. Totals: Bob 25 points, Anna 20 points,"
        " Chris 18 points.")
    with i18n.language("de"):
        assert text.spoken_end(final, names) == (
            "Das Spiel ist zu Ende. Es gewinnt Bob. Endstand: Bob 25 Punkte,"
            " Anna 20 Punkte, Chris 18 Punkte.")


def test_a_shared_win_names_the_winners_as_a_spoken_list() -> None:
    # Joined as each language says a list aloud: a bare comma sounds clipped.
    final = engine.Final(scores=(25, 25, 18), end_bonus_player=None,
                         reason=engine.EndReason.HAND_EMPTIED)
    names = ["Anna", "Bob", "Chris"]
    said = {}
    for code in ("en", "nl", "fr"):
        with i18n.language(code):
            said[code] = text.spoken_end(final, names)
    assert "The winners are Anna and Bob." in said["en"]
    assert "De winnaars zijn Anna en Bob." in said["nl"]
    assert "Victoire partagée\xa0: Anna et Bob." in said["fr"]


def test_the_game_state_and_the_tv_carry_the_sentence(table: Any) -> None:
    game = table.new(["Anna", "Bob"])
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    assert game.state()["last_move"]["spoken"] == "Anna: 2 points."
    tv = game.client.get(f"/games/{game.id}/tv.json",
                         headers={"Accept-Language": "nl"}).get_json()
    assert (tv["turn"], tv["spoken"]) == (1, "Anna: 2 punten.")


def test_the_speech_switch_is_on_the_game_page_and_the_tv(table: Any) -> None:
    game = table.new(["Anna", "Bob"])
    for url in (f"/games/{game.id}?lang=fr", f"/games/{game.id}/tv?lang=fr"):
        page = game.client.get(url).get_data(as_text=True)
        assert "data-speech " in page and "Annoncer le score à voix haute" in page
        assert "data-voice=\"{&#34;lang&#34;: &#34;fr-FR&#34;" in page
