"""Views of train starts for the marker check, from tables drawn at one size or several."""

from __future__ import annotations

from training.marker_data import LOOKS, table_views
from training.table_synth import render_table
from vision.markers import VIEW_CHANNELS, VIEW_SHAPE

SEED = 320_000_005  # two of its train starts have a marker beside them


def test_each_train_start_gives_a_view_per_look_labelled_by_its_marker() -> None:
    scene = render_table(SEED)
    assert scene.hub is not None
    views, labels = table_views(SEED)
    assert views and len(views) <= LOOKS * len(scene.trains)
    assert all(view.shape == (*VIEW_SHAPE, VIEW_CHANNELS) for view in views)
    assert set(labels) == {0, 1}


def test_a_table_drawn_at_a_phones_size_is_the_same_table_with_the_same_markers() -> None:
    _, usual = table_views(SEED)
    views, sharp = table_views(SEED, widths=(4032,))
    assert views[0].shape == (*VIEW_SHAPE, VIEW_CHANNELS)
    assert sorted(sharp) == sorted(usual)
