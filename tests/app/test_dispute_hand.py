"""The hand entered for a disputed turn is taken as it is after the move (the tiles laid are
already down at the table): the tiles laid from it go back in, a tile drawn and laid does not."""

from __future__ import annotations

from companion.referee.dispute import DisputeForm
from companion.rules import Rules, Tile

SEATS = ["Ann", "Ben"]


def form(values: dict[str, str], hand: list[str]) -> DisputeForm:
    return DisputeForm.from_form(
        "turn", SEATS, Rules.from_json({}), 12, {"ask": "turn", **values}, {"hand": hand}
    )


def test_a_tile_laid_from_the_hand_goes_back_into_it() -> None:
    dispute = form(
        {"seat": "1", "end-1": "5", "act0-kind": "play", "act0-a": "5", "act0-b": "3"},
        ["2-1", "9-0"],
    )
    assert dispute.laid_back() == [Tile(5, 3)]
    hand = dispute.turn_request().table.hands["Ben"]
    assert set(hand) == {Tile(5, 3), Tile(2, 1), Tile(9, 0)}
    assert "after the move" in dispute.hand_note() and "5-3" in dispute.hand_note()


def test_a_tile_drawn_then_laid_was_never_in_the_hand() -> None:
    dispute = form(
        {"seat": "1", "end-1": "7", "act0-kind": "draw", "act0-a": "7", "act0-b": "1",
         "act1-kind": "play", "act1-a": "7", "act1-b": "1"},
        ["2-1"],
    )  # fmt: skip
    assert dispute.laid_back() == []


def test_a_hand_that_still_holds_the_tile_laid_is_the_hand_before_the_move() -> None:
    dispute = form(
        {"seat": "1", "end-1": "5", "act0-kind": "play", "act0-a": "5", "act0-b": "3"},
        ["5-3", "2-1"],
    )
    assert dispute.laid_back() == []
    assert "before the move" in dispute.hand_note()
