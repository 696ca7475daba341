"""Photo scoring in the round form: read a hand from a photo into the tile picker, then save.

Tests of bad input and of a server without the model run always (the photo is judged before
the model is needed); tests that need a real reading skip when models/halves-int8.onnx is absent.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from companion.photo_overlay import display_box
from companion.photos import CHECK_BELOW, tiles_for_picker
from companion.rules import Rules, Tile, score_hand
from tests.conftest import GameActions
from training.synth import render_scene
from vision.halves import DEFAULT_HALF_MODEL

needs_model = pytest.mark.skipif(
    not DEFAULT_HALF_MODEL.is_file(), reason=f"half-reader model not found: {DEFAULT_HALF_MODEL}"
)
SCENE_SEED = 2


def scene_jpeg(seed: int = SCENE_SEED) -> bytes:
    """A synthetic photo of a few tiles, JPEG-encoded as a phone would send it."""
    ok, encoded = cv2.imencode(".jpg", render_scene(seed, n_tiles=(3, 6)).image)
    assert ok
    return encoded.tobytes()


def image_bytes(width: int, height: int, fmt: str) -> bytes:
    """A plain grey picture in the given format (no tiles in it)."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (120, 120, 120)).save(buffer, format=fmt)
    return buffer.getvalue()


@pytest.fixture
def game(client: FlaskClient, games: GameActions) -> dict[str, Any]:
    """A claimed three-player game (this client may edit it)."""
    created = games.create(["Ann", "Bob", "Cy"], {"blank_scoring": "double_blank_50"})
    games.claim(created)
    return created


