"""Held-out figures before and after, per fold, source and kind (issue 25)."""

from __future__ import annotations

import json
from pathlib import Path

from training.compare_real import comparison, load_scores
from training.score_real import PhotoScore


def _score(file: str, wanted: int, right: int, reported: int) -> PhotoScore:
    return PhotoScore(
        file=file,
        exact=right == wanted == reported,
        wanted=wanted,
        reported=reported,
        right=right,
        missed=wanted - right,
        hinted=False,
        ms=1.0,
        got=((1, 0),) * reported,
        expected=((1, 0),) * wanted,
    )


def test_each_fold_source_and_kind_shows_its_figures_before_and_after(tmp_path: Path) -> None:
    entries = [
        {"file": "a.jpg", "source_repo": "JackRoache/METR4202-2016", "scene": "hand"},
        {"file": "b.jpg", "source_repo": "MikeyGBG/BETR-", "scene": "hand"},
    ]
    before = tmp_path / "before.json"
    after = tmp_path / "after.json"
    before.write_text(
        json.dumps([_score("a.jpg", 4, 2, 4).__dict__, _score("b.jpg", 2, 2, 2).__dict__])
    )
    after.write_text(json.dumps([_score("a.jpg", 4, 4, 4).__dict__]))
    text = comparison(entries, load_scores([before]), load_scores([after]))
    assert "| webcam hands | 1 | 0 → 1 | 0.500 → 1.000 | 0.500 → 1.000 | 0.500 → 1.000 |" in text
    # b.jpg was not read again: it is left out of every table, the totals too.
    assert "MikeyGBG" not in text
    assert "| **all** | 1 | 0 → 1 |" in text
    assert "| hand | 1 | 0 → 1 |" in text
