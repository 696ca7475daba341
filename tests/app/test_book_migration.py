"""The migration that adds people, seats and score lines: up with existing games read in, and
down again, on SQLite and (with TEST_DATABASE_URL) on PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from companion import create_app
from companion.extensions import db
from companion.games.parsing import parse_rules

BEFORE = "5c8e2f7a1d44"
SHORT_RULES = parse_rules({"schedule": [2, 1, 0]}).to_json()


@pytest.fixture
def bare_app(tmp_path: Path) -> Iterator[Flask]:
    """An app on an empty database: nothing made by create_all, so migrations build it."""
    url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'migrated.sqlite'}"
    app = create_app({"TESTING": True, "SECRET_KEY": "m", "SQLALCHEMY_DATABASE_URI": url})

    def empty() -> None:
        with app.app_context():
            meta = sa.MetaData()
            meta.reflect(db.engine)
            meta.drop_all(db.engine)

    empty()
    yield app
    empty()
    with app.app_context():
        db.engine.dispose()


def run(app: Flask, *args: str) -> None:
    result = app.test_cli_runner().invoke(args=["db", *args])
    assert result.exit_code == 0, result.output


def tables(app: Flask) -> set[str]:
    with app.app_context():
        return set(sa.inspect(db.engine).get_table_names())


def test_upgrade_reads_the_old_games_in_and_downgrade_drops_only_the_new_tables(
    bare_app: Flask,
) -> None:
    run(bare_app, "upgrade", BEFORE)
    assert "person" not in tables(bare_app)
    json_round = sa.table(
        "round", sa.column("game_id"), sa.column("n"), sa.column("scores", sa.JSON)
    )
    json_game = sa.table(
        "game",
        sa.column("id"),
        sa.column("created_at"),
        sa.column("updated_at"),
        sa.column("players", sa.JSON),
        sa.column("rules", sa.JSON),
        sa.column("preset"),
        sa.column("edit_token_hash"),
        sa.column("version"),
    )
    out = {"points": 0, "went_out": True}
    with bare_app.app_context(), db.engine.begin() as connection:
        for number, (players, day) in enumerate([(["Ann", "Bob"], 1), (["ANN", "Cy"], 2)]):
            connection.execute(
                sa.insert(json_game).values(
                    id=f"game{number}",
                    created_at=datetime(2026, 1, day, tzinfo=UTC),
                    updated_at=datetime(2026, 1, day, tzinfo=UTC),
                    players=players,
                    rules=SHORT_RULES,
                    preset="standard",
                    edit_token_hash="x" * 64,
                    version=1,
                )
            )
        # game0 finished: Ann 0 + 2 + 4 = 6 (her 2 is 0-0 and 0-2), Bob 5 + 0 + 0 = 5.
        for n, scores in enumerate(
            [
                {"Ann": out, "Bob": {"points": 5}},
                {"Ann": {"tiles": [[0, 0], [0, 2]]}, "Bob": out},
                {"Ann": {"points": 4}, "Bob": out},
            ],
            start=1,
        ):
            connection.execute(sa.insert(json_round).values(game_id="game0", n=n, scores=scores))
        # game1 has one round: ANN (the same person as Ann) 7, Cy out.
        connection.execute(
            sa.insert(json_round).values(
                game_id="game1", n=1, scores={"ANN": {"points": 7}, "Cy": out}
            )
        )

    run(bare_app, "upgrade")
    with bare_app.app_context(), db.engine.connect() as connection:
        people = dict(connection.execute(sa.text("SELECT name, id FROM person")).all())
        assert sorted(people) == ["Ann", "Bob", "Cy"]  # "ANN" is Ann, spelt as first seen
        seats = connection.execute(
            sa.text("SELECT game_id, seat, person_id, game_finished FROM seat")
        ).all()
        assert {(g, s, p, bool(f)) for g, s, p, f in seats} == {
            ("game0", 0, people["Ann"], True),
            ("game0", 1, people["Bob"], True),
            ("game1", 0, people["Ann"], False),
            ("game1", 1, people["Cy"], False),
        }
        lines = connection.execute(
            sa.text(
                "SELECT game_id, n, person_id, points, went_out, held_double_blank FROM score_line"
            )
        ).all()
        assert {
            (g, n, p, pts, bool(o), None if d is None else bool(d)) for g, n, p, pts, o, d in lines
        } == {
            ("game0", 1, people["Ann"], 0, True, None),
            ("game0", 1, people["Bob"], 5, False, None),
            ("game0", 2, people["Ann"], 2, False, True),
            ("game0", 2, people["Bob"], 0, True, None),
            ("game0", 3, people["Ann"], 4, False, None),
            ("game0", 3, people["Bob"], 0, True, None),
            ("game1", 1, people["Ann"], 7, False, None),
            ("game1", 1, people["Cy"], 0, True, None),
        }
    # The migrated book is what the app reads: Bob won game0 by 5 to 6.
    page = bare_app.test_client().get("/book/").get_data(as_text=True)
    assert "Bob leads the book with 1 win in 1 finished game." in page
    check = bare_app.test_cli_runner().invoke(args=["db", "check"])
    assert check.exit_code == 0, check.output

    run(bare_app, "downgrade", BEFORE)
    assert not {"person", "seat", "score_line"} & tables(bare_app)
    with bare_app.app_context(), db.engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM round")).scalar() == 4
        assert connection.execute(sa.text("SELECT count(*) FROM game")).scalar() == 2
    # And up again: the backfill runs on the same games a second time.
    run(bare_app, "upgrade")
    with bare_app.app_context(), db.engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM score_line")).scalar() == 8
