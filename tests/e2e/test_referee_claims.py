"""On a 360x780 phone: a ruling cites the sources of the value in force, and lists other
values only with what the judge says when asked again under them."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from companion.rules.describe import where_from
from companion.rules.keys import SOURCE_TITLES

from .helpers import TableApi
from .test_referee import ruling, start


def test_a_changed_penalty_cites_its_own_source_and_the_other_penalties(
    page: Page, table_api: TableApi
) -> None:
    taps = start(page, table_api, {"preset": "fundex"})
    taps.tap(page.get_by_role("link", name=re.compile("I forgot to call my last tile")))
    taps.tap(page.locator("details.rules-used > summary"))
    taps.choose(page.get_by_label("Change one rule for this question"), "last_tile_call=draw1")
    taps.rule()
    section = ruling(page)
    expect(section.locator(".verdict")).to_have_text("Draw 1")
    facts = section.locator(".rule-facts")
    expect(facts).to_contain_text(SOURCE_TITLES["S-25"][1:])
    expect(facts).not_to_contain_text(where_from("fundex", "last_tile_call")[1:])
    alternatives = section.locator(".alternatives li")
    expect(alternatives.first).to_contain_text("Draw 2 tiles if forgetting costs two tiles")
    expect(section).to_contain_text("Under these other house rules the ruling would be:")
    # The ruling's words fit the phone: nothing runs off the side.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_an_allowed_cover_names_the_rule_it_passed(page: Page, table_api: TableApi) -> None:
    taps = start(page, table_api)
    taps.seat("Whose turn is it?", "Cy")
    taps.half(0, "a", 9)
    taps.half(0, "b", 4)
    taps.train(0, "Bea")
    page.get_by_label("Bea's train ends in").select_option("9")
    page.locator('input[name="open-1"]').check()
    taps.rule()
    section = ruling(page)
    expect(section.locator(".verdict")).to_have_text("Allowed")
    expect(section.locator(".checked li")).to_contain_text(
        "An open double stops play: all play stops until it is covered"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
