"""Scoring real photos of lines of play by their open ends (issue 28's real-photo target)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from training.score_lines import LineScore, lines_of_play, report, tiles_in_lines, tiles_report
from training.score_real import PhotoScore, score_reading


def _entry(file: str, label: dict[str, Any] | None) -> dict[str, Any]:
    return {"file": file, "source_repo": "DomiBotUPM/DomiBot", "label": label}


def test_only_settled_photos_with_a_lines_open_ends_take_part() -> None:
    entries = [
        _entry("line.jpg", {"tiles": [[3, 3], [6, 3]], "open_ends": [3, 6]}),
        _entry("hand.jpg", {"tiles": [[3, 3]]}),
        _entry("waiting.jpg", None),
    ]
    assert [entry["file"] for entry in lines_of_play(entries)] == ["line.jpg"]


def test_a_photo_is_right_only_when_every_open_end_is() -> None:
    right = LineScore("a.jpg", "DomiBotUPM/DomiBot", (2, 6), (2, 6), True)
    one_wrong = LineScore("b.jpg", "DomiBotUPM/DomiBot", (2, 6), (2, 5), True)
    unread = LineScore("c.jpg", "DomiBotUPM/DomiBot", (1, 4), None, False)
    assert right.ends_right and not one_wrong.ends_right and not unread.ends_right
    text = report([right, one_wrong, unread])
    assert "Every open end right on 1 of 3 photos (33%" in text
    assert "| c.jpg | every other source | 1, 4 | not read | no | no |" in text


def _scored(file: str, tiles: list[list[int]], got: list[tuple[int, int]]) -> PhotoScore:
    entry = {"file": file, "label": {"tiles": tiles}}
    reading = SimpleNamespace(pip_pairs=got, hints=(), ms=100)
    return score_reading(entry, reading)  # type: ignore[arg-type]


def test_every_photo_of_tiles_in_lines_takes_part_in_the_tiles_figures() -> None:
    entries = [
        {**_entry("board.jpg", {"tiles": [[3, 3]]}), "scene": "tiles in lines"},
        {**_entry("line.jpg", {"tiles": [[6, 3]], "open_ends": [3, 6]}), "scene": "tiles in lines"},
        {**_entry("hand.jpg", {"tiles": [[3, 3]]}), "scene": "hand"},
        {**_entry("waiting.jpg", None), "scene": "tiles in lines"},
    ]
    assert [entry["file"] for entry in tiles_in_lines(entries)] == ["board.jpg", "line.jpg"]


def test_the_tiles_report_counts_each_fold_and_all() -> None:
    exact = _scored("a.jpg", [[6, 3], [3, 3]], [(6, 3), (3, 3)])
    one_missed = _scored("b.jpg", [[6, 3], [3, 3]], [(6, 3)])
    text = tiles_report([("boards", exact), ("karthik's lines", one_missed)])
    assert "| boards | 1 | 1 (100%) | 1.000 | 1.000 | 1.000 |" in text
    assert "| karthik's lines | 1 | 0 (0%) | 0.500 | 1.000 | 0.667 |" in text
    assert "| **all** | 2 | 1 (50%) | 0.750 | 1.000 | 0.857 |" in text
