"""axe-core finds no accessibility violations on the main pages, as a phone shows them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .helpers import TableApi

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
ROUNDS: list[dict[str, Any]] = [
    {"Ann": {"points": 0, "went_out": True}, "Bob": {"points": 23}, "Cy": {"points": 7},
     "Dee": {"points": 41}},
    {"Ann": {"points": 12}, "Bob": {"points": 0, "went_out": True},
     "Cy": {"tiles": [[6, 5], [0, 0]]}, "Dee": {"points": 30}},
    {"Ann": {"points": 5}, "Bob": {"points": 18}, "Cy": {"points": 0, "went_out": True},
     "Dee": {"points": 9}},
]  # fmt: skip


@pytest.fixture(scope="module")
def game_in_progress(table_api: TableApi) -> dict[str, Any]:
    """A game three rounds in, so the chart, history and tile notes are on the page."""
    created = table_api.create_game(PLAYERS)
    for n, scores in enumerate(ROUNDS, start=1):
        table_api.put_round(created, n, scores)
    return created


def open_home(page: Page, game: dict[str, Any]) -> None:
    page.goto(game["edit_url"])  # the home page then lists a game this phone may resume
    page.goto("/")
    expect(
        page.get_by_role("link", name="Resume the game of Ann, Bob, Cy, Dee").first
    ).to_be_visible()


def open_home_with_a_finished_game(page: Page, game: dict[str, Any]) -> None:
    created = page.request.post(
        "/api/games", data={"players": ["Eve", "Fay"], "rules": {"schedule": [2, 1, 0]}}
    ).json()
    for n in range(1, 4):
        page.request.put(
            f"/api/games/{created['id']}/rounds/{n}",
            data={"scores": {"Eve": {"went_out": True}, "Fay": {"points": n}}, "version": n},
            headers={"Authorization": f"Bearer {created['edit_token']}"},
        )
    page.goto(created["edit_url"])
    page.goto("/")
    expect(page.get_by_text("Finished: Eve wins with 0.")).to_be_visible()


def open_new_game(page: Page, game: dict[str, Any]) -> None:
    page.goto("/games/new")


def open_new_game_with_errors(page: Page, game: dict[str, Any]) -> None:
    page.goto("/games/new")
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("Ann")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_label("Player 2", exact=True)).to_have_attribute("aria-invalid", "true")


def open_scoresheet(page: Page, game: dict[str, Any]) -> None:
    page.goto(game["edit_url"])
    expect(page.get_by_role("button", name="Save round 4")).to_be_visible()


def open_scoresheet_with_errors(page: Page, game: dict[str, Any]) -> None:
    page.goto(game["edit_url"])
    page.get_by_label("Points for Ann").fill("-1")
    page.get_by_role("button", name="Save round 4").click()
    expect(page.get_by_label("Points for Ann")).to_have_attribute("aria-invalid", "true")


def open_scoresheet_asking_to_confirm(page: Page, game: dict[str, Any]) -> None:
    page.goto(game["edit_url"])
    page.get_by_label("Points for Ann").fill("999")
    page.get_by_role("button", name="Save round 4").click()
    expect(page.get_by_label("Yes, 999 is right for Ann")).to_be_visible()


def open_scoresheet_with_a_conflict(page: Page, game: dict[str, Any]) -> None:
    created = page.request.post("/api/games", data={"players": PLAYERS, "rules": {}}).json()
    page.goto(created["edit_url"])
    page.request.put(
        f"/api/games/{created['id']}/rounds/1",
        data={"scores": {"Ann": {"points": 6}}, "version": 1},
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    )
    page.get_by_label("Points for Ann").fill("5")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_label("Use mine (5) instead")).to_be_visible()


def open_share_view(page: Page, game: dict[str, Any]) -> None:
    page.goto(game["view_url"])
    expect(page.get_by_text("Read-only view")).to_be_visible()


def open_tile_picker(page: Page, game: dict[str, Any]) -> None:
    page.goto(game["edit_url"])
    page.get_by_role("link", name="Pick Bob's tiles").click()
    page.get_by_role("checkbox", name="12 12", exact=True).check()


def open_house_rules(page: Page, game: dict[str, Any]) -> None:
    page.goto(game["edit_url"])
    page.get_by_role("link", name="Change the house rules").click()
    expect(page.get_by_role("button", name="Save the house rules")).to_be_visible()


def open_house_rules_with_a_conflict(page: Page, game: dict[str, Any]) -> None:
    created = page.request.post("/api/games", data={"players": PLAYERS, "rules": {}}).json()
    page.goto(created["edit_url"])
    page.get_by_role("link", name="Change the house rules").click()
    other = page.context.new_page()
    other.goto(page.url)
    other.get_by_label("What blanks count").select_option("double_blank_50")
    other.get_by_role("button", name="Save the house rules").click()
    # The other phone's save must have landed (and its page settled) before this one saves.
    expect(other.get_by_text(re.compile("House rules changed"))).to_be_visible()
    other.close()
    page.get_by_label("What blanks count").select_option("double_blank_25")
    page.get_by_role("button", name="Save the house rules").click()
    expect(
        page.get_by_label("Use mine (the double-blank counts 25; other blanks count 0)")
    ).to_be_visible()


def open_error_page(page: Page, game: dict[str, Any]) -> None:
    page.goto("/games/no-such-game")


PAGES: dict[str, Callable[[Page, dict[str, Any]], None]] = {
    "home": open_home,
    "home with a finished game": open_home_with_a_finished_game,
    "new game": open_new_game,
    "new game with errors": open_new_game_with_errors,
    "scoresheet": open_scoresheet,
    "scoresheet with errors": open_scoresheet_with_errors,
    "scoresheet asking to confirm": open_scoresheet_asking_to_confirm,
    "scoresheet with a conflict": open_scoresheet_with_a_conflict,
    "share view": open_share_view,
    "tile picker": open_tile_picker,
    "house rules": open_house_rules,
    "house rules with a conflict": open_house_rules_with_a_conflict,
    "error page": open_error_page,
}


@pytest.mark.parametrize("where", list(PAGES))
def test_page_has_no_axe_violations(
    page: Page, game_in_progress: dict[str, Any], where: str
) -> None:
    """Every rule axe-core ships (WCAG 2.x A/AA and best practice) passes, folded parts open."""
    PAGES[where](page, game_in_progress)
    page.wait_for_load_state("load")
    # axe skips what is hidden; the rules list, edit link and history sit in <details>.
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
