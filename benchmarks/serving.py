"""A real server on loopback for the load benchmarks: started as `make serve` or `make run`
start it (``python -m companion.serve`` / ``python -m companion``) on a fresh SQLite file, its
memory sampled from /proc (the master and every worker), its workers counted."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (gunicorn's workers), from /proc."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(child) for child in task.read_text().split()]
        except OSError:
            pass
    return found


def rss_bytes(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Server:
    """``python -m <module>`` on 127.0.0.1, stopped (and its database removed) on exit."""

    def __init__(self, module: str, env: dict[str, str] | None = None) -> None:
        self.module = module
        self.port = free_port()
        self.folder = tempfile.TemporaryDirectory(prefix="companion-bench-")
        self.env = {
            **os.environ,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "DATABASE_URL": f"sqlite:///{Path(self.folder.name) / 'bench.sqlite'}",
            "SECRET_KEY": "bench",
            **(env or {}),
        }
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        self.process = subprocess.Popen(
            [sys.executable, "-m", self.module],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.get("/")[0] == 200:
                    return self
            except OSError:
                time.sleep(0.3)
        self.__exit__(None, None, None)
        raise RuntimeError(f"python -m {self.module} did not start within 60 s")

    def __exit__(
        self,
        _type: type[BaseException] | None,
        _value: BaseException | None,
        _traceback: TracebackType | None,
    ) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.folder.cleanup()

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def workers(self) -> list[int]:
        return children(self.pid)

    def rss(self) -> int:
        """Resident memory of the server: the master and every worker, in bytes."""
        return sum(rss_bytes(pid) for pid in [self.pid, *self.workers()])

    def get(self, path: str, timeout: float = 10.0) -> tuple[int, bytes, float]:
        """(status, body, seconds) of one GET on a fresh connection."""
        started = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, response.read(), time.monotonic() - started
        finally:
            connection.close()

    def new_game(self) -> str:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            body = json.dumps({"players": ["Ann", "Bob", "Cy"], "rules": {}})
            connection.request(
                "POST", "/api/games", body=body, headers={"Content-Type": "application/json"}
            )
            created: dict[str, Any] = json.loads(connection.getresponse().read())
            return str(created["id"])
        finally:
            connection.close()


class Poller:
    """Asks for a game as the scoresheet's live view does, every ``every`` seconds, from its
    own thread, noting how long each answer took (a timeout counts as its length)."""

    def __init__(self, server: Server, path: str, every: float = 0.2, timeout: float = 20) -> None:
        self.server, self.path, self.every, self.timeout = server, path, every, timeout
        self.seconds: list[float] = []
        self.failures = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Poller:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=self.timeout + 5)

    def _run(self) -> None:
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                status, _body, seconds = self.server.get(self.path, timeout=self.timeout)
                if status != 200:
                    self.failures += 1
            except OSError:
                self.failures += 1
                seconds = time.monotonic() - started
            self.seconds.append(seconds)
            self.stop.wait(self.every)


class MemorySampler:
    """The server's peak resident memory, sampled every 20 ms from its own thread."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.peak = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> MemorySampler:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        while not self.stop.is_set():
            self.peak = max(self.peak, self.server.rss())
            self.stop.wait(0.02)
