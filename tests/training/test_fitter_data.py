"""The outline fitter's training samples: targets in the outline's own corner order, jittered
outlines near their faces, and whole scenes cut as the pipeline cuts them."""

from __future__ import annotations

import numpy as np
import pytest

from training.fitter_data import jittered_outline, matched_corners, scene_samples
from vision.finder import DEFAULT_FINDER_MODEL
from vision.fitting import CONTEXT_SIZE, to_context
from vision.geometry import edge_lengths, outline_iou

FACE = np.array([[400, 300], [560, 330], [545, 410], [385, 380]], np.float32)


def test_a_face_outlined_exactly_is_its_own_target() -> None:
    np.testing.assert_allclose(matched_corners(FACE, FACE), to_context(FACE, FACE), atol=1e-5)


def test_the_target_follows_the_outlines_corner_order_whatever_the_faces() -> None:
    for shift in range(4):
        rolled = np.roll(FACE, shift, axis=0)
        np.testing.assert_allclose(matched_corners(FACE, rolled), to_context(FACE, FACE), atol=1e-5)


def test_jittered_outlines_lie_near_their_face_long_edge_first() -> None:
    rng = np.random.default_rng(5)
    for _ in range(30):
        outline = jittered_outline(FACE, rng)
        assert outline_iou(outline, FACE) >= 0.5
        edges = edge_lengths(outline)
        assert edges[0] >= edges[1]


@pytest.mark.skipif(not DEFAULT_FINDER_MODEL.is_file(), reason="the finder is not built")
def test_a_scene_gives_views_and_corners_inside_them() -> None:
    views, corners = scene_samples(13_000_001)
    assert len(views) == len(corners) >= 3
    assert views.shape[1:] == (CONTEXT_SIZE, CONTEXT_SIZE, 3)
    assert corners.shape[1:] == (4, 2)
    assert corners.min() > -0.1 and corners.max() < 1.1
