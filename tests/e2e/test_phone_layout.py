"""A 360-px-wide phone: no sideways scrolling with eight players, big tap targets, readable."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import PHONE_VIEWPORT, TableApi

# A real family table: short and long names, eight seats (the most a double-12 set takes).
FAMILY = ["Grandma Jo", "Christopher", "Anne-Marie", "Dad", "Mum", "Eli", "Sophia", "Uncle Bob"]
HEAVY_LOSER = "Sophia"  # big hands push her total past 1000, a legal and wide number
COMFORTABLE_TAP_PX = 44  # WCAG 2.5.5 / Apple HIG; 24 px is the AA minimum (2.5.8)
MINIMUM_TAP_PX = 24


@pytest.fixture(scope="module")
def eight_player_game(table_api: TableApi) -> dict[str, Any]:
    """Twelve rounds played, so round 13's entry form is open under a full table."""
    created = table_api.create_game(FAMILY)
    draw = random.Random(2026)
    for n in range(1, 13):
        scores: dict[str, Any] = {name: {"points": draw.randint(0, 90)} for name in FAMILY}
        scores[HEAVY_LOSER] = {"points": draw.randint(85, 140)}
        scores[FAMILY[n % len(FAMILY)]] = {"points": 0, "went_out": True}
        table_api.put_round(created, n, scores)
    assert table_api.game(created["id"])["totals"][HEAVY_LOSER] >= 1000
    return created


def open_all_details(page: Page) -> None:
    """Unfold every <details>, so what they hide is measured too."""
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")


def assert_no_sideways_scroll(page: Page) -> None:
    """The document is no wider than the phone's screen."""
    widths = page.evaluate(
        "({scroll: document.documentElement.scrollWidth,"
        " client: document.documentElement.clientWidth})"
    )
    assert widths["client"] == PHONE_VIEWPORT["width"]
    assert widths["scroll"] <= widths["client"], f"{page.url} scrolls sideways: {widths}"


def test_eight_player_scoresheet_does_not_scroll_sideways(
    page: Page, eight_player_game: dict[str, Any], screenshot_dir: Path
) -> None:
    """Owner's sheet (entry form open, folded parts open) and the share view both fit."""
    page.goto(eight_player_game["edit_url"])
    expect(page.get_by_role("button", name="Save round 13")).to_be_visible()
    open_all_details(page)
    assert_no_sideways_scroll(page)
    page.screenshot(path=screenshot_dir / "scoresheet-8-players-360px.png", full_page=True)
    page.screenshot(path=screenshot_dir / "scoresheet-8-players-360px-first-screen.png")

    page.goto(eight_player_game["view_url"])
    open_all_details(page)
    assert_no_sideways_scroll(page)


def test_other_pages_do_not_scroll_sideways(page: Page, eight_player_game: dict[str, Any]) -> None:
    """Home, the setup form and the tile grid of a double-12 set fit a 360-px screen."""
    page.goto(eight_player_game["edit_url"])
    page.goto("/")
    assert_no_sideways_scroll(page)
    page.goto("/games/new")
    open_all_details(page)
    assert_no_sideways_scroll(page)
    page.goto(eight_player_game["edit_url"])
    page.get_by_role("link", name="Pick Dad's tiles").click()
    expect(page.get_by_role("checkbox")).to_have_count(91)
    assert_no_sideways_scroll(page)


def assert_tap_target(target: Locator, least: int = COMFORTABLE_TAP_PX) -> None:
    """The control's box is at least ``least`` CSS px each way."""
    expect(target).to_be_visible()
    box = target.bounding_box()
    assert box is not None
    assert box["width"] >= least and box["height"] >= least, f"{target}: {box}"


