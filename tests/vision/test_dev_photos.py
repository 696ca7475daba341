"""The real labelled photos: floors set just under the measured figures, so regressions fail.

The photos live outside the repository (shared/photos/dev); the tests skip where they are
absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.evaluate import evaluate, load_labels, summarise

DEV_PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "photos" / "dev"

pytestmark = pytest.mark.skipif(
    not (DEV_PHOTOS / "manifest.json").is_file(), reason="shared/photos/dev is not here"
)

# Measured with `python -m vision.evaluate --finder-only` when set.
FOUND_FLOOR = 0.80  # measured 0.824
RIGHT_COUNT_FLOOR = 0.75  # measured 0.774


def test_tile_finder_on_real_photos() -> None:
    results = evaluate(DEV_PHOTOS, finder_only=True)
    assert len(results) == len(load_labels(DEV_PHOTOS))
    summary = summarise(results)
    right_count = sum(
        len(r.expected) <= len(r.got) <= len(r.expected) + len(r.partial) for r in results
    ) / len(results)
    assert summary.found_rate >= FOUND_FLOOR, f"found {summary.found_rate:.3f}"
    assert right_count >= RIGHT_COUNT_FLOOR, f"right count on {right_count:.3f} of photos"
