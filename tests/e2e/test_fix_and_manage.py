"""Fixing mistakes (clear, undo), keeping typed scores, exporting and deleting a game."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from playwright.sync_api import Dialog, Locator, Page, expect

from .helpers import TableApi, totals_row

PLAYERS = ["Ann", "Bob", "Cy"]
ROUND_ONE = {"Ann": {"points": 0, "went_out": True}, "Bob": {"points": 14}, "Cy": {"points": 9}}
ROUND_TWO = {"Ann": {"points": 20}, "Bob": {"points": 0, "went_out": True}, "Cy": {"points": 6}}


def accept_confirmations(page: Page) -> list[str]:
    """Say yes to every "are you sure?" and remember what was asked."""
    asked: list[str] = []

    def accept(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    return asked


@pytest.fixture
def two_rounds_in(table_api: TableApi) -> dict[str, Any]:
    """A three-player game with rounds 1 and 2 entered."""
    created = table_api.create_game(PLAYERS)
    table_api.put_round(created, 1, ROUND_ONE)
    table_api.put_round(created, 2, ROUND_TWO)
    return created


def test_clear_a_round_then_undo_brings_it_back(page: Page, two_rounds_in: dict[str, Any]) -> None:
    """Clearing asks first, empties the round, and "Undo last change" restores it."""
    asked = accept_confirmations(page)
    page.goto(two_rounds_in["edit_url"])
    expect(totals_row(page)).to_have_text(["20", "14", "15"])

    page.get_by_role("link", name="Edit round 1", exact=True).click()
    page.get_by_role("button", name="Clear round 1").click()
    assert asked == ["Clear every score of round 1?"]
    expect(totals_row(page)).to_have_text(["20", "0", "6"])
    # The page's scripts (which ask before an undo) run once it has loaded; a tap before
    # that undoes without asking, as the page does without JavaScript.
    page.wait_for_load_state("load")

    # The button says what it takes back, and asks once.
    page.get_by_role("button", name="Undo last change: round 1").click()
    expect(totals_row(page)).to_have_text(["20", "14", "15"])
    assert asked[1].startswith("Undo this change? round 1 (")


def test_undo_takes_back_the_last_round_saved_on_the_page(
    page: Page, two_rounds_in: dict[str, Any]
) -> None:
    """A round typed by mistake is taken back; the rounds before it stay."""
    accept_confirmations(page)
    page.goto(two_rounds_in["edit_url"])
    for name, points in zip(PLAYERS, ["30", "0", "12"], strict=True):
        page.get_by_label(f"Points for {name}").fill(points)
    page.get_by_role("button", name="Save round 3").click()
    expect(totals_row(page)).to_have_text(["50", "14", "27"])

    page.get_by_role("button", name="Undo last change").click()
    expect(totals_row(page)).to_have_text(["20", "14", "15"])
    expect(page.get_by_role("heading", name=re.compile(r"^Round 3: engine"))).to_be_visible()


def test_points_typed_before_picking_tiles_are_kept(page: Page, table_api: TableApi) -> None:
    """Type two hands, pick the third as tiles: the two typed numbers are still there."""
    created = table_api.create_game(PLAYERS)
    page.goto(created["edit_url"])
    page.get_by_label("Points for Ann").fill("17")
    page.get_by_label("Points for Bob").fill("8")
    page.get_by_role("link", name="Pick Cy's tiles").click()
    page.get_by_role("checkbox", name="4 2", exact=True).check()
    page.get_by_role("button", name="Save Cy's tiles").click()
    expect(page.get_by_text("Cy's tiles saved for round 1: 6 points.")).to_be_visible()
    expect(page.get_by_label("Points for Ann")).to_have_value("17")
    expect(page.get_by_label("Points for Bob")).to_have_value("8")


def test_scoresheet_downloads_as_csv(page: Page, two_rounds_in: dict[str, Any]) -> None:
    """The CSV has the players and every entered round's points."""
    page.goto(two_rounds_in["edit_url"])
    with page.expect_download() as download_info:
        page.get_by_role("link", name=re.compile("Download the scoresheet")).click()
    download = download_info.value
    assert download.suggested_filename.endswith(".csv")
    path = download.path()
    raw = path.read_bytes()
    assert raw.startswith("\ufeff".encode()), "a byte-order mark, for spreadsheets"
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    by_first_cell = {row[0]: row for row in rows}
    assert by_first_cell["round"][-3:] == PLAYERS
    assert by_first_cell["round"][3] == "went out"
    assert by_first_cell["1"][3] == "Ann"
    assert by_first_cell["1"][1] == "12|12"
    assert by_first_cell["1"][-3:] == ["0", "14", "9"]
    assert by_first_cell["2"][-3:] == ["20", "0", "6"]
    assert by_first_cell["3"][-3:] == ["", "", ""]
    assert by_first_cell["total"][-3:] == ["20", "14", "15"]


