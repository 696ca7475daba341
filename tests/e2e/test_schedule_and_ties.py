"""A short game chosen at setup, and a game that ends in a tie."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Locator, Page, expect

from .helpers import TableApi

SHORT_GAME_ROUNDS = 7


def schedule_rows(page: Page) -> Locator:
    """The body rows of the schedule table (one per round)."""
    schedule = page.get_by_role("region", name="Schedule")
    return schedule.get_by_role("row").filter(has=page.get_by_role("cell"))


def test_short_game_chosen_at_setup_has_seven_rounds_from_the_top_double(page: Page) -> None:
    """The preview counts 7 rounds; the sheet then schedules engines 12|12 down to 6|6."""
    page.goto("/games/new")
    for seat, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    page.get_by_label("Schedule of engines").select_option(
        label="Short game: 7 rounds from the highest double"
    )
    expect(page.get_by_role("status").filter(has_text="tiles each")).to_contain_text(
        f"{SHORT_GAME_ROUNDS} rounds"
    )
    page.get_by_role("button", name="Start the game").click()

    expect(schedule_rows(page)).to_have_count(SHORT_GAME_ROUNDS)
    engines = schedule_rows(page).get_by_role("cell").filter(has_text=re.compile(r"^\d+\|\d+$"))
    expect(engines).to_have_text([f"{d}|{d}" for d in range(12, 12 - SHORT_GAME_ROUNDS, -1)])
    # The leader moves round the table, in seat order.
    expect(schedule_rows(page).nth(0)).to_contain_text("Ann")
    expect(schedule_rows(page).nth(1)).to_contain_text("Bob")
    expect(schedule_rows(page).nth(2)).to_contain_text("Cy")


def test_a_tied_game_names_every_winner_on_both_phones(
    page: Page, new_context: Callable[[], BrowserContext], table_api: TableApi
) -> None:
    """Two players level on the lowest total both win; the follower sees it by itself."""
    created = table_api.create_game(
        ["Ann", "Bob", "Cy"], {"preset": "standard", "schedule": "descend_from_max"}
    )
    rounds = len(table_api.game(created["id"])["rounds"])
    for n in range(1, rounds):
        table_api.put_round(
            created,
            n,
            {
                "Ann": {"points": 10 if n == 1 else 5},
                "Bob": {"points": 5},
                "Cy": {"points": 0, "went_out": True},
            },
        )
    viewer = new_context().new_page()
    viewer.goto(created["view_url"])
    page.goto(created["edit_url"])

    # Last round: Ann goes out and Bob keeps 5, leaving them level at the bottom; Cy's 0s are
    # undone by one big hand.
    last_total = 5 * rounds
    cy_last = last_total + 10
    page.get_by_role("group", name="Ann").get_by_label("Went out").check()
    page.get_by_label("Points for Bob").fill("5")
    page.get_by_label("Points for Cy").fill(str(cy_last))
    page.get_by_role("button", name=f"Save round {rounds}").click()

    tie = f"Tie: Ann and Bob win with {last_total}."
    expect(page.get_by_text(tie)).to_be_visible()
    expect(viewer.get_by_text(tie)).to_be_visible(timeout=2000)
