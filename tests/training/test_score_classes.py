"""The per-class scorer: each failing class rendered from its own seeds and read whole."""

from __future__ import annotations

import pytest

from training.score_classes import CLASSES, FIRST_SEED, SIZE, score
from training.synth import render_scene
from vision.finder import DEFAULT_FINDER_MODEL
from vision.halves import DEFAULT_HALF_MODEL


@pytest.mark.skipif(
    not (DEFAULT_FINDER_MODEL.is_file() and DEFAULT_HALF_MODEL.is_file()),
    reason="the models are not built",
)
def test_each_class_is_scored_on_its_own_rendered_tiles() -> None:
    tallies = score(1)
    assert list(tallies) == list(CLASSES)
    for offset, (name, options) in enumerate(CLASSES.items()):
        scene = render_scene(FIRST_SEED + offset * 100_000, **{"size": SIZE, **options})
        tally = tallies[name]
        assert (tally.scenes, tally.wanted) == (1, len(scene.tiles))
        assert tally.right <= min(tally.wanted, tally.reported)
    assert sum(t.right for t in tallies.values()) > 0
