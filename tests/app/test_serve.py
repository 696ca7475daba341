"""``make serve`` (``python -m companion.serve``) and ``make run`` (``python -m companion``):
slow clients do not stall them.

Starts each server on loopback, opens more connections sending their request headers a byte
at a time than the server has threads, and checks that ordinary requests are answered
meanwhile, and that the slow requests are answered right once they are complete. How fast
(200 slow connections, answers under a second) is measured by benchmarks/bench_slow_clients.py.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import serve

PROJECT = Path(__file__).resolve().parents[2]
THREADS = 4
SLOW_CLIENTS = 12  # three times the threads: with gunicorn's own gthread, nothing answered
SLOW_REQUEST = b"GET /healthz-missing HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(module: str, tmp_path: Path, extra_env: dict[str, str]) -> Iterator[int]:
    port = free_port()
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite'}",
        "SECRET_KEY": "serve-test",
        **extra_env,
    }
    server = subprocess.Popen(
        [sys.executable, "-m", module],
        cwd=PROJECT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail(f"{module} did not start within 30 s")
        yield port
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.fixture
def production_server(tmp_path: Path) -> Iterator[int]:
    # The harder case: one worker process with few threads.
    yield from start_server(
        "companion.serve", tmp_path, {"WEB_CONCURRENCY": "1", "THREADS": str(THREADS)}
    )


@pytest.fixture
def table_server(tmp_path: Path) -> Iterator[int]:
    yield from start_server("companion", tmp_path, {})


def get(port: int, path: str, timeout: float = 10) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


class SlowClients:
    """``count`` connections sending ``SLOW_REQUEST`` one byte at a time, each every 0.2 s,
    all from one thread; ``finish()`` sends the rest and collects each answer's status."""

    def __init__(self, port: int, count: int) -> None:
        self.sockets = [
            socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(count)
        ]
        self.sent = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._trickle, daemon=True)
        self.thread.start()

    def _trickle(self) -> None:
        while self.sent < len(SLOW_REQUEST) - 1 and not self.stop.wait(0.2):
            for sock in self.sockets:
                sock.sendall(SLOW_REQUEST[self.sent : self.sent + 1])
            self.sent += 1

    def finish(self) -> list[int]:
        self.stop.set()
        self.thread.join(timeout=10)
        statuses = []
        for sock in self.sockets:
            sock.sendall(SLOW_REQUEST[self.sent :] + b"\r\n\r\n")
            status_line = sock.makefile("rb").readline()
            statuses.append(int(status_line.split()[1]))
            sock.close()
        return statuses


def answered_beside_slow_clients(port: int, count: int) -> None:
    assert get(port, "/") == 200  # warm up: the worker builds the app on first use
    slow = SlowClients(port, count)
    try:
        time.sleep(1.0)  # every slow connection is open and part-way through its headers
        for _ in range(5):
            assert get(port, "/") == 200  # a stalled server times out here (10 s)
            time.sleep(0.2)
        created = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        created.request(
            "POST",
            "/api/games",
            body=json.dumps({"players": ["Ann", "Bob"], "rules": {}}),
            headers={"Content-Type": "application/json"},
        )
        assert created.getresponse().status == 201  # a body read along with its head
        created.close()
    finally:
        statuses = slow.finish()
    assert statuses == [404] * count  # each slow request, once complete, answered right


def test_slow_clients_do_not_stall_make_serve(production_server: int) -> None:
    answered_beside_slow_clients(production_server, SLOW_CLIENTS)


def test_slow_clients_do_not_stall_make_run(table_server: int) -> None:
    # Past waitress's default connection limit (100), which stalled it.
    answered_beside_slow_clients(table_server, 120)


def test_a_kept_alive_connection_serves_one_request_after_another(production_server: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", production_server, timeout=10)
    try:
        for _ in range(3):
            connection.request("GET", "/")
            response = connection.getresponse()
            response.read()
            assert response.status == 200
    finally:
        connection.close()


def test_a_client_waiting_for_100_continue_gets_it_before_sending_its_body(
    production_server: int,
) -> None:
    body = json.dumps({"players": ["Ann", "Bob"], "rules": {}}).encode()
    head = (
        "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nExpect: 100-continue\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", production_server), timeout=5) as sock:
        sock.sendall(head)
        answers = sock.makefile("rb")
        assert answers.readline().startswith(b"HTTP/1.1 100")  # times out if nobody answers
        assert answers.readline() == b"\r\n"
        sock.sendall(body)
        assert answers.readline().split()[1] == b"201"


def test_serve_options_are_the_threaded_set_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "8123")
    monkeypatch.delenv("HOST", raising=False)
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    monkeypatch.delenv("THREADS", raising=False)
    options = serve.gunicorn_options()
    assert options["bind"] == "0.0.0.0:8123"
    assert options["worker_class"] == "companion.serve.HeadBufferingWorker"
    assert options["workers"] == serve.DEFAULT_WORKERS
    assert options["threads"] == serve.DEFAULT_THREADS
    monkeypatch.setenv("THREADS", "lots")
    with pytest.raises(SystemExit, match="THREADS must be a number from 1 to 1000"):
        serve.gunicorn_options()
