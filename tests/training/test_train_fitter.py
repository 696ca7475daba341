"""The outline fitter's training: augmented samples keep each corner where the outline has
it, in the outline's own order. Needs torch (the training extras); skipped where only the app
is installed, as in CI."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
train_fitter = pytest.importorskip("training.train_fitter")


def test_mirrored_and_shifted_views_keep_each_corner_where_the_outline_has_it() -> None:
    size = 96
    outline = train_fitter.OUTLINE_IN_VIEW
    views = torch.rand(64, 3, size, size)
    corners = outline.expand(64, 4, 2).clone()
    generator = torch.Generator().manual_seed(3)
    _, moved = train_fitter._augment(views, corners, generator)
    # A face lying exactly on the outline stays on it, corner for corner, whichever mirrors
    # were drawn: only the shift (at most 4 px, the same for all four corners) moves it.
    offsets = (moved - outline) * size
    assert float(offsets.std(dim=1).max()) < 1e-3
    assert float(offsets.abs().max()) <= 4 + 1e-3


def test_an_exported_net_is_checked_against_torch_and_takes_any_batch(tmp_path: Path) -> None:
    ort = pytest.importorskip("onnxruntime")
    exporting = pytest.importorskip("training.exporting")
    net = train_fitter.FitterNet(width=4).eval()
    path = tmp_path / "fitter.onnx"
    views = torch.rand(3, 3, 96, 96)
    exporting.export_onnx(net, path, ("views", "corners"), views, atol=1e-4)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (corners,) = session.run(None, {"views": torch.rand(5, 3, 96, 96).numpy()})
    assert corners.shape == (5, 4, 2)