@pytest.fixture(
    params=[
        "PHOTO_MODEL_PATH",
        "PHOTO_FINDER_PATH",
        "PHOTO_CLOSE_UP_FINDER_PATH",
        "PHOTO_FACE_DOWN_PATH",
        "PHOTO_FITTER_PATH",
    ]
)
def missing_model(app: Flask, tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """Point the app at a model file that does not exist (each of the five in turn)."""
    path = tmp_path / "no-such-model.onnx"
    app.config[request.param] = str(path)
    return path


def send_photo(
    client: FlaskClient,
    game: dict[str, Any],
    data: bytes | None,
    *,
    seat: int = 0,
    filename: str = "hand.jpg",
    typed: dict[str, str] | None = None,
) -> Any:
    """Post the round form with a photo for ``seat``, as the "Read the photo" button does."""
    form: dict[str, Any] = dict(typed or {})
    if data is not None:
        form[f"photo-{seat}"] = (io.BytesIO(data), filename)
    return client.post(
        f"/games/{game['id']}/rounds/1/tiles/{seat}/photo",
        data=form,
        content_type="multipart/form-data",
    )


def field_error(html: str, field: str) -> str:
    match = re.search(rf'<p class="field-error" id="{field}-error"[^>]*>(.*?)</p>', html, re.S)
    assert match, f"no error shown next to {field}"
    return match.group(1).replace("&#39;", "'")


def ticked_tiles(html: str) -> set[str]:
    return set(re.findall(r'name="tile" value="([0-9]+-[0-9]+)" checked', html))


def marked_tiles(html: str) -> set[str]:
    return set(
        re.findall(
            r'<label class="tile[^"]*unsure">\s*<input type="checkbox" name="tile" '
            r'value="([0-9]+-[0-9]+)"',
            html,
        )
    )


def round_one(games: GameActions, game: dict[str, Any]) -> dict[str, Any]:
    scores: dict[str, Any] = games.get(game["id"])["rounds"][0]["scores"]
    return scores


# --- the round form ---------------------------------------------------------------------


def test_round_form_offers_a_labelled_camera_input_per_player(
    client: FlaskClient, game: dict[str, Any], app: Flask, tmp_path: Path
) -> None:
    model = tmp_path / "model.onnx"
    model.write_bytes(b"present")
    app.config["PHOTO_MODEL_PATH"] = str(model)
    html = client.get(f"/games/{game['id']}").get_data(as_text=True)
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        assert f'<label for="photo-{seat}">Photograph {name}\'s tiles</label>' in html
        field = re.search(rf'<input id="photo-{seat}"[^>]*>', html)
        assert field
        assert 'type="file"' in field.group(0)
        assert 'accept="image/*"' in field.group(0)
        assert 'capture="environment"' in field.group(0)
        assert f'formaction="/games/{game["id"]}/rounds/1/tiles/{seat}/photo"' in html
    assert 'formenctype="multipart/form-data"' in html


def test_read_only_view_has_no_photo_input(client: FlaskClient, game: dict[str, Any]) -> None:
    html = client.get(f"/games/{game['id']}/view").get_data(as_text=True)
    assert "Photograph" not in html
    assert 'type="file"' not in html


def test_missing_model_is_said_on_the_form_instead_of_an_input(
    client: FlaskClient, game: dict[str, Any], missing_model: Path
) -> None:
    html = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Photo reading is not available on this server" in html
    assert 'type="file"' not in html


def test_missing_model_answers_a_good_photo_plainly_and_keeps_typed_scores(
    client: FlaskClient, games: GameActions, game: dict[str, Any], missing_model: Path
) -> None:
    response = send_photo(client, game, image_bytes(320, 240, "JPEG"), typed={"points-1": "17"})
    html = response.get_data(as_text=True)
    assert response.status_code == 503
    assert "Photo reading is not available on this server" in field_error(html, "photo-0")
    assert 'id="points-1" name="points-1"' in html and 'value="17"' in html
    assert round_one(games, game) == {}


# --- bad photos: a message by the field, the round form as it was, nothing saved ----------


@pytest.mark.parametrize(
    ("data", "filename", "expected"),
    [
        (b"\xff\xd8\xff\xe0 broken jpeg" + bytes(range(256)), "hand.jpg", "can't be read"),
        (b"Ann 12, Bob 3: not a photo at all", "scores.txt", "not an image"),
        (b"", "hand.jpg", "The photo is empty"),
    ],
    ids=["corrupt", "not-an-image", "empty"],
)
def test_unreadable_upload_is_explained_next_to_the_field(
    client: FlaskClient,
    games: GameActions,
    game: dict[str, Any],
    data: bytes,
    filename: str,
    expected: str,
) -> None:
    games.put_round(game, 1, {"Cy": {"points": 9}})
    response = send_photo(
        client,
        game,
        data,
        filename=filename,
        typed={"points-1": "23", "out-2": "on", "points-0": ""},
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert expected in field_error(html, "photo-0")
    assert "Traceback" not in html
    # What was typed comes back (Bob's 23, Cy ticked out), and the stored round is untouched.
    assert re.search(r'id="points-1" name="points-1"[^>]*value="23"', html, re.S)
    assert re.search(r'name="out-2" class="went-out" checked', html)
    assert round_one(games, game) == {"Cy": {"points": 9}}


def test_no_file_chosen_asks_for_one(client: FlaskClient, game: dict[str, Any]) -> None:
    response = send_photo(client, game, None, typed={"points-2": "4"})
    assert response.status_code == 400
    assert "Choose a photo" in field_error(response.get_data(as_text=True), "photo-0")


def test_photo_with_too_many_pixels_is_refused_by_its_header(
    client: FlaskClient, app: Flask, game: dict[str, Any]
) -> None:
    app.config["PHOTO_MAX_PIXELS"] = 100_000
    response = send_photo(client, game, image_bytes(640, 480, "PNG"), filename="big.png")
    message = field_error(response.get_data(as_text=True), "photo-0")
    assert response.status_code == 400
    assert "too large (640x480 pixels" in message


def test_photo_over_the_byte_limit_keeps_the_round_form(
    client: FlaskClient, app: Flask, games: GameActions, game: dict[str, Any]
) -> None:
    games.put_round(game, 1, {"Bob": {"points": 31}})
    app.config["MAX_CONTENT_LENGTH"] = 4096
    response = send_photo(client, game, bytes(10_000), seat=2, typed={"points-0": "5"})
    html = response.get_data(as_text=True)
    assert response.status_code == 413
    assert "too large to send (the limit is 4 kB)" in field_error(html, "photo-2")
    # The body was refused unread, so the form shows the stored round (the page script puts
    # back the unsaved draft); the stored round is intact.
    assert re.search(r'id="points-1" name="points-1"[^>]*value="31"', html, re.S)
    assert round_one(games, game)["Bob"]["points"] == 31


def test_oversized_post_elsewhere_still_gets_the_error_page(
    client: FlaskClient, app: Flask, game: dict[str, Any]
) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 1024
    response = client.post(f"/games/{game['id']}/rounds/1", data={"points-0": "1" * 5000})
    assert response.status_code == 413
    assert "That upload is too big" in response.get_data(as_text=True)


def test_photo_needs_the_edit_rights(client: FlaskClient, games: GameActions) -> None:
    created = games.create(["Ann", "Bob"])  # not claimed: this phone can't edit it
    response = send_photo(client, created, image_bytes(64, 48, "PNG"))
    assert response.status_code == 401
    assert round_one(games, created) == {}


def test_heic_photo_is_decoded(
    client: FlaskClient, game: dict[str, Any], missing_model: Path
) -> None:
    # With no model the photo is still decoded first: a HEIC file gets "not available", not
    # "can't be read".
    heic = image_bytes(320, 240, "HEIF")
    response = send_photo(client, game, heic, filename="IMG_0001.HEIC")
    assert "not available on this server" in field_error(response.get_data(as_text=True), "photo-0")


def test_uploads_are_not_stored(client: FlaskClient, app: Flask, game: dict[str, Any]) -> None:
    before = {path.name for path in Path(app.instance_path).iterdir()}
    send_photo(client, game, b"garbage")
    after = {path.name for path in Path(app.instance_path).iterdir()}
    assert after <= before


def test_picker_offers_the_photo_too(
    client: FlaskClient, game: dict[str, Any], app: Flask, tmp_path: Path
) -> None:
    model = tmp_path / "model.onnx"
    model.write_bytes(b"present")
    app.config["PHOTO_MODEL_PATH"] = str(model)
    html = client.get(f"/games/{game['id']}/rounds/1/tiles/1").get_data(as_text=True)
    assert '<label for="photo-1">Photograph Bob\'s tiles</label>' in html
    assert f'formaction="/games/{game["id"]}/rounds/1/tiles/1/photo?from=picker"' in html


def test_bad_photo_sent_from_the_picker_keeps_the_ticked_tiles(
    client: FlaskClient, games: GameActions, game: dict[str, Any]
) -> None:
    response = client.post(
        f"/games/{game['id']}/rounds/1/tiles/1/photo?from=picker",
        data={"tile": ["6-3", "0-0"], "photo-1": (io.BytesIO(b"not a photo"), "a.jpg")},
        content_type="multipart/form-data",
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Bob's tiles, round 1" in html
    assert "not an image" in field_error(html, "photo-1")
    assert ticked_tiles(html) == {"6-3", "0-0"}
    assert round_one(games, game) == {}


def test_photo_too_large_for_the_picker_comes_back_to_the_picker(
    client: FlaskClient, app: Flask, games: GameActions, game: dict[str, Any]
) -> None:
    games.put_round(game, 1, {"Bob": {"tiles": [[5, 4]]}})
    # Kept under the test client's 500 kB spill-to-disk size: a refused body is never read,
    # and an unread temporary file would be left open.
    app.config["MAX_CONTENT_LENGTH"] = 100 * 1024
    response = client.post(
        f"/games/{game['id']}/rounds/1/tiles/1/photo?from=picker",
        data={"photo-1": (io.BytesIO(bytes(200 * 1024)), "big.jpg")},
        content_type="multipart/form-data",
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 413
    assert "Bob's tiles, round 1" in html
    assert "the limit is 100 kB" in field_error(html, "photo-1")
    assert ticked_tiles(html) == {"5-4"}


# --- turning a reading into picker ticks ----------------------------------------------------


def test_reading_marks_unsure_tiles_and_scores_under_the_blank_rule() -> None:
    rules = Rules.from_json({"blank_scoring": "double_blank_50"})
    read = [(Tile(6, 3), 0.99), (Tile(0, 0), 0.95), (Tile(5, 2), CHECK_BELOW - 0.01)]
    photo = tiles_for_picker(read, rules)
    assert set(photo.tiles) == {Tile(6, 3), Tile(0, 0), Tile(5, 2)}
    assert photo.unsure == {"5-2"}
    assert photo.points == 9 + 50 + 7
    assert photo.problems == ()


def test_reading_a_tile_twice_or_outside_the_set_is_flagged() -> None:
    rules = Rules.from_json({"set_max": 9})
    read = [(Tile(4, 4), 0.97), (Tile(4, 4), 0.96), (Tile(11, 2), 0.99)]
    photo = tiles_for_picker(read, rules)
    assert photo.tiles == (Tile(4, 4),)
    assert photo.unsure == {"4-4"}
    assert any("4-4 twice" in problem for problem in photo.problems)
    assert any("11-2" in problem and "double-9" in problem for problem in photo.problems)


# --- a real reading (needs the model) -------------------------------------------------------


@needs_model
def test_photo_fills_the_picker_and_saves_only_when_confirmed(
    client: FlaskClient, games: GameActions, game: dict[str, Any]
) -> None:
    from vision.pipeline import read_hand

    photo = scene_jpeg()
    expected = read_hand(photo)
    response = send_photo(client, game, photo, typed={"points-1": "12"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    read_tiles = {str(Tile(*tile.pips)) for tile in expected.tiles}
    assert ticked_tiles(html) == read_tiles
    unsure = {str(Tile(*t.pips)) for t in expected.tiles if t.confidence < CHECK_BELOW}
    assert marked_tiles(html) == unsure
    assert html.count('class="check-note"') == len(unsure), "one mark per unsure tile in the grid"
    # The same reading listed as chips, one per tile read, each numbered, unsure ones marked in
    # words; and drawn as outlines for the page script to lay over the photo.
    chips = re.findall(
        r'<li class="chip( unsure)?[^"]*">\s*<span class="chip-number">(\d+)</span>\s*'
        r'<span class="chip-label">([0-9]+-[0-9]+)</span>',
        html,
    )
    assert sorted(label for _, _, label in chips) == sorted(
        str(Tile(*tile.pips)) for tile in expected.tiles
    )
    assert [int(number) for _, number, _ in chips] == list(range(1, len(chips) + 1))
    unsure_reads = sum(tile.confidence < CHECK_BELOW for tile in expected.tiles)
    assert sum(bool(mark) for mark, _, _ in chips) == unsure_reads
    assert html.count("? check this tile") == unsure_reads
    assert html.count('<g class="read-tile') == len(expected.tiles)
    box = display_box(expected.width, expected.height)
    assert f'viewBox="0 0 {box[0]:g} {box[1]:g}"' in html
    rules = Rules.from_json({"blank_scoring": "double_blank_50"})
    points = score_hand([Tile.parse(text) for text in read_tiles], rules, went_out=not read_tiles)
    if read_tiles:
        assert f"Read {len(read_tiles)} tile" in html
        assert f"{points.points} point" in html
    assert f'action="/games/{game["id"]}/rounds/1/tiles/0"' in html
    assert round_one(games, game) == {}, "nothing is saved before the player confirms"

    # The player fixes the hand (the scene's true tiles) and saves through the picker.
    truth = [Tile(*tile.pips) for tile in render_scene(SCENE_SEED, n_tiles=(3, 6)).tiles]
    version = games.get(game["id"])["version"]
    saved = client.post(
        f"/games/{game['id']}/rounds/1/tiles/0",
        data={"tile": [str(tile) for tile in truth], "version": str(version)},
    )
    assert saved.status_code == 302
    stored = round_one(games, game)["Ann"]
    assert stored["points"] == score_hand(truth, rules).points


@needs_model
def test_heic_photo_is_read_like_a_jpeg(client: FlaskClient, game: dict[str, Any]) -> None:
    image = render_scene(SCENE_SEED, n_tiles=(3, 6)).image
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(image[:, :, ::-1])).save(buffer, format="HEIF")
    response = send_photo(client, game, buffer.getvalue(), filename="IMG_0002.HEIC")
    assert response.status_code == 200
    assert 'class="tile-form"' in response.get_data(as_text=True)
