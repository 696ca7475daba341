"""People and the record book on a 360-px phone: a game set up by tapping people already in
the book, then the book, one person's chart and a head to head, every page axe clean."""

from __future__ import annotations

import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .helpers import TableApi

OUT = {"points": 0, "went_out": True}


def axe_clean(page: Page) -> None:
    page.wait_for_load_state("load")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360-px phone"


def test_setting_up_from_the_book_then_reading_it(page: Page, table_api: TableApi) -> None:
    # Ottilie 0+2+0 = 2 beats Pascal 5+0+3 = 8 and Quinn 4+6+1 = 11 (three short rounds).
    earlier = table_api.create_game(["Ottilie", "Pascal", "Quinn"], {"schedule": [2, 1, 0]})
    for n, scores in enumerate(
        [
            {"Ottilie": OUT, "Pascal": {"points": 5}, "Quinn": {"points": 4}},
            {"Ottilie": {"points": 2}, "Pascal": OUT, "Quinn": {"points": 6}},
            {"Ottilie": OUT, "Pascal": {"points": 3}, "Quinn": {"points": 1}},
        ],
        start=1,
    ):
        table_api.put_round(earlier, n, scores)

    page.goto("/games/new")
    people = page.get_by_role("group", name="People in the book")
    people.get_by_role("button", name="Quinn", exact=True).click()
    people.get_by_role("button", name="Ottilie", exact=True).click()
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("Quinn")
    expect(page.get_by_label("Player 2", exact=True)).to_have_value("Ottilie")
    expect(people.get_by_role("button", name="Quinn", exact=True)).to_be_disabled()
    page.get_by_label("Player 3", exact=True).fill("Sven")
    expect(page.get_by_text(re.compile(r"tiles each for 3 players"))).to_be_visible()
    axe_clean(page)
    page.get_by_role("button", name="Start the game").last.click()
    expect(page.get_by_role("button", name="Save round 1")).to_be_visible()
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    assert table_api.game(game_id)["players"] == ["Quinn", "Ottilie", "Sven"]

    page.goto("/")
    page.get_by_role("link", name="Record book", exact=True).click()
    expect(page.get_by_role("heading", name="The record book")).to_be_visible()
    ottilie = page.get_by_role("article", name="Ottilie")
    expect(ottilie).to_contain_text("Wins1 (100% of games)")
    expect(ottilie).to_contain_text("Went out2 of 3 rounds")
    axe_clean(page)

    page.get_by_label("First person").select_option(label="Ottilie")
    page.get_by_label("Second person").select_option(label="Pascal")
    page.get_by_role("button", name="Compare").click()
    result = page.get_by_role("status").filter(has_text="together")
    expect(result).to_contain_text("Ottilie and Pascal finished 1 game together.")
    expect(result).to_contain_text("On average Ottilie finished 6.0 points below Pascal")
    axe_clean(page)

    page.get_by_role("link", name="Quinn's games on a chart").click()
    expect(page.get_by_role("heading", name="Quinn's games over time")).to_be_visible()
    expect(
        page.get_by_role("img", name=re.compile("Quinn's total in each of 1 finished"))
    ).to_be_visible()

    page.get_by_role("link", name="Rename or merge people").click()
    page.get_by_label("New name for Sven").fill("Pascal")
    page.get_by_role("button", name="Rename Sven").click()
    expect(page.get_by_text(re.compile("Pascal is already in the book"))).to_be_visible()
    axe_clean(page)
