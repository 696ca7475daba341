"""The whole-pipeline scorer used to judge pipeline changes on rendered hands."""

from __future__ import annotations

import pytest

from training.finder_crops_data import training_scene
from training.score_pipeline import FIRST_SEED, score
from vision.finder import DEFAULT_FINDER_MODEL
from vision.halves import DEFAULT_HALF_MODEL


@pytest.mark.skipif(
    not (DEFAULT_FINDER_MODEL.is_file() and DEFAULT_HALF_MODEL.is_file()),
    reason="the models are not built",
)
def test_every_rendered_tile_is_counted_once_and_read_tiles_are_checked_against_them() -> None:
    tallies = score(3)
    rendered = sum(len(training_scene(seed).tiles) for seed in range(FIRST_SEED, FIRST_SEED + 3))
    assert sum(t.wanted for t in tallies.values()) == rendered
    assert sum(t.scenes for t in tallies.values()) == 3
    for tally in tallies.values():
        assert tally.right <= min(tally.wanted, tally.reported)
        assert tally.exact <= tally.scenes
    assert sum(t.right for t in tallies.values()) > 0
