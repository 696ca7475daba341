"""The three-way merge behind both late-save forms (round scores and house rules)."""

from __future__ import annotations

from companion.games.merging import merge


def test_only_values_both_phones_changed_differently_are_conflicts() -> None:
    read = {"ann": 8, "bob": 5, "cy": 3, "dee": 1}
    sent = {"ann": 8, "bob": 6, "cy": 4, "dee": 2}  # this phone changed bob, cy and dee
    now = {"ann": 10, "bob": 5, "cy": 7, "dee": 2}  # the other changed ann, cy and dee
    result = merge(list(read), read, sent, now)
    # ann: only the other phone changed her, so the sheet's 10 without a question;
    # bob: only this phone; cy: both, differently (a conflict); dee: both, the same.
    assert result.values == {"ann": 10, "bob": 6, "cy": 7, "dee": 2}
    assert result.conflicts == ["cy"]


def test_values_compare_by_what_they_mean() -> None:
    read = {"ann": "08"}
    result = merge(["ann"], read, {"ann": "8"}, {"ann": "9"}, compare=int)
    assert result.conflicts == []
    assert result.values == {"ann": "9"}
