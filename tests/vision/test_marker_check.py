"""The committed marker check on rendered tables: markers the blob look could only doubt
are settled, and the blob look's answer stands where the check is unclear.

The tables' own tiles are given (perfect outlines and readings), so these say what the check
makes of a marker, not what the finder makes of the tiles."""

from __future__ import annotations

import pytest

from training.score_tables import perfect
from training.table_synth import render_table
from vision.markers import MarkerCheck, train_markers
from vision.table import group_table


@pytest.fixture(scope="module")
def check() -> MarkerCheck:
    return MarkerCheck()


@pytest.mark.parametrize(
    "seed",
    [
        800_000_011,  # a silver coin that shows only as a faint blob, beside the second train
        800_000_380,  # a silver coin on a red cloth, beside the fifth train of eight
    ],
)
def test_a_marker_the_blob_look_only_doubted_is_found(check: MarkerCheck, seed: int) -> None:
    scene = render_table(seed)  # a tuning table, none the check learnt from
    layout = group_table(perfect(scene))
    truth = {train.tiles[0]: train.marker for train in scene.trains}
    expected = tuple(truth[train.tiles[0]] for train in layout.trains)
    blobs = train_markers(scene.image, 1.0, layout)
    doubted = [index for index, seen in enumerate(blobs) if seen is None]
    assert doubted and all(expected[index] for index in doubted)
    assert train_markers(scene.image, 1.0, layout, check) == expected
