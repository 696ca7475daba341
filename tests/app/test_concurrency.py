"""Eight phones writing one game at once through a real threaded server on loopback.

Every write adds one player's score to a round after reading the round, so a write that
overwrote another (a lost update) would leave a score missing at the end; and every GET is
checked for a version that matches the scores it carries (one write, one version). Bounded:
24 acknowledged writes. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from werkzeug.serving import make_server

WRITERS = 8
ROUNDS = 3
PLAYERS = [f"P{seat}" for seat in range(WRITERS)]


@pytest.fixture
def live(app: Flask) -> Iterator[str]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


class Client:
    """One phone's keep-alive connection to the server, speaking JSON."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        sent = {"Content-Type": "application/json", **(headers or {})}
        self.connection.request(method, path, body=data, headers=sent)
        response = self.connection.getresponse()
        return response.status, json.loads(response.read() or b"null")

    def close(self) -> None:
        self.connection.close()


def entries(game: dict[str, Any]) -> int:
    return sum(len(round_["scores"]) for round_ in game["rounds"])


def test_eight_writers_lose_nothing_and_reads_are_consistent(live: str) -> None:
    first = Client(live)
    _status, created = first.call("POST", "/api/games", {"players": PLAYERS})
    url = f"/api/games/{created['id']}"
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    conflicts = [0] * WRITERS
    failures: list[str] = []
    stop = threading.Event()
    reads = {"count": 0, "inconsistent": 0}

    def write(seat: int) -> None:
        session = Client(live)
        try:
            for n in range(1, ROUNDS + 1):
                for _attempt in range(300):
                    _status, game = session.call("GET", url)
                    scores = dict(game["rounds"][n - 1]["scores"])
                    scores = {name: {"points": s["points"]} for name, s in scores.items()}
                    scores[PLAYERS[seat]] = {"points": 10 * n + seat}
                    status, answer = session.call(
                        "PUT",
                        f"{url}/rounds/{n}",
                        {"scores": scores, "version": game["version"]},
                        auth,
                    )
                    if status == 200:
                        break
                    if status != 409:
                        failures.append(f"{status}: {answer}")
                        return
                    conflicts[seat] += 1
                else:
                    failures.append(f"writer {seat} never got round {n} in")
        finally:
            session.close()

    def read() -> None:
        session = Client(live)
        while not stop.is_set():
            _status, game = session.call("GET", url)
            reads["count"] += 1
            if entries(game) != game["version"] - 1:
                reads["inconsistent"] += 1
        session.close()

    reader = threading.Thread(target=read)
    reader.start()
    writers = [threading.Thread(target=write, args=(seat,)) for seat in range(WRITERS)]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join(timeout=120)
    stop.set()
    reader.join(timeout=10)

    assert failures == []
    _status, final = first.call("GET", url)
    first.close()
    for n in range(1, ROUNDS + 1):
        assert final["rounds"][n - 1]["scores"] == {
            name: {"points": 10 * n + seat} for seat, name in enumerate(PLAYERS)
        }
    assert final["version"] == 1 + WRITERS * ROUNDS
    print(
        f"\n{WRITERS * ROUNDS} writes, {sum(conflicts)} refused as stale and retried; "
        f"{reads['count']} reads, {reads['inconsistent']} inconsistent"
    )
    assert reads["inconsistent"] == 0
