"""Reader training crops cut where the table pipeline reports a table's tiles."""

from __future__ import annotations

from collections import Counter

import numpy as np

from training.halves_data import NOT_A_HALF
from training.table_crops_data import long_edge_first, table_crops
from training.table_synth import render_table
from vision.pipeline import default_reader


def test_an_outline_starting_with_a_short_edge_is_turned_to_start_with_a_long_one() -> None:
    upright = np.array([[10, 10], [40, 10], [40, 70], [10, 70]], np.float32)
    turned = long_edge_first(upright)
    assert np.linalg.norm(turned[1] - turned[0]) == 60
    assert {tuple(corner) for corner in turned} == {tuple(corner) for corner in upright}


def test_an_outline_starting_with_a_long_edge_is_kept() -> None:
    lying = np.array([[10, 10], [70, 10], [70, 40], [10, 40]], np.float32)
    assert np.array_equal(long_edge_first(lying), lying)


def test_a_rendered_tables_crops_are_labelled_with_its_own_tiles() -> None:
    seed = 600_000_001
    crops, labels = table_crops(seed, default_reader())
    scene = render_table(seed)
    assert crops.shape == (len(labels), 64, 128, 3)
    tiles = [
        tuple(sorted(pair, reverse=True)) for pair in labels.tolist() if NOT_A_HALF not in pair
    ]
    # Nearly every tile on the table is cut, and each crop is labelled as one of them.
    assert len(tiles) >= 0.9 * len(scene.tiles)
    assert not Counter(tiles) - Counter(tile.pips for tile in scene.tiles)
