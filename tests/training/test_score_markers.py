"""Marker checks compared on the same rendered tables, asked about the same train starts."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from training.score_markers import score_checks
from training.table_synth import render_table
from vision.markers import MarkerCheck

SEED = 800_000_011  # a tuning table: a coin beside one of its trains, none by the others


class AlwaysSaysMarker:
    """A stand-in check sure of a marker beside every train it is shown."""

    def chances(self, views: Sequence[NDArray[np.float32] | None]) -> tuple[float | None, ...]:
        return tuple(None if view is None else 0.99 for view in views)


def test_each_check_is_scored_on_the_same_trains_by_its_own_answers() -> None:
    scene = render_table(SEED)
    with_marker = sum(train.marker for train in scene.trains)
    without = len(scene.trains) - with_marker
    assert with_marker and without

    committed, always = score_checks([MarkerCheck(), AlwaysSaysMarker()], [SEED], native=False)

    assert committed.tables == always.tables == 1
    assert (committed.markers_right, committed.markers_wrong, committed.whole_right) == (
        len(scene.trains),
        0,
        1,
    )
    assert (always.markers_right, always.markers_wrong, always.whole_right) == (
        with_marker,
        without,
        0,
    )
