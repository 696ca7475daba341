"""Which rendered markers a player could not place by looking (training.score_tables)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from training.score_tables import markers_in_doubt
from training.table_synth import TableScene, render_table

SEED = 800_000_011  # a tuning table: a coin beside one of its trains, none by the others


def _middle(scene: TableScene, train: int) -> np.ndarray:
    return np.asarray(
        np.mean(np.array(scene.tiles[scene.trains[train].tiles[0]].corners, float), axis=0)
    )


def _short_side(scene: TableScene, train: int) -> float:
    outline = np.array(scene.tiles[scene.trains[train].tiles[0]].corners, float)
    return float(np.sort(np.linalg.norm(np.roll(outline, -1, axis=0) - outline, axis=1))[:2].mean())


def _with_marker_at(scene: TableScene, train: int, spot: np.ndarray) -> TableScene:
    trains = list(scene.trains)
    trains[train] = replace(trains[train], marker=True, marker_at=(float(spot[0]), float(spot[1])))
    return replace(scene, trains=tuple(trains))


def test_the_renderer_tells_where_each_marker_lies_beside_its_train() -> None:
    scene = render_table(SEED)
    marked = [index for index, train in enumerate(scene.trains) if train.marker]
    assert marked
    for index, train in enumerate(scene.trains):
        if not train.marker:
            assert train.marker_at is None
            continue
        assert train.marker_at is not None
        apart = np.linalg.norm(np.array(train.marker_at) - _middle(scene, index))
        assert apart < 2.5 * _short_side(scene, index)


def test_a_marker_beside_its_own_train_is_not_in_doubt() -> None:
    scene = render_table(SEED)
    assert markers_in_doubt(scene) == (frozenset(), 0)


def test_a_marker_midway_between_two_trains_leaves_both_in_doubt() -> None:
    scene = render_table(SEED)
    clean = replace(
        scene, trains=tuple(replace(t, marker=False, marker_at=None) for t in scene.trains)
    )
    middles = [_middle(clean, index) for index in range(len(clean.trains))]
    one, other = min(
        ((a, b) for a in range(len(middles)) for b in range(a + 1, len(middles))),
        key=lambda pair: float(np.linalg.norm(middles[pair[0]] - middles[pair[1]])),
    )
    midway = (middles[one] + middles[other]) / 2
    assert markers_in_doubt(_with_marker_at(clean, one, midway)) == (frozenset({one, other}), 1)