def test_delete_a_game_from_the_home_page(page: Page, table_api: TableApi) -> None:
    """Delete asks first, then the game is gone from the list and its page answers 404."""
    created = table_api.create_game(["Zed", "Yve"])
    asked = accept_confirmations(page)
    page.goto(created["edit_url"])
    page.goto("/")
    page.get_by_role("button", name="Delete the game of Zed, Yve").click()
    expect(page.get_by_text("Game deleted.")).to_be_visible()
    assert asked == ["Delete this game for good?"]
    expect(page.get_by_role("link", name="Resume the game of Zed, Yve")).to_have_count(0)
    response = page.goto(f"/games/{created['id']}/view")
    assert response is not None and response.status == 404


def test_changing_the_blank_rule_rescores_picked_tiles(page: Page, table_api: TableApi) -> None:
    """Tiles are kept, so a new blank rule re-scores them; typed points stay as typed."""
    accept_confirmations(page)
    created = table_api.create_game(PLAYERS)
    table_api.put_round(
        created,
        1,
        {
            "Ann": {"tiles": [[0, 0], [6, 5]]},
            "Bob": {"points": 20},
            "Cy": {"points": 0, "went_out": True},
        },
    )
    page.goto(created["edit_url"])
    expect(totals_row(page)).to_have_text(["11", "20", "0"])

    page.get_by_role("link", name="Change the house rules").click()
    page.get_by_label("What blanks count").select_option(
        label="the double-blank counts 50; other blanks count 0"
    )
    page.get_by_role("button", name="Save the house rules").click()
    expect(page.get_by_text(re.compile("House rules changed"))).to_be_visible()
    # The double blank now costs 50, the 6|5 still 11.
    expect(totals_row(page)).to_have_text(["61", "20", "0"])

    page.get_by_role("button", name="Undo last change").click()
    expect(totals_row(page)).to_have_text(["11", "20", "0"])


def test_a_round_can_be_entered_with_the_keyboard_alone(page: Page, table_api: TableApi) -> None:
    """Skip link first, then seat-order focus through the round form; Enter saves."""
    created = table_api.create_game(PLAYERS)
    page.goto(created["edit_url"])
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()

    def tab_to(target: Locator, most: int = 40) -> None:
        for _ in range(most):
            page.keyboard.press("Tab")
            if target.evaluate("element => element === document.activeElement"):
                return
        raise AssertionError(f"{target} never received focus from the keyboard")

    tab_to(page.get_by_label("Points for Ann"))
    page.keyboard.type("12")
    # Each player's controls come before the next player's: seat order, as at the table.
    tab_to(page.get_by_role("group", name="Ann").get_by_label("Went out"), most=1)
    tab_to(page.get_by_role("link", name="Pick Ann's tiles"), most=1)
    photo = page.get_by_label("Photograph Ann's tiles")
    if photo.count():  # offered only when the server has the tile-reading model
        tab_to(photo, most=1)
    tab_to(page.get_by_label("Points for Bob"), most=1)
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # Bob went out
    expect(page.get_by_role("group", name="Bob").get_by_label("Went out")).to_be_checked()
    tab_to(page.get_by_label("Points for Cy"))
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    expect(totals_row(page)).to_have_text(["12", "0", "7"])


def test_tiles_picked_on_a_stale_page_are_kept_and_can_be_saved_again(
    page: Page, table_api: TableApi
) -> None:
    """Another phone saves while tiles are being picked: told, picks kept, second save works."""
    created = table_api.create_game(PLAYERS)
    page.goto(created["edit_url"])
    page.get_by_role("link", name="Pick Bob's tiles").click()
    for tile in ("9 3", "5 5"):
        page.get_by_role("checkbox", name=tile, exact=True).check()
    table_api.put_round(created, 1, {"Ann": {"points": 7}, "Cy": {"points": 3}})

    page.get_by_role("button", name="Save Bob's tiles").click()
    expect(page.get_by_role("alert")).to_have_text(re.compile("changed on another device"))
    for tile in ("9 3", "5 5"):
        expect(page.get_by_role("checkbox", name=tile, exact=True)).to_be_checked()

    page.get_by_role("button", name="Save Bob's tiles").click()
    expect(page.get_by_text("Bob's tiles saved for round 1: 22 points.")).to_be_visible()
    # The other phone's scores for Ann and Cy were not thrown away by Bob's tiles.
    expect(totals_row(page)).to_have_text(["7", "22", "3"])


def test_picking_no_tiles_means_the_player_went_out(page: Page, table_api: TableApi) -> None:
    """An empty hand saved from the tile grid scores 0 and is marked as went out."""
    created = table_api.create_game(PLAYERS)
    page.goto(created["edit_url"])
    page.get_by_role("link", name="Pick Cy's tiles").click()
    expect(page.get_by_text("0 tiles picked, 0 pips before the blank rule.")).to_be_visible()
    page.get_by_role("button", name="Save Cy's tiles").click()
    expect(page.get_by_text("Cy's tiles saved for round 1: 0 points.")).to_be_visible()
    expect(page.get_by_role("group", name="Cy").get_by_label("Went out")).to_be_checked()
