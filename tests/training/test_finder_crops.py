"""Labels of the reader's training crops cut along the finder's outlines."""

from __future__ import annotations

import numpy as np

from training.finder_crops_data import label_outline, printed_scene_crops
from training.halves_data import NOT_A_HALF
from training.scenes_data import printed_scene
from training.synth import Scene, SceneTile

# A 200x100 tile face lying flat, its 9 on the left end and its 4 on the right.
FACE = np.array([[100, 100], [300, 100], [300, 200], [100, 200]], np.float32)
TILE = SceneTile(
    (9, 4),
    FACE,
    half_pips=(9, 4),
    half_centres=np.array([[150, 150], [250, 150]], np.float32),
)
SCENE = Scene(image=np.zeros((400, 500, 3), np.uint8), tiles=(TILE,))


def test_an_outline_on_the_tile_is_labelled_end_by_end() -> None:
    assert label_outline(FACE + 4, SCENE) == (9, 4)


def test_the_same_outline_turned_half_round_swaps_the_ends() -> None:
    assert label_outline(FACE[[2, 3, 0, 1]], SCENE) == (4, 9)


def test_an_outline_on_bare_table_is_not_a_tile() -> None:
    assert label_outline(FACE + np.float32([0, 180]), SCENE) == (NOT_A_HALF, NOT_A_HALF)


def test_an_outline_half_on_the_tile_is_left_out() -> None:
    assert label_outline(FACE + np.float32([90, 0]), SCENE) is None


def test_the_finders_outlines_on_printed_dominoes_are_no_tiles() -> None:
    seed = 3  # a printed board's track round a board with a few real tiles on it
    scene = printed_scene(seed)
    crops, labels = printed_scene_crops(seed)
    none = (labels == NOT_A_HALF).all(axis=1)
    assert len(crops) == len(labels) > len(scene.tiles)
    assert none.sum() >= len(labels) - len(scene.tiles)
    assert (labels[~none] != NOT_A_HALF).all()
