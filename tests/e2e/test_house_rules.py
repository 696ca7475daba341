"""House rules chosen on the setup page: explained with a source, shown all game, and scored."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .helpers import points_box, totals_row


def open_house_rules(page: Page) -> None:
    """Unfold the house rules part of the setup form, if it is folded."""
    page.goto("/games/new")
    rules = page.get_by_role("group", name="House rules")
    if not rules.is_visible():
        page.get_by_text(re.compile("^House rules:")).click()
    expect(rules).to_be_visible()


def test_every_house_rule_is_explained_with_its_source(page: Page) -> None:
    """Each control reads out what the rule decides and where it comes from."""
    open_house_rules(page)
    rules = page.get_by_role("group", name="House rules")
    controls = rules.get_by_role("combobox").all() + rules.get_by_role("spinbutton").all()
    assert len(controls) >= 20  # every key of the referee contract but set, deal and schedule
    for control in controls:
        expect(control).to_have_accessible_name(re.compile(r"\w"))
        expect(control).to_have_accessible_description(re.compile(r"\w.*Source: \S"))


def test_bonus_and_marker_penalty_chosen_at_setup_are_shown_and_scored(page: Page) -> None:
    """A -10 going-out bonus and a 10-point open-marker penalty reach the totals."""
    open_house_rules(page)
    for seat, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    page.get_by_label("Bonus for going out").fill("-10")
    page.get_by_label("Penalty for markers left up").fill("10")
    page.get_by_role("button", name="Start the game").click()

    rules = page.get_by_role("region", name="House rules")
    # Shown in words, not as setting names.
    expect(rules).to_contain_text("10 points off for going out")
    expect(rules).to_contain_text("10 points for each of your markers still up")

    page.get_by_role("group", name="Ann").get_by_label("Went out").check()
    points_box(page, "Bob").fill("20")
    page.get_by_role("group", name="Bob").get_by_label("Marker +10").check()
    points_box(page, "Cy").fill("5")
    page.get_by_role("button", name="Save round 1").click()

    expect(totals_row(page)).to_have_text(["-10", "30", "5"])
    expect(page.get_by_role("region", name="House rules")).to_contain_text(
        "10 points off for going out"
    )
