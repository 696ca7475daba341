"""The overlay of a photo's reading: outlines scaled to the shown photo, reading order, chips."""

from __future__ import annotations

import io
import math
import re

import numpy as np
import pytest
from flask import Flask, render_template_string
from PIL import Image

from companion.photo_overlay import (
    HINT_LABEL,
    LabelFit,
    Overlay,
    ReadTile,
    Shape,
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
# On a 360-px phone the photo is shown 340 px wide (the page's margins); labels smaller than
# 9 px there are not read at arm's length.
PHONE_PHOTO_PX = 340
SMALLEST_LABEL_PX = 9

Rect = tuple[float, float, float, float]


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


@pytest.mark.skipif(not DEFAULT_HALF_MODEL.is_file(), reason="models/halves-int8.onnx is not built")
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


def _grid(
    rows: int, columns: int, tile: tuple[int, int], at: tuple[int, int] = (0, 0)
) -> list[ReadTile]:
    """Tiles laid touching in a grid, photo pixels; every third read unsure."""
    width, height = tile
    return [
        ReadTile(
            (row * columns + column) % 13,
            column % 7,
            0.5 if (row * columns + column) % 3 == 0 else 0.95,
            _box(at[0] + column * width, at[1] + row * height, width, height),
        )
        for row in range(rows)
        for column in range(columns)
    ]


def _rect(corners: tuple[tuple[float, float], ...]) -> Rect:
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _label_rect(shape: Shape, overlay: Overlay) -> Rect:
    """The room a label takes, as the issue estimates it: 0.6 em a character wide and 1.2 em
    high, for the longest text it can show (a tile's label is rewritten after a fix)."""
    size = overlay.font_size if shape.number else overlay.hint_font_size
    texts = [shape.text]
    if shape.number and shape.fit is LabelFit.FULL:
        texts += [f"{shape.number}: removed", f"{shape.number}: 12-12 ?"]
    width, height = 0.6 * size * max(len(text) for text in texts), 1.2 * size
    x, y = shape.label_point
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def _overlapping(first: Rect, second: Rect) -> bool:
    return (
        first[0] < second[2]
        and second[0] < first[2]
        and first[1] < second[3]
        and second[1] < first[3]
    )


def _gap(first: Rect, second: Rect) -> float:
    across = max(first[0] - second[2], second[0] - first[2], 0.0)
    down = max(first[1] - second[3], second[1] - first[3], 0.0)
    return math.hypot(across, down)


def _labelled(overlay: Overlay) -> list[Shape]:
    return [shape for shape in (*overlay.tiles, *overlay.hints) if shape.text]


def _label_px(overlay: Overlay, size: float) -> float:
    return size * PHONE_PHOTO_PX / overlay.width


CROWDED = {
    # 20 tiles, 100 x 50 units shown, touching in 4 rows of 5 in the middle of the photo.
    "landscape": ((4000, 3000), _grid(4, 5, (400, 200), at=(1000, 1000))),
    # The same from a phone held upright (an EXIF-turned photo, decoded upright), the grid
    # in the photo's top left corner, so labels must keep inside it.
    "portrait": ((3000, 4000), _grid(4, 5, (400, 200))),
    # 20 tiles standing upright, 2 rows of 10.
    "standing": ((4000, 3000), _grid(2, 10, (200, 400), at=(100, 800))),
}


@pytest.mark.parametrize("case", CROWDED.values(), ids=CROWDED.keys())
def test_labels_of_a_crowded_photo_do_not_overlap_and_each_stays_by_its_tile(
    case: tuple[tuple[int, int], list[ReadTile]],
) -> None:
    size, tiles = case
    hint = _box(size[0] - 700, size[1] - 500, 400, 200)
    overlay = build_overlay(size, tiles, [hint], DOUBLE_BLANK_50, check_below=0.9)
    assert len(overlay.tiles) == 20
    labelled = _labelled(overlay)
    assert len(labelled) >= 20, "every tile keeps a label"
    rects = [_label_rect(shape, overlay) for shape in labelled]
    for index, rect in enumerate(rects):
        for other in rects[index + 1 :]:
            assert not _overlapping(rect, other), (labelled[index].text, rect, other)
    outlines = [_rect(shape.corners) for shape in (*overlay.tiles, *overlay.hints)]
    for shape, rect in zip(labelled, rects, strict=True):
        assert 0 <= rect[0] and rect[2] <= overlay.width, f"{shape.text} is off the photo"
        assert 0 <= rect[1] and rect[3] <= overlay.height, f"{shape.text} is off the photo"
        own = _rect(shape.corners)
        assert _gap(rect, own) <= 1.5 * overlay.font_size, f"{shape.text} is far from its tile"
        # Its middle lies on no other shape, where it would read as that shape's label.
        x, y = shape.label_point
        assert not any(
            left < x < right and top < y < bottom
            for left, top, right, bottom in outlines
            if (left, top, right, bottom) != own
        ), f"{shape.text} sits on another tile"
    assert _label_px(overlay, overlay.font_size) >= SMALLEST_LABEL_PX
    # Where a whole label has no room, the tile keeps its number; most keep their reading.
    for shape in overlay.tiles:
        assert shape.text in (str(shape.number), f"{shape.number}: {shape.label}" + (
            " ?" if shape.unsure else ""))  # fmt: skip
    assert sum(shape.fit is LabelFit.FULL for shape in overlay.tiles) >= 12


def test_a_usual_photo_keeps_whole_labels_at_the_tile_centres_at_the_usual_size() -> None:
    tiles = [
        ReadTile(12, 5, 0.5, _box(400, 400, 800, 400)),
        ReadTile(6, 4, 0.95, _box(1800, 500, 800, 400)),
        ReadTile(3, 0, 0.95, _box(1000, 1700, 400, 800)),
    ]
    hint = _box(2800, 2000, 800, 400)
    overlay = build_overlay((4000, 3000), tiles, [hint], DOUBLE_BLANK_50, check_below=0.9)
    assert (overlay.font_size, overlay.hint_font_size) == (33.3, 26.6)
    assert [shape.text for shape in overlay.tiles] == ["1: 12-5 ?", "2: 6-4", "3: 3-0"]
    assert overlay.hints[0].text == HINT_LABEL
    for shape in (*overlay.tiles, *overlay.hints):
        assert shape.fit is LabelFit.FULL
        assert shape.label_point == pytest.approx(shape.centre, abs=0.05)
    assert not overlay.numbers_only


@pytest.mark.parametrize("size", [(4000, 3000), (3000, 4000)])
def test_labels_never_shrink_below_what_a_phone_shows_readably(size: tuple[int, int]) -> None:
    # 100 tiles 60 units long: far more than fit, whole, anywhere.
    tiles = _grid(10, 10, (240, 120))
    hints = [_box(size[0] - 500, size[1] - 300, 240, 120)]
    overlay = build_overlay(size, tiles, hints, DOUBLE_BLANK_50, check_below=0.9)
    assert _label_px(overlay, overlay.font_size) >= SMALLEST_LABEL_PX
    assert _label_px(overlay, overlay.hint_font_size) >= SMALLEST_LABEL_PX
    assert overlay.numbers_only
    assert all(shape.text.startswith(str(shape.number)) for shape in overlay.tiles)


def test_the_page_draws_each_label_where_it_was_laid_out(app: Flask) -> None:
    size, tiles = CROWDED["landscape"]
    overlay = build_overlay(size, tiles, [], DOUBLE_BLANK_50, check_below=0.9)
    with app.app_context():
        html = render_template_string(
            '{% from "_photo_overlay.html" import photo_overlay %}{{ photo_overlay(o, "k") }}',
            o=overlay,
        )
    drawn = re.findall(
        r'<g class="read-tile[^"]*" data-number="(\d+)"( data-number-only)?>\s*<polygon[^>]*>'
        r"</polygon>\s*(?:<line[^>]*></line>)*"  # a leader line for a label set off its tile
        r'\s*<text x="([\d.]+)" y="([\d.]+)" font-size="([\d.]+)"[^>]*>([^<]*)</text>',
        html,
    )
    assert len(drawn) == len(overlay.tiles)
    for shape, (number, number_only, x, y, font, text) in zip(overlay.tiles, drawn, strict=True):
        assert int(number) == shape.number
        assert (float(x), float(y)) == pytest.approx(shape.label_point, abs=0.05)
        assert float(font) == overlay.font_size
        assert text == shape.text
        # The page script keeps a number-only label so after a fix.
        assert bool(number_only) == (shape.fit is LabelFit.SHORT)
    assert any(number_only for _, number_only, *_ in drawn)
    assert "its number alone where the tiles are crowded" in html


def test_every_label_is_drawn_again_after_all_outlines_so_none_is_crossed(app: Flask) -> None:
    size, tiles = CROWDED["landscape"]
    hint = ((10, 10), (200, 10), (200, 100), (10, 100))
    overlay = build_overlay(size, tiles, [hint], DOUBLE_BLANK_50, check_below=0.9)
    # A real page's key: a URL path, with the slashes and escapes an HTML id link can't carry.
    with app.app_context():
        html = render_template_string(
            '{% from "_photo_overlay.html" import photo_overlay %}{{ photo_overlay(o, k) }}',
            o=overlay,
            k="/games/3/rounds/1/photo/Zo%C3%AB",
        )
    ids = re.findall(r'<text [^>]*id="([^"]+)"', html)
    assert len(ids) == len(overlay.tiles) + sum(bool(h.text) for h in overlay.hints)
    assert all(re.fullmatch(r"[A-Za-z0-9-]+", label_id) for label_id in ids)
    drawn_again = re.findall(r'<use href="#([^"]+)"></use>', html)
    assert drawn_again == ids
    assert html.index("<use ") > html.rindex("<polygon ")


def _crowded(size: tuple[int, int] = (4000, 3000)) -> Overlay:
    """20 tiles touching in 4 rows of 5 and one hint: labels must move off their tiles."""
    tiles = []
    for index in range(20):
        x, y = 1000 + index % 5 * 400, 1000 + index // 5 * 200
        corners = ((x, y), (x + 400, y), (x + 400, y + 200), (x, y + 200))
        tiles.append(ReadTile(index % 13, index % 5, 0.5 if index % 3 else 0.95, corners))
    hint = ((3300, 2500), (3700, 2500), (3700, 2700), (3300, 2700))
    return build_overlay(size, tiles, [hint], Rules.from_json({}), check_below=0.9)


def _inside_box(point: tuple[float, float], corners: tuple[tuple[float, float], ...]) -> bool:
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs) < point[0] < max(xs) and min(ys) < point[1] < max(ys)


