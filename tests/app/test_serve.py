"""``make serve`` (``python -m companion.serve``): slow clients do not stall the server.

Starts the production set-up on loopback, opens a handful of connections that send their
request headers a byte at a time, and times ordinary requests meanwhile. Bounded: about 6 s.
"""

from __future__ import annotations

import http.client
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
SLOW_CLIENTS = 6
SLOW_SECONDS = 5.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def production_server(tmp_path: Path) -> Iterator[int]:
    port = free_port()
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite'}",
        "SECRET_KEY": "serve-test",
        "WEB_CONCURRENCY": "1",  # the harder case: one worker process
        "THREADS": "8",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "companion.serve"],
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
            pytest.fail("the production server did not start within 30 s")
        yield port
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def timed_get(port: int, path: str) -> tuple[int, float]:
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    finally:
        connection.close()


def send_slowly(port: int, stop: threading.Event) -> None:
    """Send a request's headers one byte every 0.2 s until told to stop."""
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        for byte in request:
            if stop.wait(0.2):
                return
            connection.sendall(bytes([byte]))


def test_slow_clients_do_not_stall_make_serve(production_server: int) -> None:
    port = production_server
    status, _ = timed_get(port, "/")  # warm up: the worker builds the app on first use
    assert status == 200
    stop = threading.Event()
    slow = [
        threading.Thread(target=send_slowly, args=(port, stop), daemon=True)
        for _ in range(SLOW_CLIENTS)
    ]
    for thread in slow:
        thread.start()
    time.sleep(1.0)  # every slow connection is open and half-way through its headers
    timings = []
    try:
        deadline = time.monotonic() + SLOW_SECONDS - 1.0
        while time.monotonic() < deadline:
            status, seconds = timed_get(port, "/")
            assert status == 200
            timings.append(seconds)
            time.sleep(0.2)
    finally:
        stop.set()
        for thread in slow:
            thread.join(timeout=5)
    print(
        f"\n{len(timings)} requests beside {SLOW_CLIENTS} slow clients: "
        f"slowest {max(timings):.3f} s, median {sorted(timings)[len(timings) // 2]:.3f} s"
    )
    assert max(timings) < 1.0


def test_serve_options_are_the_threaded_set_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "8123")
    monkeypatch.delenv("HOST", raising=False)
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    monkeypatch.delenv("THREADS", raising=False)
    options = serve.gunicorn_options()
    assert options["bind"] == "0.0.0.0:8123"
    assert options["worker_class"] == "gthread"
    assert options["workers"] == serve.DEFAULT_WORKERS
    assert options["threads"] == serve.DEFAULT_THREADS
    monkeypatch.setenv("THREADS", "lots")
    with pytest.raises(SystemExit, match="THREADS must be a number from 1 to 1000"):
        serve.gunicorn_options()
