"""Fine-tuning a committed half classifier: with no mined real crops it learns from rendered
crops alone, every real source held out.

Needs the training extras (torch, onnx); skipped where only the app is installed, as in CI.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")
finetune = pytest.importorskip("training.finetune_halves")


def test_no_mined_crops_means_no_real_crop_is_trained_on(tmp_path: Path) -> None:
    (train_x, train_y), (held_x, held_y), counts = finetune.real_split(
        tmp_path / "absent.npz", set()
    )
    assert len(train_x) == len(train_y) == len(held_x) == len(held_y) == 0
    assert counts == {"train_crops": 0, "train_negative_crops": 0, "held_out_crops": 0}


@pytest.mark.parametrize(
    ("held_out", "real_crops", "real_share", "expected"),
    [
        (set(), 0, 0.3, []),
        (set(), 500, 0.0, []),
        ({"boards"}, 500, 0.3, ["karthik's lines", "webcam hands", "every other source"]),
    ],
)
def test_the_sidecar_names_only_the_folds_a_model_learnt_from(
    held_out: set[str], real_crops: int, real_share: float, expected: list[str]
) -> None:
    assert finetune.trained_on_folds(held_out, real_crops, real_share) == expected
