"""The round form and the house-rules form never lose a number or mislead (issue 26).

"Went out" keeps what was typed, a second "went out" and a score of 0 are spoken of at the
field the moment they happen, and a save that came too late flags only what this phone changed.
"""

from __future__ import annotations

import re
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .helpers import TableApi, points_box, totals_row

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def went_out(page: Page, name: str) -> Any:
    return page.get_by_role("group", name=name).get_by_label("Went out")


def test_went_out_keeps_a_typed_score_and_unticking_brings_it_back(
    page: Page, table_api: TableApi
) -> None:
    created = table_api.create_game(PLAYERS)
    page.goto(created["edit_url"])
    points_box(page, "Ann").fill("17")
    went_out(page, "Ann").check()
    expect(points_box(page, "Ann")).to_be_disabled()
    went_out(page, "Ann").uncheck()
    expect(points_box(page, "Ann")).to_be_enabled()
    expect(points_box(page, "Ann")).to_have_value("17")


def test_a_second_went_out_is_said_at_the_field_as_soon_as_it_is_ticked(
    page: Page, table_api: TableApi
) -> None:
    created = table_api.create_game(PLAYERS)
    page.goto(created["edit_url"])
    went_out(page, "Ann").check()
    expect(page.get_by_role("group", name="Bob").get_by_role("alert")).to_have_count(0)
    went_out(page, "Bob").check()
    bob = page.get_by_role("group", name="Bob")
    expect(bob.get_by_role("alert")).to_contain_text("Ann is already marked as going out")
    expect(went_out(page, "Bob")).to_have_attribute("aria-invalid", "true")
    # The words sit by the box just ticked, within one screen of it.
    box = went_out(page, "Bob").bounding_box()
    said = bob.get_by_role("alert").bounding_box()
    assert box and said and abs(said["y"] - box["y"]) < 200
    # Untick either one and the message goes.
    went_out(page, "Ann").uncheck()
    expect(bob.get_by_role("alert")).to_have_count(0)
    expect(went_out(page, "Bob")).not_to_have_attribute("aria-invalid", "true")


def test_typing_0_without_went_out_asks_once_whether_they_went_out(
    page: Page, table_api: TableApi
) -> None:
    created = table_api.create_game(PLAYERS)
    page.goto(created["edit_url"])
    question = page.get_by_role("group", name="Did Cy go out?")
    points_box(page, "Cy").fill("0")
    points_box(page, "Cy").press("Tab")
    expect(question).to_be_visible()
    question.get_by_role("button", name="Yes, Cy went out").click()
    expect(went_out(page, "Cy")).to_be_checked()
    expect(question).to_have_count(0)
    # Asked once: 0 typed again (after unticking) is taken as typed.
    went_out(page, "Cy").uncheck()
    points_box(page, "Cy").fill("0")
    points_box(page, "Cy").press("Tab")
    expect(question).to_have_count(0)

    # Another player's 0, answered "no", is saved as a score of 0, not going out.
    points_box(page, "Dee").fill("0")
    points_box(page, "Dee").press("Tab")
    dee_question = page.get_by_role("group", name="Did Dee go out?")
    dee_question.get_by_role("button", name="No, 0 points").click()
    expect(went_out(page, "Dee")).not_to_be_checked()
    expect(points_box(page, "Dee")).to_have_value("0")
    expect(dee_question).to_have_count(0)


def test_a_late_save_flags_only_the_cells_this_phone_changed(
    page: Page, table_api: TableApi
) -> None:
    """Ann's score was changed on another phone, this one changed only Bob's: Ann is no
    conflict (this phone never touched her 8), and both changes are kept."""
    created = table_api.create_game(PLAYERS)
    table_api.put_round(created, 1, {"Ann": {"points": 8}, "Bob": {"points": 5}})
    page.goto(f"{created['edit_url']}")
    page.goto(f"/games/{created['id']}?round=1#entry")
    expect(points_box(page, "Ann")).to_have_value("8")
    table_api.put_round(created, 1, {"Ann": {"points": 10}, "Bob": {"points": 5}})
    points_box(page, "Bob").fill("6")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name="Save round 1").click()
    assert answer.value.status == 409
    expect(page.get_by_role("group", name="Ann")).not_to_contain_text("yours")
    expect(points_box(page, "Ann")).to_have_value("10")
    expect(points_box(page, "Bob")).to_have_value("6")
    page.get_by_role("button", name="Save round 1").click()
    expect(totals_row(page)).to_have_text(["10", "6", "0", "0"])


def test_a_late_house_rules_save_flags_only_the_rules_this_phone_changed(page: Page) -> None:
    created = page.request.post("/api/games", data={"players": PLAYERS, "rules": {}}).json()
    page.goto(created["edit_url"])
    page.get_by_role("link", name="Change the house rules").click()
    other = page.context.new_page()
    other.goto(page.url)
    other.get_by_label("What blanks count").select_option("double_blank_50")
    other.get_by_role("button", name="Save the house rules").click()
    expect(other.get_by_text(re.compile("House rules changed"))).to_be_visible()
    other.close()
    page.get_by_label("Bonus for going out").fill("-10")
    page.get_by_role("button", name="Save the house rules").click()
    expect(page.get_by_role("alert")).to_contain_text("None of the rules you changed")
    expect(page.get_by_text(re.compile("yours:"))).to_have_count(0)
    page.get_by_role("button", name="Save the house rules").click()
    expect(page.get_by_text(re.compile("House rules changed"))).to_be_visible()
    rules = page.request.get(f"/api/games/{created['id']}").json()["rules"]
    assert rules["blank_scoring"] == "double_blank_50"
    assert rules["going_out_bonus"] == -10


def test_the_round_form_passes_axe_with_its_questions_open(page: Page, table_api: TableApi) -> None:
    created = table_api.create_game(PLAYERS)
    page.goto(created["edit_url"])
    went_out(page, "Ann").check()
    went_out(page, "Bob").check()
    points_box(page, "Cy").fill("0")
    points_box(page, "Cy").press("Tab")
    expect(page.get_by_role("group", name="Did Cy go out?")).to_be_visible()
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
