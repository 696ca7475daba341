"""Photos under load: no database connection held while one is read, a bounded number read
at once per worker, and past a short wait a "busy, send it again" that keeps what was typed.

The reader is a stub here (what it sees is the point, not what it reads); the memory and
latency this buys under a real flood are measured by benchmarks/bench_photo_flood.py."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import photos
from companion.extensions import db
from tests.app.test_photo import field_error, image_bytes, send_photo
from tests.app.test_referee import OPEN_DOUBLE_SKIPPED
from tests.app.test_referee import field_error as referee_field_error
from tests.conftest import GameActions
from vision.types import HandReading


class StubReader:
    """Stands in for the hand reader: notes what the server holds while a photo is read."""

    def __init__(self, app: Flask, seconds: float = 0.0) -> None:
        self.app = app
        self.seconds = seconds
        self.connections_held: list[int] = []
        self.reading = 0
        self.most_at_once = 0
        self.lock = threading.Lock()

    def read(self, data: bytes, max_pips: int | None = None) -> HandReading:
        with self.lock:
            self.reading += 1
            self.most_at_once = max(self.most_at_once, self.reading)
        with self.app.app_context():
            self.connections_held.append(db.engine.pool.checkedout())  # type: ignore[attr-defined]
        time.sleep(self.seconds)
        with self.lock:
            self.reading -= 1
        return HandReading(width=320, height=240, tiles=(), ms=0)


@pytest.fixture
def stub(app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[StubReader]:
    """Every photo goes to a StubReader (the model files only need to exist)."""
    for key in (
        "PHOTO_MODEL_PATH",
        "PHOTO_FINDER_PATH",
        "PHOTO_CLOSE_UP_FINDER_PATH",
        "PHOTO_FACE_DOWN_PATH",
        "PHOTO_FITTER_PATH",
    ):
        path = tmp_path / f"{key}.onnx"
        path.write_bytes(b"stub")
        app.config[key] = str(path)
    reader = StubReader(app)
    monkeypatch.setattr(photos, "_hand_reader", lambda _path, _max_pixels: reader)
    yield reader


@pytest.fixture
def game(games: GameActions) -> dict[str, Any]:
    created = games.create(["Ann", "Bob", "Cy"], {"preset": "standard"})
    games.claim(created)
    return created


def test_no_database_connection_is_held_while_a_photo_is_read(
    client: FlaskClient, game: dict[str, Any], stub: StubReader
) -> None:
    response = send_photo(client, game, image_bytes(320, 240, "JPEG"))
    assert response.status_code == 200
    referee = client.post(
        f"/games/{game['id']}/referee/photo?ask=turn",
        data={**OPEN_DOUBLE_SKIPPED, "photo-target": "tiles",
              "photo": (io.BytesIO(image_bytes(320, 240, "JPEG")), "hand.jpg")},
        content_type="multipart/form-data",
    )  # fmt: skip
    assert referee.status_code == 200
    assert stub.connections_held == [0, 0]


def test_no_more_photos_are_read_at_once_than_the_worker_allows(
    app: Flask, stub: StubReader
) -> None:
    app.config["PHOTO_READS_AT_ONCE"] = 2
    stub.seconds = 0.3
    statuses: list[int] = []

    def send() -> None:
        # Each thread a client of its own, on the referee's photo reader (no game needed).
        response = app.test_client().post(
            "/referee/photo?ask=turn",
            data={"ask": "turn", "photo-target": "tiles",
                  "photo": (io.BytesIO(image_bytes(320, 240, "JPEG")), "hand.jpg")},
            content_type="multipart/form-data",
        )  # fmt: skip
        statuses.append(response.status_code)

    senders = [threading.Thread(target=send) for _ in range(6)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(timeout=30)
    assert statuses == [200] * 6
    assert len(stub.connections_held) == 6
    assert stub.most_at_once == 2


def test_a_photo_that_finds_every_slot_taken_is_sent_back_keeping_the_typed_scores(
    app: Flask, client: FlaskClient, game: dict[str, Any], stub: StubReader
) -> None:
    app.config["PHOTO_READS_AT_ONCE"] = 1
    app.config["PHOTO_READ_WAIT_SECONDS"] = 0.2
    slots = photos._reading_slots(1)
    assert slots.acquire(timeout=5)  # another photo is being read
    try:
        started = time.monotonic()
        response = send_photo(client, game, image_bytes(320, 240, "JPEG"), typed={"points-1": "17"})
        waited = time.monotonic() - started
        referee = client.post(
            f"/games/{game['id']}/referee/photo?ask=turn",
            data={**OPEN_DOUBLE_SKIPPED, "photo-target": "tiles",
                  "photo": (io.BytesIO(image_bytes(320, 240, "JPEG")), "hand.jpg")},
            content_type="multipart/form-data",
        )  # fmt: skip
    finally:
        slots.release()
    html = response.get_data(as_text=True)
    assert response.status_code == 503
    assert field_error(html, "photo-0") == photos.BUSY_MESSAGE
    assert 'id="points-1" name="points-1"' in html and 'value="17"' in html
    assert waited < 5
    assert referee.status_code == 503
    assert referee_field_error(referee.data, "photo") == photos.BUSY_MESSAGE
    assert 'name="act0-a" value="2" checked' in referee.data.decode()
    assert stub.connections_held == []  # neither was read


def test_a_photo_too_big_for_its_format_is_refused_without_waiting_for_a_slot(
    app: Flask, client: FlaskClient, game: dict[str, Any], stub: StubReader
) -> None:
    app.config["PHOTO_READS_AT_ONCE"] = 1
    app.config["PHOTO_READ_WAIT_SECONDS"] = 30
    slots = photos._reading_slots(1)
    assert slots.acquire(timeout=5)
    try:
        started = time.monotonic()
        response = send_photo(client, game, image_bytes(5200, 5000, "PNG"), filename="big.png")
        waited = time.monotonic() - started
    finally:
        slots.release()
    assert response.status_code == 400
    assert "too large to read as PNG (5200x5000 pixels" in field_error(
        response.get_data(as_text=True), "photo-0"
    )
    assert waited < 10
