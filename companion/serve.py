"""The production server (``make serve``): migrate, then serve with gunicorn's threaded workers.

Each gunicorn "gthread" worker waits for requests with a poller and hands each one to a pool
of threads, so a phone (or anything else) that sends its request slowly holds one thread,
not the whole server: the README's earlier sync-worker command let two slow connections
stall every other request. Settings come from the environment:

- ``PORT`` (default 5000) and ``HOST`` (default every interface);
- ``WEB_CONCURRENCY`` worker processes (default 2) and ``THREADS`` per worker (default 32);
- ``SECRET_KEY`` (else a key kept in the instance folder) and ``DATABASE_URL`` as for
  ``make run``; ``FLASK_PUBLIC_URL`` or ``FLASK_TRUSTED_HOSTS`` for the links it hands out.

Facing the open internet, put a buffering proxy (e.g. nginx) in front, as gunicorn's own
documentation advises; at a table on a home network this is enough.
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from . import create_app
from .__main__ import migrate_or_exit, port_from_env

DEFAULT_WORKERS = 2
DEFAULT_THREADS = 32


def whole_number_from_env(name: str, default: int, most: int) -> int:
    """Read a small positive whole number from the environment, refusing anything else."""
    text = os.environ.get(name, str(default)).strip()
    if not text.isdecimal() or not 0 < int(text) <= most:
        raise SystemExit(f"{name} must be a number from 1 to {most}, not {text!r}.")
    return int(text)


def gunicorn_options() -> dict[str, Any]:
    """The production set-up: threaded workers, bound to HOST:PORT."""
    host = os.environ.get("HOST", "0.0.0.0").strip() or "0.0.0.0"
    return {
        "bind": f"{host}:{port_from_env()}",
        "worker_class": "gthread",
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