def test_a_label_set_off_its_tile_gets_a_leader_line_to_it() -> None:
    overlay = _crowded()
    on = [s for s in overlay.tiles if _inside_box(s.label_point, s.corners)]
    off = [s for s in overlay.tiles if s not in on and s.fit is not LabelFit.NONE]
    assert off and on, "a crowded photo moves some labels off their tiles and keeps others on"
    for shape in on:
        assert shape.leader is None
    for shape in off:
        assert shape.leader is not None, shape
        start, end = shape.leader
        assert start == shape.label_point
        xs, ys = [c[0] for c in shape.corners], [c[1] for c in shape.corners]
        on_edge = (min(xs) <= end[0] <= max(xs) and min(ys) <= end[1] <= max(ys)) and (
            min(abs(end[0] - x) for x in xs) < 0.1 or min(abs(end[1] - y) for y in ys) < 0.1
        )
        assert on_edge, (shape.number, end)
        # The nearest point of the outline: no corner is nearer than the line's end.
        assert all(math.dist(start, end) <= math.dist(start, c) + 0.1 for c in shape.corners)


def test_leader_lines_are_drawn_in_the_page(app: Flask) -> None:
    overlay = _crowded()
    with app.app_context():
        html = render_template_string(
            '{% from "_photo_overlay.html" import photo_overlay %}{{ photo_overlay(o, "k") }}',
            o=overlay,
        )
    led = sum(1 for shape in (*overlay.tiles, *overlay.hints) if shape.leader)
    assert led and html.count('<line class="leader"') == led