def test_main_controls_are_big_enough_to_tap(page: Page, eight_player_game: dict[str, Any]) -> None:
    """Start, save, went out, points, pick tiles, undo and each tile are 44 px or more."""
    page.goto(eight_player_game["edit_url"])
    page.goto("/")
    assert_tap_target(page.get_by_role("link", name="Start a new game"))
    page.goto("/games/new")
    assert_tap_target(page.get_by_label("Player 1", exact=True))
    assert_tap_target(page.get_by_role("button", name="Start the game"))

    page.goto(eight_player_game["edit_url"])
    dad = page.get_by_role("group", name="Dad")
    assert_tap_target(dad.get_by_label("Points for Dad"))
    # The tap lands on the label around the box, so that is the target's size.
    assert_tap_target(dad.locator("label").filter(has=page.get_by_label("Went out")))
    assert_tap_target(dad.get_by_role("link", name="Pick Dad's tiles"))
    assert_tap_target(page.get_by_role("button", name="Save round 13"))
    assert_tap_target(page.get_by_role("button", name="Undo last change"))

    dad.get_by_role("link", name="Pick Dad's tiles").click()
    tile = page.get_by_role("checkbox", name="6 6", exact=True)
    assert_tap_target(page.locator("label").filter(has=tile))
    assert_tap_target(page.get_by_role("button", name="Save Dad's tiles"))


def test_round_links_in_the_table_meet_the_minimum_target(
    page: Page, eight_player_game: dict[str, Any]
) -> None:
    """Editing a past round starts from its number in the table: 24 px at the very least."""
    page.goto(eight_player_game["edit_url"])
    assert_tap_target(page.get_by_role("link", name="Edit round 3", exact=True), MINIMUM_TAP_PX)


@pytest.mark.xfail(
    strict=True,
    reason="app: 'Edit round n' links in the 8-player table are about 38x32 px (see "
    "/work/notes/e2e-findings.md)",
)
def test_round_links_in_the_table_are_comfortable_to_tap(
    page: Page, eight_player_game: dict[str, Any]
) -> None:
    """Editing a past round is a main action on the sheet, so it gets a 44-px target too."""
    page.goto(eight_player_game["edit_url"])
    assert_tap_target(page.get_by_role("link", name="Edit round 3", exact=True))


def clipped_headers(page: Page) -> list[str]:
    """Player column headings whose text is cut off (shown with an ellipsis)."""
    return list(
        page.evaluate(
            """Array.from(document.querySelectorAll('table thead th'))
                 .filter(th => th.scrollWidth > th.clientWidth)
                 .map(th => th.textContent.trim())"""
        )
    )


def wrapped_totals(page: Page) -> list[str]:
    """Totals whose digits are broken over more than one line."""
    return list(
        page.evaluate(
            """Array.from(document.querySelectorAll('table tfoot td')).filter(td => {
                 const range = document.createRange();
                 range.selectNodeContents(td);
                 const lines = Array.from(range.getClientRects());
                 const tops = new Set(lines.map(r => Math.round(r.top)));
                 return tops.size > 1;
               }).map(td => td.textContent.trim())"""
        )
    )


@pytest.mark.xfail(
    strict=True,
    reason="app: at 8 players every heading is cut to one letter ('D…' for Dad, 'M…' for Mum) "
    "(see /work/notes/e2e-findings.md)",
)
def test_short_names_are_shown_whole_in_the_eight_player_table(
    page: Page, eight_player_game: dict[str, Any]
) -> None:
    """'Dad', 'Mum' and 'Eli' fit a column: cutting them to one letter loses who is who."""
    page.goto(eight_player_game["view_url"])
    clipped = clipped_headers(page)
    assert not [name for name in ("Dad", "Mum", "Eli") if name in clipped], clipped


@pytest.mark.xfail(
    strict=True,
    reason="app: a 4-digit total wraps as '102' over '6' in the 8-player table "
    "(see /work/notes/e2e-findings.md)",
)
def test_totals_are_not_broken_over_two_lines(
    page: Page, eight_player_game: dict[str, Any]
) -> None:
    """A total of 1000 or more stays on one line; '102' over '6' reads as two numbers."""
    page.goto(eight_player_game["view_url"])
    assert wrapped_totals(page) == []
