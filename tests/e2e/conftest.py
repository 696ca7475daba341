"""Browser tests: a live app on loopback driven by the system Chromium in a phone-sized page.

Every test in this folder is marked ``e2e`` and is skipped when ``/usr/bin/chromium`` is
missing, so the rest of the suite runs on machines without a browser. Playwright never
downloads a browser here: the launch points at the Debian build.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import BrowserContext, Playwright
from pytest_playwright.pytest_playwright import CreateContextCallback
from werkzeug.serving import make_server

from companion import create_app
from companion.extensions import db

from .helpers import TableApi

CHROMIUM = Path("/usr/bin/chromium")

Wsgi = Callable[[dict[str, Any], Any], Iterable[bytes]]


def _buffered(app: Wsgi) -> Wsgi:
    """The app with each response read whole (and its file closed) before it is sent.

    Chromium drops requests it no longer needs (a favicon, when the page moves on). Werkzeug's
    development server then never closes the response's open static file, and the
    ResourceWarning fails a random browser test under ``filterwarnings = error``.
    """

    def respond(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        response = app(environ, start_response)
        try:
            return [b"".join(response)]
        finally:
            close = getattr(response, "close", None)
            if close is not None:
                close()

    return respond


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # Without internet, Chromium's own background connections are refused over and over.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# The narrowest phone the issue names; the Pixel 7 descriptor supplies a mobile UA and touch.
PHONE_DEVICE = "Pixel 7"
PHONE_VIEWPORT = {"width": 360, "height": 780}
E2E_DIR = Path(__file__).resolve().parent
ACTION_TIMEOUT_MS = 10_000


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark this folder's tests ``e2e``; skip them with a reason when Chromium is absent."""
    missing = pytest.mark.skip(reason=f"system Chromium not found at {CHROMIUM}")
    for item in items:
        if E2E_DIR not in Path(str(item.fspath)).resolve().parents:
            continue
        item.add_marker(pytest.mark.e2e)
        if not CHROMIUM.exists():
            item.add_marker(missing)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch the Debian Chromium, quiet on a machine without internet."""
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve a fresh app (CSRF on) on a free loopback port; yield its base URL.

    The database is a temporary SQLite file, or ``TEST_DATABASE_URL`` (PostgreSQL in CI), whose
    tables are made fresh for the session and dropped afterwards.
    """
    shared_database = os.environ.get("TEST_DATABASE_URL")
    database_url = shared_database or (
        f"sqlite:///{tmp_path_factory.mktemp('e2e-db') / 'companion.sqlite'}"
    )
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "e2e-secret-key",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "WTF_CSRF_ENABLED": True,
        }
    )
    with app.app_context():
        if shared_database:
            db.drop_all()
        db.create_all()
    # The access log would be written from server threads after pytest has closed the
    # stream it captured, which prints "Logging error" noise; errors still show.
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, _buffered(app), threaded=True)
    base_url = f"http://127.0.0.1:{server.port}"
    # Share links would otherwise name the laptop's LAN address, which this server does not
    # listen on.
    app.config["PUBLIC_URL"] = base_url
    thread = threading.Thread(target=server.serve_forever, name="e2e-live-server", daemon=True)
    thread.start()
    try:
        yield base_url
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
        with app.app_context():
            if shared_database:
                db.session.remove()
                db.drop_all()
            db.engine.dispose()


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    """Relative ``page.goto`` paths resolve against the live server.

    This also replaces pytest-playwright's own fallback fixture, which pytest 9 warns about
    (a session fixture defined on a class), and warnings are errors in this project.
    """
    return live_server


@pytest.fixture(scope="session")
def browser_context_args(
    browser_context_args: dict[str, Any], playwright: Playwright
) -> dict[str, Any]:
    """Every page is a 360-px-wide Android phone."""
    phone = dict(playwright.devices[PHONE_DEVICE])
    phone["viewport"] = dict(PHONE_VIEWPORT)
    phone["screen"] = dict(PHONE_VIEWPORT)
    phone.pop("default_browser_type", None)
    return {**browser_context_args, **phone}


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """Where screenshots for a human to look at go (outside the repository)."""
    path = Path(os.environ.get("E2E_SCREENSHOT_DIR", "/tmp/e2e-screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def table_api(playwright: Playwright, live_server: str) -> Iterator[TableApi]:
    """A JSON client of the live server (no browser involved)."""
    request = playwright.request.new_context(base_url=live_server)
    try:
        yield TableApi(request)
    finally:
        request.dispose()


@pytest.fixture
def new_context(new_context: CreateContextCallback) -> CreateContextCallback:
    """Contexts whose actions give up after 10 s rather than Playwright's 30 s."""

    def make(**kwargs: Any) -> BrowserContext:
        context = new_context(**kwargs)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        return context

    return cast(CreateContextCallback, make)
