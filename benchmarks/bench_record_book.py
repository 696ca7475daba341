"""Measure the record book page on a family's years of games.

Run with ``python benchmarks/bench_record_book.py``. A temporary SQLite file (the default
database) gets 500 finished games of 4 to 8 players from a family of 12, every one with all 13
rounds, each stored the way the app stores it (the game through ``service.create_game``, its
rounds and their score lines written by the same code as a round save). The page is then
rendered through Flask's test client: everyone's figures, one person's chart and a head to
head, which is the heaviest form of the page. Target: a median under 200 ms.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.games import service  # noqa: E402
from companion.games.models import Round  # noqa: E402
from companion.games.people import Person, ScoreLine, sync_book  # noqa: E402

GAMES = 500
FAMILY = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
RUNS = 9
TARGET_MS = 200.0


def round_scores(rng: random.Random, players: list[str], engine: int) -> dict[str, object]:
    """One went out; about one in four picked tile by tile (some holding the 0-0)."""
    out = rng.randrange(len(players))
    scores: dict[str, object] = {}
    for seat, name in enumerate(players):
        if seat == out:
            scores[name] = {"points": 0, "went_out": True}
        elif rng.random() < 0.25 and engine != 0:
            hand = [[0, 0]] if rng.random() < 0.3 else []
            hand += [[rng.randint(1, 12), rng.randint(1, 12)] for _ in range(rng.randint(1, 4))]
            scores[name] = {"tiles": hand}
        else:
            scores[name] = {"points": rng.randint(1, 90)}
    return scores


def fill(app_config: dict[str, object]) -> None:
    """Store the 500 games, two or three days apart."""
    app = create_app(app_config)
    rng = random.Random(29)
    start = datetime(2020, 1, 1, tzinfo=UTC)
    with app.app_context():
        db.create_all()
        for number in range(GAMES):
            players = rng.sample(FAMILY, rng.randint(4, 8))
            game, _token = service.create_game(players, {})
            game.created_at = start + timedelta(days=2.5 * number)
            for n, engine in enumerate(range(12, -1, -1), start=1):
                game.rounds.append(Round(n=n, scores=round_scores(rng, players, engine)))
            db.session.flush()
            sync_book(game)
            db.session.commit()
        lines = db.session.scalar(db.select(db.func.count()).select_from(ScoreLine))
        print(f"{GAMES} games of 4 to 8 players, 13 rounds each: {lines} score lines")
        db.engine.dispose()


def main() -> None:
    with tempfile.TemporaryDirectory() as workdir:
        config: dict[str, object] = {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": os.environ.get("BENCH_DATABASE_URL")
            or f"sqlite:///{Path(workdir) / 'book.sqlite'}",
            "PUBLIC_URL": "http://bench.test",
        }
        fill(config)
        app = create_app(config)
        with app.app_context():
            ids = dict(db.session.execute(db.select(Person.name, Person.id)).all())
        client = app.test_client()
        url = f"/book/?person={ids['Ann']}&a={ids['Ann']}&b={ids['Bob']}"
        client.get(url)  # templates compiled, connections opened
        wall, cpu = [], []
        for _ in range(RUNS):
            cpu_start = time.process_time()
            began = time.perf_counter()
            response = client.get(url)
            wall.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - cpu_start) * 1000)
            if response.status_code != 200 or "Head to head" not in response.get_data(True):
                raise SystemExit(f"the record book failed: {response.status_code}")
        size = len(response.get_data())
        with app.app_context():
            if os.environ.get("BENCH_DATABASE_URL"):  # a server's database: leave it empty
                db.drop_all()
            db.engine.dispose()
        median = statistics.median(wall)
        print(
            f"record book page ({size // 1024} KiB), median of {RUNS}: {median:.1f} ms wall, "
            f"{statistics.median(cpu):.1f} ms CPU (target under {TARGET_MS:.0f} ms: "
            f"{'met' if median < TARGET_MS else 'NOT met'})"
        )


if __name__ == "__main__":
    main()
