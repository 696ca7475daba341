"""Two phones editing at once, and input a scorekeeper gets wrong: clear words, nothing lost."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, expect

from .helpers import TableApi, points_box, totals_row

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
STALE_MESSAGE = re.compile("changed on another phone.*nothing was saved", re.IGNORECASE)


def type_round(page: Page, scores: list[int]) -> None:
    """Type every player's points into the open round form."""
    for name, score in zip(PLAYERS, scores, strict=True):
        points_box(page, name).fill(str(score))


def test_a_stale_form_from_a_second_phone_shows_both_values_and_loses_nothing(
    page: Page, new_context: Callable[[], BrowserContext], table_api: TableApi
) -> None:
    """Both phones open round 1; the slower one sees each clashing cell with both values, the
    sheet's value kept unless it picks its own, and nothing either phone typed is lost."""
    created = table_api.create_game(PLAYERS)
    page.goto(created["edit_url"])
    page.get_by_text("Let another phone enter scores").click()
    edit_link = page.get_by_role("region", name="Share").get_by_role(
        "link", name=re.compile("edit")
    )
    edit_url = edit_link.get_attribute("href")
    assert edit_url
    second = new_context().new_page()
    second.goto(edit_url)
    expect(second.get_by_role("button", name="Save round 1")).to_be_visible()

    first_scores, second_scores = [10, 20, 30, 40], [11, 20, 31, 40]
    type_round(page, first_scores)
    page.get_by_role("button", name="Save round 1").click()
    expect(totals_row(page)).to_have_text([str(s) for s in first_scores])

    # The second phone is warned by itself before it sends anything.
    expect(second.get_by_role("status").filter(has_text="changed on another phone")).to_be_visible(
        timeout=2000
    )
    type_round(second, second_scores)
    with second.expect_response(lambda r: r.request.method == "POST") as answer:
        second.get_by_role("button", name="Save round 1").click()
    assert answer.value.status == 409
    expect(second.get_by_role("alert")).to_have_text(STALE_MESSAGE)
    # Ann's and Cy's cells clash: each shows both values, the sheet's in the box.
    for name, sheet, mine in (("Ann", 10, 11), ("Cy", 30, 31)):
        group = second.get_by_role("group", name=name)
        expect(group).to_contain_text(f"On the sheet now: {sheet} — yours: {mine}.")
        expect(points_box(second, name)).to_have_value(str(sheet))
    for name in ("Bob", "Dee"):
        expect(second.get_by_role("group", name=name)).not_to_contain_text("On the sheet now")
    expect(totals_row(second)).to_have_text([str(s) for s in first_scores])
    assert [s["points"] for s in table_api.game(created["id"])["rounds"][0]["scores"].values()] == (
        first_scores
    )

    # The second phone keeps its own value for Ann only; Cy keeps the sheet's.
    second.get_by_role("group", name="Ann").get_by_label("Use mine (11) instead").check()
    second.get_by_role("button", name="Save round 1").click()
    expected = [11, 20, 30, 40]
    expect(totals_row(second)).to_have_text([str(s) for s in expected])
    expect(totals_row(page)).to_have_text([str(s) for s in expected], timeout=2000)


def test_bad_points_get_a_message_next_to_each_field_and_nothing_is_saved(
    page: Page, table_api: TableApi
) -> None:
    """Negative, fractional, non-numeric and impossible points are each explained in place."""
    created = table_api.create_game(PLAYERS)
    page.goto(created["edit_url"])
    typed = {"Ann": "-3", "Bob": "2.5", "Cy": "lots", "Dee": "1100"}
    expected = {
        "Ann": re.compile("negative", re.IGNORECASE),
        "Bob": re.compile("whole number", re.IGNORECASE),
        "Cy": re.compile("whole number", re.IGNORECASE),
        "Dee": re.compile(r"more than any hand.*at most \d+", re.IGNORECASE),
    }
    for name, text in typed.items():
        points_box(page, name).fill(text)
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name="Save round 1").click()
    assert answer.value.status == 400

    for name, message in expected.items():
        box = points_box(page, name)
        expect(box).to_have_value(typed[name])
        expect(box).to_have_attribute("aria-invalid", "true")
        # Screen readers read the message with the field; sighted players see it in its group.
        expect(box).to_have_accessible_description(message)
        expect(page.get_by_role("group", name=name).get_by_text(message)).to_be_visible()
    expect(totals_row(page)).to_have_text(["0"] * len(PLAYERS))
    assert table_api.game(created["id"])["rounds"][0]["scores"] == {}


def game_count(page: Page) -> int:
    """How many games the home page lists."""
    page.goto("/")
    return page.get_by_role("region", name="Games").get_by_role("listitem").count()


def test_setup_form_explains_duplicate_and_missing_players_in_place(page: Page) -> None:
    """Two players called Ann (in any case) are refused at the second one; one player is refused."""
    before = game_count(page)
    page.goto("/games/new")
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("ann")
    page.get_by_label("Player 3", exact=True).fill("Bob")
    page.get_by_role("button", name="Start the game").click()
    second_seat = page.get_by_label("Player 2", exact=True)
    expect(second_seat).to_have_accessible_description(re.compile("already the name of player 1"))
    expect(second_seat).to_have_value("ann")
    expect(page.get_by_label("Player 3", exact=True)).to_have_value("Bob")

    second_seat.fill("")
    page.get_by_label("Player 3", exact=True).fill("")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("alert")).to_have_text(re.compile("at least 2 players"))

    assert game_count(page) == before


def test_expired_session_gets_a_plain_message_not_a_traceback(page: Page) -> None:
    """A form sent after the phone lost its session cookie is refused by CSRF, in words."""
    page.goto("/games/new")
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("Bob")
    page.context.clear_cookies()
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name="Start the game").click()
    assert answer.value.status == 400
    expect(page.get_by_role("alert")).to_have_text(re.compile("Reload the page and try again"))
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_wrong_edit_link_and_unknown_game_get_friendly_pages(
    page: Page, table_api: TableApi
) -> None:
    """A mistyped edit link is refused (403) and a deleted game is reported (404), in words."""
    created = table_api.create_game(PLAYERS)
    response = page.goto(f"/games/{created['id']}/edit/not-the-token")
    assert response is not None and response.status == 403
    expect(page.get_by_role("heading", level=1)).to_have_text("This link can't change this game")
    expect(page.get_by_role("link", name="Back to the games")).to_be_visible()

    response = page.goto("/games/no-such-game")
    assert response is not None and response.status == 404
    expect(page.get_by_role("alert")).to_have_text(re.compile("no game", re.IGNORECASE))
    expect(page.get_by_text("Traceback")).to_have_count(0)
