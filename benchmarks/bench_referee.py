"""Measure the referee page: the server's time per ruling, from the submitted form to the page.

Run with ``python benchmarks/bench_referee.py``. Each ruling is a POST of the referee form of a
game (SQLite file) through Flask's test client: reading the form, checking the position,
judging it through the referee contract, putting the ruling into words and rendering the page.
The six disputes are those the browser tests settle; each run asks each of them many times.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402

RUNS = 5
ASKS_PER_DISPUTE = 40
PLAYERS = ["Ann", "Bea", "Cy", "Dee"]

DISPUTES: dict[str, dict[str, str]] = {
    "open double skipped": {
        "ask": "turn", "seat": "2", "act0-kind": "play", "act0-a": "2", "act0-b": "11",
        "end-1": "9", "open-1": "on",
    },
    "unmarked train": {
        "ask": "turn", "seat": "2", "act0-kind": "play", "act0-a": "5", "act0-b": "3",
        "act0-on": "3",
    },
    "marked train": {
        "ask": "turn", "seat": "2", "act0-kind": "play", "act0-a": "5", "act0-b": "3",
        "act0-on": "3", "marker-3": "on",
    },
    "first-turn run": {
        "ask": "turn", "seat": "0", "first": "on", "act0-kind": "play", "act0-a": "12",
        "act0-b": "5", "act1-a": "12", "act1-b": "3", "act1-on": "m1",
    },
    "out on a double": {
        "ask": "turn", "seat": "0", "act0-kind": "play", "act0-a": "7", "act0-b": "7",
        "end-0": "7", "act1-kind": "end", "change": "go_out_on_double=must_be_covered",
    },
    "missed call": {"ask": "call"},
}  # fmt: skip


def one_run(workdir: Path, run: int) -> dict[str, list[float]]:
    """Ask every dispute ASKS_PER_DISPUTE times; return the milliseconds per ruling."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir / f'referee{run}.sqlite'}",
            "PUBLIC_URL": "http://bench.test",
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    created = client.post("/api/games", json={"players": PLAYERS, "rules": {}}).get_json()
    url = f"/games/{created['id']}/referee"
    times: dict[str, list[float]] = {name: [] for name in DISPUTES}
    for _ in range(ASKS_PER_DISPUTE):
        for name, form in DISPUTES.items():
            start = time.perf_counter()
            response = client.post(url, data=form)
            times[name].append((time.perf_counter() - start) * 1000)
            if response.status_code != 200 or b'id="ruling"' not in response.data:
                raise SystemExit(f"{name}: no ruling ({response.status_code})")
    with app.app_context():
        db.engine.dispose()
    return times


def main() -> None:
    """Print the median and p95 server time per ruling, per dispute and overall."""
    with tempfile.TemporaryDirectory() as tmp:
        everything: dict[str, list[float]] = {name: [] for name in DISPUTES}
        run_medians: list[float] = []
        for run in range(RUNS):
            times = one_run(Path(tmp), run)
            pooled = [t for values in times.values() for t in values]
            run_medians.append(statistics.median(pooled))
            for name, values in times.items():
                everything[name].extend(values)
            print(f"run {run + 1}: median {run_medians[-1]:.1f} ms per ruling")
        for name, values in everything.items():
            p95 = statistics.quantiles(values, n=20)[-1]
            print(f"  {name}: median {statistics.median(values):.1f} ms, p95 {p95:.1f} ms")
        pooled = [t for values in everything.values() for t in values]
        print(
            f"referee page, server time per ruling (POST, render included): median of run "
            f"medians {statistics.median(run_medians):.1f} ms, p95 "
            f"{statistics.quantiles(pooled, n=20)[-1]:.1f} ms, {RUNS} runs x "
            f"{ASKS_PER_DISPUTE * len(DISPUTES)} rulings"
        )


if __name__ == "__main__":
    main()
