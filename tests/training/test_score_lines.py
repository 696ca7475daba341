"""Scoring real photos of lines of play by their open ends (issue 28's real-photo target)."""

from __future__ import annotations

from typing import Any

from training.score_lines import LineScore, lines_of_play, report


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
