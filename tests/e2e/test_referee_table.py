"""The referee as it is used at a real table (issue 26): the tile in dispute is already down,
a first turn is quick to enter, and a photo field always does something."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from vision.finder import DEFAULT_FINDER_MODEL
from vision.halves import DEFAULT_HALF_MODEL

from .helpers import TableApi
from .test_referee import (
    ANY,
    DEV_PHOTOS,
    PLAYERS,
    READING_TIMEOUT_MS,
    command,
    expect_ruling,
    ruling,
    start,
    turn,
)

FIRST_TURN_TAP_GOAL = 10


def test_a_hand_ticked_after_the_play_is_not_taken_to_lack_the_tile_laid(
    page: Page, table_api: TableApi
) -> None:
    """Bea has laid 5-3 on her train; the hand ticked is what she holds now. The ruling is
    about the play, never "Bea does not hold 5-3", and says which hand it assumed."""
    taps = start(page, table_api)
    taps.seat("Whose turn is it?", "Bea")
    page.get_by_label("Bea's train ends in").select_option("5")
    taps.half(0, "a", 5)
    taps.half(0, "b", 3)
    page.locator("details.hand-box summary").click()
    for tile in ("2 1", "9 0"):
        page.get_by_role("checkbox", name=tile, exact=True).check()
    taps.rule()
    answer = command(
        turn({"preset": "standard"}, {"Bea": {"end": 5}}, "Bea", [[5, 3], [2, 1], [9, 0]],
             [{"play": [5, 3], "on": "Bea"}])
    )  # fmt: skip
    assert answer["legal"] is True
    section = ruling(page)
    expect(section.locator(".verdict")).to_have_text("Allowed")
    expect(section).not_to_contain_text("does not hold")
    expect(section).to_contain_text("after the move")
    expect(section).to_contain_text("5-3")


def test_every_photo_field_has_a_way_to_read_it(page: Page, table_api: TableApi) -> None:
    """No question shows a photo input that nothing reads (missed call, round over, ...)."""
    created = table_api.create_game(PLAYERS)
    for ask in ("turn", "options", "round", "score", "call", "setup"):
        page.goto(f"/games/{created['id']}/referee?ask={ask}")
        photo = page.locator("input[type=file]")
        if photo.count():
            field = page.locator(".photo-field")
            expect(field.get_by_role("button", name=re.compile("^Read"))).not_to_have_count(0)


def test_a_first_turn_dispute_takes_under_ten_taps(page: Page, table_api: TableApi) -> None:
    """Ann's first turn: 12-5 on her train, then 12-3 on the Mexican Train. On a first turn the
    trains nobody has played on are not started unless said otherwise."""
    taps = start(page, table_api)
    taps.seat("Whose turn is it?", "Ann")
    taps.pick(page.get_by_label("It is their first turn of the round"))
    for name in ("Bea", "Cy", "Dee"):
        expect(page.get_by_label(f"{name}'s train ends in").locator("option:checked")).to_have_text(
            "not started"
        )
    expect(page.get_by_label("The Mexican Train ends in").locator("option:checked")).to_have_text(
        "not started"
    )
    # Her first tile is laid against the engine: already chosen.
    taps.half(0, "b", 5)
    taps.more(1)
    taps.half(1, "a", 12)
    taps.half(1, "b", 3)
    taps.train(1, "Mexican")
    taps.rule()
    answer = command(turn({"preset": "standard"}, {}, "Ann", [[12, 5], [12, 3], [ANY - 1, 0]],
                          [{"play": [12, 5], "on": "Ann"}, {"play": [12, 3], "on": "mexican"}],
                          first=True))  # fmt: skip
    expect_ruling(page, taps, answer)
    assert taps.count < FIRST_TURN_TAP_GOAL, f"{taps.count} taps"


@pytest.mark.skipif(
    not (DEFAULT_HALF_MODEL.is_file() and DEFAULT_FINDER_MODEL.is_file()),
    reason="photo-reading models not found",
)
@pytest.mark.skipif(not DEV_PHOTOS.is_dir(), reason=f"dev photos not found at {DEV_PHOTOS}")
def test_after_a_photo_the_page_shows_what_was_read(page: Page, table_api: TableApi) -> None:
    photo = DEV_PHOTOS / "jeremyarde__domino-counter" / "11-2.jpg"
    start(page, table_api)
    page.get_by_role("group", name="Whose turn is it?").get_by_role("radio", name="Cy").check()
    page.get_by_label("Photograph the tiles instead of typing").set_input_files(str(photo))
    page.get_by_role("button", name="Read as the hand").click()
    summary = page.locator("details.hand-box summary")
    expect(summary).to_contain_text("tiles ticked", timeout=READING_TIMEOUT_MS)
    expect(summary).to_be_in_viewport()
