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
