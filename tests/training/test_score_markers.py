"""Marker checks compared on the same rendered tables, asked about the same train starts."""

from __future__ import annotations

from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")

from tests.training.stand_in_checks import scaling_check  # noqa: E402
from training.score_markers import score_checks  # noqa: E402
from training.table_synth import render_table  # noqa: E402
from vision.markers import VIEW_CHANNELS, VIEW_SHAPE, MarkerCheck  # noqa: E402

SEED = 800_000_011  # a tuning table: a coin beside one of its trains, none by the others


def test_each_check_is_scored_on_the_same_trains_by_its_own_answers(tmp_path: Path) -> None:
    # A stand-in check sure of a marker beside every train.
    always_says_marker = scaling_check(
        tmp_path / "always.onnx", 0.0, 10.0, (VIEW_CHANNELS, *VIEW_SHAPE)
    )
    scene = render_table(SEED)
    with_marker = sum(train.marker for train in scene.trains)
    without = len(scene.trains) - with_marker
    assert with_marker and without

    committed, always = score_checks(
        [MarkerCheck(), MarkerCheck(always_says_marker)],
        [SEED],
        native=False,
    )

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
