"""Slow clients against a real server: ordinary requests answered beside 200 connections that
send their request headers slowly, for `make serve` (gunicorn, 2 workers x 32 threads) and
`make run` (waitress).

Each run opens 200 connections to the server on 127.0.0.1, which send a request head one byte
every 0.5 s for ``--seconds`` (a phone on a bad signal, or someone holding connections open on
purpose), while a scoresheet poll (GET /api/games/<id>) is timed every 0.1 s. Goal: every poll
answered within 1 s. Bounded: each run stops by itself; each poll gives up after 20 s.
Prints, per server, the median over the runs of each run's median and slowest poll.
Run: `python benchmarks/bench_slow_clients.py [--runs N] [--clients N] [--seconds S]`.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import Poller, Server  # noqa: E402

SERVERS = (("make serve", "companion.serve"), ("make run", "companion"))
HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: a-phone-on-a-bad-signal\r\n" + (
    b"X-Padding: " + b"a" * 400
)
GOAL_SECONDS = 1.0


def slow_connections(port: int, count: int, seconds: float, stop: threading.Event) -> int:
    """Open ``count`` connections and trickle a request head into each for ``seconds``;
    returns how many were opened."""
    opened = []
    for _ in range(count):
        try:
            opened.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        except OSError:
            break
    sent = 0
    ticks = int(seconds / 0.5)
    try:
        for _ in range(ticks):
            if stop.wait(0.5):
                break
            for connection in opened:
                try:
                    connection.send(HEAD[sent : sent + 1])
                except OSError:
                    pass
            sent = (sent + 1) % (len(HEAD) - 1)
    finally:
        for connection in opened:
            connection.close()
    return len(opened)


def one_run(server: Server, game: str, clients: int, seconds: float) -> tuple[list[float], int]:
    stop = threading.Event()
    opened: list[int] = []
    trickle = threading.Thread(
        target=lambda: opened.append(slow_connections(server.port, clients, seconds, stop)),
        daemon=True,
    )
    trickle.start()
    with Poller(server, f"/api/games/{game}", every=0.1) as poller:
        trickle.join(timeout=seconds + 30)
    stop.set()
    return poller.seconds, poller.failures + (clients - (opened[0] if opened else 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    for label, module in SERVERS:
        medians, slowest, failures, polls = [], [], 0, 0
        with Server(module) as server:
            game = server.new_game()
            for _ in range(args.runs):
                seconds, failed = one_run(server, game, args.clients, args.seconds)
                medians.append(statistics.median(seconds))
                slowest.append(max(seconds))
                failures += failed
                polls += len(seconds)
        verdict = "meets" if max(slowest) < GOAL_SECONDS and not failures else "misses"
        print(
            f"{label}: {args.clients} slow connections for {args.seconds:g} s; {polls} polls "
            f"over {args.runs} runs: median {statistics.median(medians) * 1000:.0f} ms, slowest "
            f"per run median {statistics.median(slowest) * 1000:.0f} ms (worst "
            f"{max(slowest) * 1000:.0f} ms), {failures} failed; {verdict} the "
            f"{GOAL_SECONDS:g} s goal",
            flush=True,
        )


if __name__ == "__main__":
    main()
