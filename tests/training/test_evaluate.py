"""Scoring pipeline output against labels (multisets of pip pairs per photo)."""

from __future__ import annotations

from training.evaluate import PhotoResult, summarise


def _result(expected, got, partial=(), error=None) -> PhotoResult:  # type: ignore[no-untyped-def]
    return PhotoResult("p.jpg", tuple(expected), tuple(partial), tuple(got), 10.0, error)


def test_exact_photo() -> None:
    result = _result([(6, 5), (3, 3)], [(3, 3), (6, 5)])
    assert result.exact and result.total_right
    assert result.matched == 2 and result.counted == 2


def test_misread_tile_counts_against_both_precision_and_recall() -> None:
    result = _result([(6, 5), (3, 3)], [(6, 5), (3, 2)])
    assert not result.exact and not result.total_right
    assert result.found == 2 and result.matched == 1
    assert result.misses() == ([(3, 3)], [(3, 2)])


def test_partial_tiles_are_excused_either_way() -> None:
    with_partial = _result([(6, 5)], [(6, 5), (12, 9)], partial=[(12, 9)])
    without = _result([(6, 5)], [(6, 5)], partial=[(12, 9)])
    for result in (with_partial, without):
        assert result.exact and result.total_right and result.counted == 1


def test_duplicates_are_matched_as_a_multiset() -> None:
    result = _result([(2, 1), (2, 1)], [(2, 1), (2, 1), (2, 1)])
    assert result.matched == 2 and result.counted == 3 and not result.exact


def test_errors_are_wrong_photos() -> None:
    result = _result([(2, 1)], [], error="the file is empty")
    assert not result.exact and not result.total_right and result.matched == 0


def test_summary_figures() -> None:
    summary = summarise(
        [
            _result([(6, 5), (3, 3)], [(6, 5), (3, 3)]),
            _result([(1, 0)], [(1, 0), (4, 4)]),
            _result([(9, 9), (0, 0)], [(9, 9)]),
        ]
    )
    assert summary.tile_precision == 4 / 5
    assert summary.tile_recall == 4 / 5
    assert summary.exact_rate == 1 / 3
    assert summary.found_rate == 4 / 5
    assert summary.read_rate == 1.0
    assert summary.median_ms == 10.0
