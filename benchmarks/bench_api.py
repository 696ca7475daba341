"""Measure the scoresheet API and page: round-write latency and page weight.

Run with ``python benchmarks/bench_api.py``. Writes go through Flask's test client to a
temporary SQLite file (the default database), so the figure is the app's own cost per write:
validation, scoring, the version check, the history row and the commit, without network.
"""

from __future__ import annotations

import gzip
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402

RUNS = 5
WRITES_PER_RUN = 300
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def round_scores(i: int) -> dict[str, object]:
    """A realistic round: one typed, one went out, one picked from tiles, one typed. Cy
    holds the double-blank but in round 13, whose engine it is (nobody holds the engine)."""
    engine = 12 - i % 13
    return {
        "Ann": {"points": (i * 7) % 120},
        "Bob": {"points": 0, "went_out": True},
        "Cy": {"tiles": [[0, 0] if engine else [0, 1], [5, 6], [12, (i % 12)]]},
        "Dee": {"points": (i * 3) % 90},
    }


def one_run(workdir: Path, run: int) -> tuple[list[float], list[float]]:
    """Write WRITES_PER_RUN rounds (cycling through the 13); return wall and CPU ms per write.

    CPU time is reported too because on a shared machine the wall-clock figure mostly
    measures the other processes.
    """
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir / f'bench{run}.sqlite'}",
            "PUBLIC_URL": "http://bench.test",
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    created = client.post("/api/games", json={"players": PLAYERS, "rules": {}}).get_json()
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    version = 1
    latencies = []
    cpu_times = []
    for i in range(WRITES_PER_RUN):
        body = {"scores": round_scores(i), "version": version}
        cpu_start = time.process_time()
        start = time.perf_counter()
        response = client.put(
            f"/api/games/{created['id']}/rounds/{i % 13 + 1}", json=body, headers=headers
        )
        latencies.append((time.perf_counter() - start) * 1000)
        cpu_times.append((time.process_time() - cpu_start) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"write {i} failed: {response.status_code} {response.get_json()}")
        version = response.get_json()["version"]
    with app.app_context():
        db.engine.dispose()
    return latencies, cpu_times


def page_weight(workdir: Path) -> None:
    """Print the bytes of the scoresheet page and the CSS and JS it loads."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir / 'weight.sqlite'}",
            "PUBLIC_URL": "http://192.168.1.20:5000",
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    created = client.post("/api/games", json={"players": PLAYERS, "rules": {}}).get_json()
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    for n in range(1, 8):  # a game mid-way: 7 of 13 rounds entered
        version = client.get(f"/api/games/{created['id']}").get_json()["version"]
        client.put(
            f"/api/games/{created['id']}/rounds/{n}",
            json={"scores": round_scores(n), "version": version},
            headers=headers,
        )
    client.get(f"/games/{created['id']}/edit/{created['edit_token']}")
    for label, path in (
        ("owner's scoresheet", f"/games/{created['id']}"),
        ("read-only view", f"/games/{created['id']}/view"),
    ):
        html = client.get(path).get_data()
        assets = re.findall(rb'(?:href|src)="(/static/[^"]+)"', html)
        total = len(html)
        zipped = len(gzip.compress(html))
        parts = [f"HTML {len(html):,}"]
        for asset in assets:
            body = client.get(asset.decode()).get_data()
            total += len(body)
            zipped += len(gzip.compress(body))
            parts.append(f"{asset.decode().rsplit('/', 1)[1]} {len(body):,}")
        print(
            f"page weight, {label} (4 players, 7 rounds): {total:,} bytes "
            f"({', '.join(parts)}); {zipped:,} bytes if gzipped"
        )
    with app.app_context():
        db.engine.dispose()


def main() -> None:
    """Run the latency runs and the page weight, printing the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        medians = []
        cpu_medians = []
        everything: list[float] = []
        for run in range(RUNS):
            latencies, cpu_times = one_run(workdir, run)
            medians.append(statistics.median(latencies))
            cpu_medians.append(statistics.median(cpu_times))
            everything.extend(latencies)
            print(
                f"run {run + 1}: median {medians[-1]:.2f} ms wall, {cpu_medians[-1]:.2f} ms CPU "
                f"over {len(latencies)} writes"
            )
        p90 = statistics.quantiles(everything, n=10)[-1]
        print(
            f"round write (PUT /api/games/<id>/rounds/<n>, SQLite file): median of run medians "
            f"{statistics.median(medians):.2f} ms (runs {min(medians):.2f}-{max(medians):.2f}), "
            f"p90 {p90:.2f} ms, {RUNS} runs x {WRITES_PER_RUN} writes"
        )
        print(f"CPU per round write: median of run medians {statistics.median(cpu_medians):.2f} ms")
        print(f"machine load average while measuring: {os.getloadavg()[0]:.1f}")
        page_weight(workdir)


if __name__ == "__main__":
    main()
