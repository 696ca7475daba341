"""Finding tiles: geometry helpers, drawn tiles, and synthetic scenes with known answers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.vision_scenes import draw_tile as _draw_tile
from tests.vision.vision_scenes import iou as _iou
from tests.vision.vision_scenes import table as _table
from training.classical_finder import divider_strength, find_tiles
from vision.geometry import order_corners


def test_order_corners_is_clockwise_from_top_left_with_long_first_edge() -> None:
    rng = np.random.default_rng(1)
    for _ in range(50):
        angle = rng.uniform(-np.pi, np.pi)
        c, s = np.cos(angle), np.sin(angle)
        box = np.array([[-40, -20], [40, -20], [40, 20], [-40, 20]], dtype=np.float32) @ np.array(
            [[c, s], [-s, c]], dtype=np.float32
        )
        shuffled = rng.permutation(box + 100)
        ordered = order_corners(shuffled)
        edges = np.linalg.norm(ordered - np.roll(ordered, -1, axis=0), axis=1)
        assert edges[0] > edges[1], "the first edge must be a long edge"
        first, second = ordered[1] - ordered[0], ordered[2] - ordered[1]
        cross = first[0] * second[1] - first[1] * second[0]
        assert cross > 0, "clockwise on screen (y down) means a positive cross product"
        assert sorted(map(tuple, ordered.tolist())) == sorted(map(tuple, shuffled.tolist()))


def test_divider_strength_tells_face_up_from_face_down() -> None:
    image = _table()
    up = order_corners(_draw_tile(image, (250, 300), 0.3, 200).astype(np.float32))
    down = order_corners(_draw_tile(image, (560, 300), -0.4, 200, face_up=False).astype(np.float32))
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert divider_strength(gray, up) > 0.8
    assert divider_strength(gray, down) < 0.2


def test_finds_separate_rotated_tiles_and_ignores_backs_and_cut_tiles() -> None:
    image = _table(700, 1000)
    truths = [
        _draw_tile(image, (200, 200), 0.0, 180),
        _draw_tile(image, (520, 230), 0.9, 170),
        _draw_tile(image, (300, 500), -0.5, 190),
    ]
    _draw_tile(image, (760, 520), 0.2, 180, face_up=False)  # a face-down tile
    _draw_tile(image, (990, 150), 1.2, 180)  # cut by the right edge
    found = find_tiles(image)
    assert len(found) == 3, f"expected the 3 whole face-up tiles, found {len(found)}"
    for truth in truths:
        assert max(_iou(truth, quad) for quad in found) > 0.8


def test_finds_black_tiles_with_white_pips() -> None:
    image = np.full((600, 800, 3), 175, dtype=np.uint8)
    truth = _draw_tile(image, (400, 300), 0.4, 220, body=(25, 25, 25), ink=(245, 245, 245))
    found = find_tiles(image)
    assert len(found) == 1
    assert _iou(truth, found[0]) > 0.8


def test_splits_a_row_of_touching_tiles() -> None:
    image = _table(600, 1000)
    truths = []
    for index in range(3):
        truths.append(_draw_tile(image, (300 + index * 92, 300), np.pi / 2, 180))
        # the thin dark seam real touching tiles show
    for index in range(1, 3):
        x = int(300 + index * 92 - 46)
        cv2.line(image, (x, 210), (x, 390), (40, 40, 40), 2)
    found = find_tiles(image)
    assert len(found) == 3, f"expected 3 tiles, found {len(found)}"
    for truth in truths:
        assert max(_iou(truth, quad) for quad in found) > 0.7


def test_an_empty_table_has_no_tiles() -> None:
    assert find_tiles(_table()) == []
    assert find_tiles(np.zeros((50, 80, 3), dtype=np.uint8)) == []


def test_corners_come_back_in_full_resolution_coordinates() -> None:
    image = cv2.resize(_table(600, 800), (3200, 2400), interpolation=cv2.INTER_NEAREST)
    truth = _draw_tile(image, (1600, 1200), 0.25, 800)
    found = find_tiles(image)
    assert len(found) == 1
    assert _iou(truth, found[0]) > 0.85


synth = pytest.importorskip("training.synth")


def test_recall_on_synthetic_scenes() -> None:
    """Fixed seeds; the floor sits just under what the finder measured, to catch regressions."""
    found_true = total = false = 0
    for seed in range(1000, 1006):
        scene = synth.render_scene(seed, n_tiles=(2, 6))
        quads = find_tiles(scene.image)
        truths = [t.corners for t in scene.tiles]
        matched = sum(1 for truth in truths if any(_iou(truth, quad) > 0.5 for quad in quads))
        found_true += matched
        total += len(truths)
        false += max(len(quads) - matched, 0)
    recall = found_true / total
    assert recall >= RECALL_FLOOR, f"synthetic recall {recall:.2f} below {RECALL_FLOOR}"
    assert false <= MAX_FALSE, f"{false} false tiles on the synthetic batch"


RECALL_FLOOR = 0.45  # measured 0.59 when set; 0.48 since the renderer draws domed pips
MAX_FALSE = 2
