"""Run the table companion: ``python -m companion`` migrates the database, then serves.

It listens on every interface (port ``PORT``, default 5000) so phones on the same Wi-Fi can
join, and prints the address to open on them.
"""

from __future__ import annotations

import os
import sys

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy.exc import OperationalError

from . import create_app
from .netinfo import lan_ip
from .storage import storage_trouble

HOST = "0.0.0.0"  # every interface, so phones on the Wi-Fi can connect
DEFAULT_PORT = 5000
THREADS = 8  # a table of phones polling once a second is a handful of requests at a time
CONNECTION_LIMIT = 500
"""Open connections waitress keeps (its default is 100). Waitress reads each request whole in
its event loop before a thread takes it, so a slow phone costs a connection, not a thread;
past the limit it stopped accepting, and 200 slow connections stalled every other request."""


def port_from_env() -> int:
    """Read ``PORT``, refusing anything that is not a port number."""
    text = os.environ.get("PORT", str(DEFAULT_PORT)).strip()
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise SystemExit(f"PORT must be a number from 1 to 65535, not {text!r}.")
    return int(text)


def serve_app(app: Flask, port: int) -> None:
    """Serve ``app`` on every interface with waitress, or Werkzeug's server without it."""
    try:
        from waitress import serve
    except ImportError:  # waitress is optional; Werkzeug's threaded server will do at a table
        from werkzeug.serving import run_simple

        run_simple(HOST, port, app, threaded=True)
    else:
        serve(
            app,
            host=HOST,
            port=port,
            threads=THREADS,
            connection_limit=CONNECTION_LIMIT,
            # poll() rather than select(), whose file numbers stop at 1024.
            asyncore_use_poll=True,
        )


def migrate_or_exit(app: Flask) -> None:
    """Bring the database up to date, or stop with one line saying what is wrong."""
    try:
        with app.app_context():
            upgrade()
    except OperationalError as error:
        raise SystemExit(
            f"The database can't be opened or updated: {storage_trouble(error)}"
        ) from None


def main() -> None:
    """Migrate, print the join address and serve until interrupted."""
    port = port_from_env()
    app = create_app()
    migrate_or_exit(app)
    address = f"http://{lan_ip()}:{port}/"
    print(f"Mexican Train companion is running.\n  On this laptop: http://127.0.0.1:{port}/")
    print(f"  On phones on the same Wi-Fi: {address}")
    sys.stdout.flush()
    serve_app(app, port)


if __name__ == "__main__":
    main()
