"""Player statistics and head-to-head, checked against the corpus records."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Table
from flask.testing import FlaskClient
from test_history_helpers import Node, corpus_names, corpus_record, parse


@pytest.fixture
def corpus(client: FlaskClient) -> list[dict[str, Any]]:
    records = []
    for name in corpus_names():
        record = corpus_record(name)
        assert client.post("/api/games/import", json=record).status_code == 201
        records.append(record)
    return records


def expected_stats(records: list[dict[str, Any]], name: str) -> dict[str, Any]:
    finals, wins, turns, points, best = [], 0, 0, 0, (0, None, None)
    for game_id, record in enumerate(records, start=1):
        if name not in record["players"]:
            continue
        seat = record["players"].index(name)
        final = record["final"]["scores"]
        finals.append(final[seat])
        wins += final[seat] == max(final)
        points += final[seat]
        for seq, move in enumerate(record["moves"]):
            if move["player"] == seat:
                turns += 1
                if move["type"] == "place" and move["score"] > best[0]:
                    best = (move["score"], game_id, seq)
    return {
        "games": len(finals),
        "wins": wins,
        "avg": sum(finals) / len(finals),
        "best": max(finals),
        "per_turn": points / turns,
        "best_move": best,
    }


def stat(page: Node, key: str) -> str:
    return page.find("dd", data_stat=key).text()


@pytest.mark.parametrize("name", ["Anna", "Sally", "Ann"])
def test_a_players_statistics_match_the_records(
    client: FlaskClient, corpus: list[dict[str, Any]], name: str
) -> None:
    want = expected_stats(corpus, name)
    page = parse(client.get(f"/players/{name}").data)
    assert page.find("h1").text() == name
    assert stat(page, "games") == str(want["games"])
    assert stat(page, "wins") == str(want["wins"])
    assert stat(page, "win_rate") == f"{want['wins'] / want['games'] * 100:.0f}%"
    assert stat(page, "avg_score") == f"{want['avg']:.1f}"
    assert stat(page, "best_score") == str(want["best"])
    assert stat(page, "per_turn") == f"{want['per_turn']:.2f}"
    score, game_id, seq = want["best_move"]
    link = page.find("dd", data_stat="best_move").find("a")
    assert link.text() == f"{score} points"
    # Ties for the best move go to the earliest game.
    assert link.attrs["href"] == f"/games/{game_id}/replay?move={seq + 1}"
    linked = client.get(link.attrs["href"])
    assert linked.status_code == 200
    step = parse(linked.data)
    assert step.find(data_move_points=True).text() == str(score)
    assert name in step.find(data_replay_title=True).text()


def test_qwirkles_made_are_counted(client: FlaskClient, corpus: list[dict]) -> None:
    page = parse(client.get("/players/Anna").data)
    qwirkles = int(stat(page, "qwirkles"))
    assert qwirkles > 0
    rows = parse(client.get("/games/1/scoresheet").data)
    assert rows.find("tr", class_="qwirkles")


def test_names_match_whatever_their_case(
    client: FlaskClient, corpus: list[dict]
) -> None:
    assert client.get("/players/anna").status_code == 200
    assert parse(client.get("/players/ANNA").data).find("h1").text() == "Anna"


def test_unknown_player_is_404(client: FlaskClient) -> None:
    assert client.get("/players/Nobody").status_code == 404
    assert client.get("/players/" + "x" * 500).status_code == 404


def test_players_list_has_every_name_with_totals(
    client: FlaskClient, corpus: list[dict[str, Any]]
) -> None:
    page = parse(client.get("/players").data)
    rows = {r.attrs["data-player"]: r for r in page.find_all("tr", data_player=True)}
    everyone = {n.casefold() for r in corpus for n in r["players"]}
    assert set(rows) == everyone
    anna = expected_stats(corpus, "Anna")
    cells = [c.text() for c in rows["anna"].find_all("td")]
    assert cells[0] == str(anna["games"])
    assert cells[1] == str(anna["wins"])
    assert cells[3] == f"{anna['avg']:.1f}"
    assert cells[4] == str(anna["best"])


def test_running_games_count_as_played_but_not_in_wins_or_averages(
    client: FlaskClient,
) -> None:
    client.post("/api/games", json={"players": ["Ann", "Bob"]})
    page = parse(client.get("/players/Ann").data)
    assert stat(page, "games") == "1"
    assert stat(page, "finished") == "0"
    assert stat(page, "win_rate") == "–"
    assert stat(page, "avg_score") == "–"


def test_head_to_head(client: FlaskClient, corpus: list[dict[str, Any]]) -> None:
    together = [r for r in corpus if {"Anna", "Sally"} <= set(r["players"])]
    wins_a = wins_b = ahead_a = 0
    sum_a = sum_b = 0
    for record in together:
        final = record["final"]["scores"]
        a = final[record["players"].index("Anna")]
        b = final[record["players"].index("Sally")]
        wins_a += a == max(final)
        wins_b += b == max(final)
        ahead_a += a > b
        sum_a, sum_b = sum_a + a, sum_b + b
    page = parse(client.get("/head-to-head?a=Anna&b=sally").data)

    def cell(key: str) -> str:
        return page.find("td", data_h2h=key).text()

    assert cell("games") == str(len(together))
    assert cell("wins_a") == str(wins_a)
    assert cell("wins_b") == str(wins_b)
    assert cell("ahead_a") == str(ahead_a)
    assert cell("avg_a") == f"{sum_a / len(together):.1f}"
    assert cell("avg_b") == f"{sum_b / len(together):.1f}"


def test_head_to_head_edge_cases(client: FlaskClient, corpus: list[dict]) -> None:
    assert client.get("/head-to-head").status_code == 200
    same = client.get("/head-to-head?a=Anna&b=anna")
    assert "two different players" in same.get_data(as_text=True)
    strangers = parse(client.get("/head-to-head?a=Anna&b=Nobody").data)
    assert strangers.find("td", data_h2h="games").text() == "0"
    assert strangers.find("td", data_h2h="avg_a").text() == "–"


def test_a_player_named_compare_has_a_statistics_page(client: FlaskClient) -> None:
    # The head-to-head page lives outside /players/ so that no name is taken.
    table = Table(client)
    game = table.new(["compare", "Bob"])
    game.place((0, 0, "red", "circle"))

    response = client.get("/players/compare")

    assert response.status_code == 200
    assert parse(response.data).find("h1").text() == "compare"


def recounted(app: Any) -> list[dict[str, Any]]:
    """Every player's totals counted afresh from game_players (the summary's truth)."""
    from scorekeeper.store.connection import get_db

    with app.app_context():
        return list(get_db().query(
            "SELECT name_key, count(*) AS games, count(is_winner) AS finished,"
            " coalesce(sum(is_winner), 0) AS wins,"
            " avg(CASE WHEN is_winner IS NOT NULL THEN score END) AS avg_score,"
            " max(CASE WHEN is_winner IS NOT NULL THEN score END) AS best_score,"
            " sum(qwirkles) AS qwirkles, sum(turns) AS turns, sum(score) AS points,"
            " max(best_move_score) AS best_move_score"
            " FROM game_players GROUP BY name_key"
            " ORDER BY finished DESC, games DESC, name_key"
        ))


def summarised(app: Any) -> list[dict[str, Any]]:
    """The players list as the pages read it (player_totals and its indexes)."""
    from scorekeeper.store import stats

    with app.app_context():
        return [
            {key: row[key] for key in (
                "name_key", "games", "finished", "wins", "avg_score", "best_score",
                "qwirkles", "turns", "points", "best_move_score",
            )}
            for row in stats.player_summaries()
        ]


def test_player_totals_follow_every_kind_of_write(
    app: Any, client: FlaskClient
) -> None:
    from scorekeeper.store import games as stored

    table = Table(client)
    records = [corpus_record(name) for name in corpus_names()[:4]]
    imported = [table.import_record(record) for record in records]
    assert summarised(app) == recounted(app)
    # Moves, a finish and an undo of the finishing move.
    game = table.new(["Ann", "Bob"])
    game.place((0, 0, "red", "circle"), (0, 1, "red", "square"))
    game.place((1, 0, "blue", "circle"))
    assert summarised(app) == recounted(app)
    last = records[0]["moves"][-1]
    cut = table.import_record(
        {**records[0], "moves": records[0]["moves"][:-1], "final": None}
    )
    cut.move({k: v for k, v in last.items() if k not in ("player", "score")})
    assert summarised(app) == recounted(app)
    cut.undo()
    assert summarised(app) == recounted(app)
    # Ending, abandoning and reopening a game.
    with app.test_request_context():
        stored.close_game(game.id, "ended")
        assert summarised(app) == recounted(app)
        stored.reopen_game(game.id)
        stored.close_game(game.id, "abandoned")
    assert summarised(app) == recounted(app)
    # A correction that rescored every later move, a rename to another key and
    # to a name already played, and a delete.
    with app.test_request_context():
        stored.replace_moves(imported[1].id, [
            {k: v for k, v in m.items() if k not in ("player", "score")}
            for m in records[1]["moves"][:-3]
        ])
        names = records[2]["players"]
        stored.rename_players(imported[2].id, ["Zed", *names[1:]])
        others = records[3]["players"][1:]
        stored.rename_players(imported[3].id, [names[0].upper(), *others])
        stored.delete_game(imported[0].id)
    assert summarised(app) == recounted(app)
    # The pages read the same figures.
    page = parse(client.get("/players").data)
    assert {r.attrs["data-player"] for r in page.find_all("tr", data_player=True)} == {
        row["name_key"] for row in recounted(app)
    }


def test_a_backup_restored_into_an_empty_database_gives_the_same_totals(
    app: Any, client: FlaskClient, tmp_path: Any
) -> None:
    from conftest import as_admin, make_app
    from test_export_backup import restore

    for name in corpus_names()[:5]:
        answer = client.post("/api/games/import", json=corpus_record(name))
        assert answer.status_code == 201
    Table(client).new(["Ann", "Bob"]).place((0, 0, "red", "circle"))
    other = make_app(tmp_path / "restored.sqlite3")
    answer = restore(as_admin(other.test_client()), client.get("/backup").data)
    assert answer.status_code in (200, 302), answer.data
    assert summarised(other) == recounted(other) == recounted(app)
