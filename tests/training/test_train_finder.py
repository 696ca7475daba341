"""Going on training from a committed finder: the torch net must compute what the file does.

Needs the training extras (torch, onnx); skipped where only the app is installed, as in CI.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")
train_finder = pytest.importorskip("training.train_finder")

from vision.session import open_session  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.mark.parametrize("model", ["finder.onnx", "finder-close.onnx"])
def test_a_net_started_from_an_exported_finder_gives_its_maps(model: str) -> None:
    net = train_finder.FinderNet()
    train_finder.load_exported_weights(net, MODELS / model)
    image = np.random.default_rng(0).random((2, 3, 96, 128), dtype=np.float32)
    with torch.no_grad():
        ours = train_finder.Exported(net).eval()(torch.from_numpy(image)).numpy()
    session = open_session(MODELS / model, threads=1, what="finder")
    theirs = session.run(None, {session.get_inputs()[0].name: image})[0]
    assert np.abs(ours - theirs).max() < 1e-4


def test_frozen_norms_keep_their_statistics_while_training() -> None:
    net = train_finder.FinderNet()
    train_finder.load_exported_weights(net, MODELS / "finder.onnx")
    net.train()
    train_finder.frozen_norms(net)
    before = net.stem[0][1].running_mean.clone()
    net(torch.rand(2, 3, 64, 64) * 5)
    assert torch.equal(net.stem[0][1].running_mean, before)


def test_a_tile_seen_where_the_label_is_unsure_is_not_penalised() -> None:
    # A real photo's outline the label cannot settle (a printed domino with a real tile's
    # pips, say): the heatmap may see a tile there or not at no cost; elsewhere it pays.
    width, height = 64, 64
    unsure = np.array([[[20, 20], [44, 20], [44, 32], [20, 32]]], np.float32)
    mask = train_finder.left_alone_mask(unsure, width, height)
    assert mask[6, 8] == 1 and mask[0, 0] == 0
    target = torch.zeros(1, height // 4, width // 4)
    sure_there = torch.full((1, height // 4, width // 4), -8.0)
    sure_there[0, 6, 8] = 8.0  # a confident tile inside the unsure outline
    free = train_finder.focal_loss(sure_there, target, torch.from_numpy(mask)[None])
    paid = train_finder.focal_loss(sure_there, target)
    assert float(free) < 1e-3 < float(paid)


def test_a_real_photo_view_moves_its_unsure_outlines_with_its_faces() -> None:
    rng = np.random.default_rng(1)
    image = np.full((300, 400, 3), 80, np.uint8)
    face = np.array([[[100, 100], [160, 100], [160, 130], [100, 130]]], np.float32)
    warped, kept, unsure = train_finder.warp_scene(image, face, face.copy(), rng)
    assert warped.shape == (train_finder.CROP[1], train_finder.CROP[0], 3)
    assert len(unsure) == 1
    if len(kept):  # the same outline given both ways lands in the same place
        assert np.abs(kept - unsure).max() < 1e-3


def test_the_extra_scene_kinds_come_in_the_order_the_scene_set_counts_them() -> None:
    """SceneSet takes the last scenes for table-sized ones and the very last for those cut
    anywhere: a kind listed out of that order would be augmented as the wrong kind."""
    from training.scenes_data import KINDS

    extras = train_finder.EXTRA_SCENES
    assert {extra.kind for extra in extras} <= set(KINDS)
    order = [0 if KINDS[extra.kind].hand_sized else 2 if extra.anywhere else 1 for extra in extras]
    assert order == sorted(order)
    assert len({extra.dest for extra in extras}) == len(extras)
