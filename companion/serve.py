"""The production server (``make serve``): migrate, then serve with gunicorn's threaded workers.

Each worker reads a request's head (its request line and headers), and a small body with it,
in its event loop, and only then hands the connection to one of its threads
(:class:`HeadBufferingWorker`): a phone, or anything else, sending its request slowly holds
a few hundred bytes of memory, not a thread. With gunicorn's own "gthread" worker a thread
waited for the whole head, so 64 connections sending their headers slowly (2 workers x 32
threads) stalled every other request. Settings come from the environment:

- ``PORT`` (default 5000) and ``HOST`` (default every interface);
- ``WEB_CONCURRENCY`` worker processes (default 2) and ``THREADS`` per worker (default 32);
- ``SECRET_KEY`` (else a key kept in the instance folder) and ``DATABASE_URL`` as for
  ``make run``; ``FLASK_PUBLIC_URL`` or ``FLASK_TRUSTED_HOSTS`` for the links it hands out.

A large body (a photo) is still read by a thread as it arrives. Facing the open internet, put
a buffering proxy (e.g. nginx) in front, as gunicorn's own documentation advises; at a table
on a home network this is enough.
"""

from __future__ import annotations

import errno
import os
import re
import selectors
import sys
import time
from collections import deque
from functools import partial
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication
from gunicorn.workers.gthread import TConn, ThreadWorker

from . import create_app
from .__main__ import migrate_or_exit, port_from_env

DEFAULT_WORKERS = 2
DEFAULT_THREADS = 32


HEAD_SECONDS = 30.0
"""A request whose head (and small body) has not arrived in this time is dropped."""
HEAD_LIMIT = 64 * 1024
"""Past this many bytes without the head's end, a thread takes the connection anyway
(gunicorn's parser then refuses the oversized head)."""
SMALL_BODY = 64 * 1024
"""A body up to this size (every form and API call; not a photo) is read with the head."""
SWITCH_INTERVAL = 0.001
"""Seconds a thread may hold the GIL while another waits (Python's default is 0.005)."""
_END_OF_HEAD = b"\r\n\r\n"
_EXPECT = re.compile(rb"^expect:", re.I | re.M)
_CONTENT_LENGTH = re.compile(rb"^content-length:[ \t]*([0-9]{1,12})[ \t]*\r?$", re.I | re.M)


class _Arriving:
    """A request being read by the event loop: what came so far and when to give up."""

    def __init__(self, conn: TConn) -> None:
        self.conn = conn
        self.data = bytearray()
        self.deadline = time.monotonic() + HEAD_SECONDS

    def complete(self) -> bool:
        """Whether a thread can take it: the head is in, with the body if that is small."""
        end = self.data.find(_END_OF_HEAD)
        if end < 0:
            return len(self.data) > HEAD_LIMIT
        length = _CONTENT_LENGTH.search(self.data, 0, end + 2)
        if length is None:  # no body, or a chunked one (read by the thread)
            return True
        if _EXPECT.search(self.data, 0, end + 2):  # the body waits for gunicorn's "100 Continue"
            return True
        wanted = int(length.group(1))
        return wanted > SMALL_BODY or len(self.data) - end - len(_END_OF_HEAD) >= wanted


class HeadBufferingWorker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's threaded worker, with each request's head read by the event loop.

    New connections, and kept-alive ones when their next request begins, wait in the
    worker's poller until the head is in (and a small body); the bytes read are handed to
    gunicorn's parser, in a thread, as if it had read them itself. Everything else (parsing,
    keep-alive, large bodies, graceful stops) is gthread's own.
    """

    def init_process(self) -> None:
        self.arriving: deque[_Arriving] = deque()  # oldest first: deadlines in order
        # A thread reading a photo holds the GIL for Python's whole switch interval (5 ms)
        # each time a thread answering a poll wants it back after a read or a query: a poll
        # waited 1.9 s beside a flood of photos. At 1 ms it waited under 0.7 s
        # (benchmarks/bench_photo_flood.py); the cost is a little more switching.
        sys.setswitchinterval(SWITCH_INTERVAL)
        super().init_process()

    def accept(self, listener: Any) -> None:
        if self.cfg.is_ssl:  # the TLS handshake happens in a thread
            super().accept(listener)
            return
        try:
            client, address = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        self._await_request(TConn(self.cfg, client, address, listener.getsockname()))

    def on_client_socket_readable(self, conn: TConn, client: Any) -> None:
        if self.cfg.is_ssl:
            super().on_client_socket_readable(conn, client)
            return
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self._await_request(conn)

    def _await_request(self, conn: TConn) -> None:
        conn.sock.setblocking(False)
        arriving = _Arriving(conn)
        self.arriving.append(arriving)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._read_some, arriving))

    def _read_some(self, arriving: _Arriving, _client: Any) -> None:
        try:
            data = arriving.conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if data:
            arriving.data += data
            if not arriving.complete():
                return
        self.poller.unregister(arriving.conn.sock)
        self.arriving.remove(arriving)
        if not data:  # closed before its request was complete
            self.nr_conns -= 1
            arriving.conn.close()
            return
        arriving.conn.received = bytes(arriving.data)
        arriving.conn.data_ready = True
        self.enqueue_req(arriving.conn)

    def handle(self, conn: TConn) -> Any:
        received = getattr(conn, "received", b"")
        if received:
            conn.received = b""
            conn.sock.setblocking(True)
            conn.init()
            conn.parser.unreader.unread(received)
        return super().handle(conn)

    def murder_pending(self) -> None:
        super().murder_pending()
        # A stopping worker drops requests still arriving: none has been answered yet.
        now = time.monotonic() if self.alive else float("inf")
        while self.arriving and self.arriving[0].deadline <= now:
            late = self.arriving.popleft()
            try:
                self.poller.unregister(late.conn.sock)
            except (KeyError, ValueError, OSError):
                pass
            self.nr_conns -= 1
            late.conn.close()


def whole_number_from_env(name: str, default: int, most: int) -> int:
    """Read a small positive whole number from the environment, refusing anything else."""
    text = os.environ.get(name, str(default)).strip()
    if not text.isdecimal() or not 0 < int(text) <= most:
        raise SystemExit(f"{name} must be a number from 1 to {most}, not {text!r}.")
    return int(text)


def gunicorn_options() -> dict[str, Any]:
    """The production set-up: threaded workers reading request heads in their event loop,
    bound to HOST:PORT."""
    host = os.environ.get("HOST", "0.0.0.0").strip() or "0.0.0.0"
    return {
        "bind": f"{host}:{port_from_env()}",
        "worker_class": "companion.serve.HeadBufferingWorker",
        "workers": whole_number_from_env("WEB_CONCURRENCY", DEFAULT_WORKERS, 64),
        "threads": whole_number_from_env("THREADS", DEFAULT_THREADS, 1000),
        "timeout": 30,
        "keepalive": 5,
        "accesslog": "-",
    }


class ProductionServer(BaseApplication):  # type: ignore[misc]
    """gunicorn, configured here rather than on a command line; each worker builds the app."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return create_app()


def main() -> None:
    """Migrate the database once, then start the workers."""
    options = gunicorn_options()
    migrate_or_exit(create_app())
    print(f"Mexican Train companion (production) on {options['bind']}", flush=True)
    ProductionServer(options).run()


if __name__ == "__main__":
    main()
