"""The overlay of a photo's reading: outlines scaled to the shown photo, reading order, chips."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from companion.photo_overlay import (
    HINT_LABEL,
    ReadTile,
    build_overlay,
    chips_for,
    display_box,
    reading_order,
    scale_corners,
)
from companion.rules import Rules, full_set, tile_points
from training.synth import render_scene
from vision.geometry import outline_iou
from vision.halves import DEFAULT_HALF_MODEL

DOUBLE_BLANK_50 = Rules.from_json({"blank_scoring": "double_blank_50"})


def _points(rules: Rules) -> dict[str, int]:
    return {str(tile): tile_points(tile, rules.blank_scoring) for tile in full_set(rules.set_max)}


def _box(x: float, y: float, width: float = 80, height: float = 40) -> tuple[tuple[int, int], ...]:
    return (
        (round(x), round(y)),
        (round(x + width), round(y)),
        (round(x + width), round(y + height)),
        (round(x), round(y + height)),
    )


def test_corners_are_stretched_from_the_photo_into_the_box_it_is_shown_in() -> None:
    corners = [(0, 0), (4000, 0), (4000, 3000), (0, 3000), (1000, 750)]
    assert scale_corners(corners, (4000, 3000), (1000, 750)) == (
        (0.0, 0.0),
        (1000.0, 0.0),
        (1000.0, 750.0),
        (0.0, 750.0),
        (250.0, 187.5),
    )
    # A box of another shape stretches each axis on its own (the SVG is stretched likewise).
    assert scale_corners([(2000, 1500)], (4000, 3000), (100, 300)) == ((50.0, 150.0),)
    with pytest.raises(ValueError):
        scale_corners([(1, 1)], (0, 10), (10, 10))


@pytest.mark.parametrize(
    ("size", "box"),
    [((4000, 3000), (1000, 750)), ((3000, 4000), (750, 1000)), ((640, 640), (1000, 1000))],
)
def test_the_display_box_keeps_the_photos_shape(
    size: tuple[int, int], box: tuple[float, float]
) -> None:
    assert display_box(*size) == box


def test_tiles_are_numbered_in_rows_top_to_bottom_each_left_to_right() -> None:
    # Two rows, the second a little crooked, given in a shuffled order.
    outlines = [
        _box(300, 220),  # row 2, third
        _box(10, 12),  # row 1, first
        _box(200, 0),  # row 1, second (a little higher than the first)
        _box(20, 205),  # row 2, first
        _box(160, 230),  # row 2, second
    ]
    assert reading_order(outlines) == [1, 2, 3, 4, 0]
    assert reading_order([]) == []
    # Rows of tiles lying side by side, touching (centres one tile width apart), stay apart.
    touching = [_box(100, 40), _box(0, 40), _box(100, 0), _box(0, 0)]
    assert reading_order(touching) == [3, 2, 1, 0]


def test_chips_keep_a_running_total_under_the_blank_rule() -> None:
    points = _points(DOUBLE_BLANK_50)
    chips = chips_for([("12-5", False), ("0-0", True), ("3-0", False)], DOUBLE_BLANK_50, points)
    assert [chip.total for chip in chips] == [17, 67, 70]
    assert [chip.number for chip in chips] == [1, 2, 3]
    assert [chip.note for chip in chips] == ["", "check this tile", ""]
    assert [chip.unsure for chip in chips] == [False, True, False]


def test_a_tile_read_twice_or_outside_the_set_is_marked_and_not_counted_twice() -> None:
    rules = Rules.from_json({"set_max": 6})
    points = _points(rules)
    chips = chips_for([("6-3", False), ("9-2", False), ("6-3", False)], rules, points)
    assert [chip.counted for chip in chips] == [True, False, False]
    assert [chip.total for chip in chips] == [9, 9, 9]
    assert chips[0].note == "read twice: check this tile"
    assert chips[1].note == "not in a double-6 set: change it"
    assert chips[2].note == "read twice, the set has one: change or remove it"
    assert all(chip.unsure for chip in chips)


def test_the_overlay_numbers_labels_and_scales_the_tiles_and_keeps_hints_apart() -> None:
    tiles = [
        ReadTile(6, 4, 0.95, _box(2000, 400, 400, 200)),
        ReadTile(12, 5, 0.5, _box(400, 420, 400, 200)),
    ]
    hint = _box(400, 2000, 400, 200)
    overlay = build_overlay((4000, 3000), tiles, [hint], DOUBLE_BLANK_50, check_below=0.9)
    assert (overlay.width, overlay.height) == (1000, 750)
    assert overlay.view_box == "0 0 1000 750"
    first, second = overlay.tiles
    assert (first.number, first.label, first.unsure) == (1, "12-5", True)
    assert (second.number, second.label, second.unsure) == (2, "6-4", False)
    assert first.corners[0] == (100.0, 105.0)
    assert first.points.startswith("100.0,105.0 200.0,105.0 ")
    assert [chip.total for chip in overlay.chips] == [17, 27]
    (shape,) = overlay.hints
    assert shape.label == HINT_LABEL and shape.number == 0
    assert shape.corners[0] == (100.0, 500.0)
    data = overlay.to_json()
    assert [chip["label"] for chip in data["chips"]] == ["12-5", "6-4"]
    assert data["tile_points"]["0-0"] == 50
    assert len(data["tile_points"]) == len(full_set(12))


@pytest.mark.skipif(not DEFAULT_HALF_MODEL.is_file(), reason="models/halves.onnx is not built")
def test_outlines_of_a_photo_turned_by_its_exif_orientation_land_on_the_upright_tiles() -> None:
    from vision.pipeline import HandReader

    scene = render_scene(2, n_tiles=(3, 6), size=(960, 720))
    upright = Image.fromarray(np.ascontiguousarray(scene.image[:, :, ::-1]))
    # Stored turned a quarter to the left, with orientation 6 ("turn right to view").
    stored = upright.transpose(Image.Transpose.ROTATE_90)
    exif = Image.Exif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    stored.save(buffer, format="JPEG", quality=92, exif=exif.tobytes())

    reading = HandReader().read(buffer.getvalue())
    assert (reading.width, reading.height) == (960, 720), "sizes are the upright photo's"
    assert reading.tiles, "the scene's tiles are read"
    tiles = [ReadTile(*tile.pips, tile.confidence, tile.corners) for tile in reading.tiles]
    overlay = build_overlay((reading.width, reading.height), tiles, [], DOUBLE_BLANK_50, 0.9)
    assert (overlay.width, overlay.height) == (1000, 750)
    truth = [
        np.asarray(scale_corners(tile.corners.tolist(), (960, 720), (1000, 750)), np.float32)
        for tile in scene.tiles
    ]
    for shape in overlay.tiles:
        drawn = np.asarray(shape.corners, np.float32)
        best = max(truth, key=lambda outline: outline_iou(outline, drawn))
        assert outline_iou(best, drawn) > 0.5, f"outline {shape.number} is on no upright tile"
