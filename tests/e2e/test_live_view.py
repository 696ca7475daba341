"""The read-only phone: told in a live region when scores change, and when the game is deleted."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, expect

from .helpers import TableApi, totals_row

LIVE_UPDATE_MS = 2000


def test_follower_hears_new_standings_and_learns_the_game_was_deleted(
    page: Page, new_context: Callable[[], BrowserContext], table_api: TableApi
) -> None:
    """A screen reader on the follower's phone gets the standings; deletion is said in words."""
    created = table_api.create_game(["Ann", "Bob", "Cy"])
    viewer = new_context().new_page()
    viewer.goto(created["view_url"])
    viewer.evaluate("window.e2eNeverReloaded = true")

    table_api.put_round(
        created,
        1,
        {"Ann": {"points": 30}, "Bob": {"points": 0, "went_out": True}, "Cy": {"points": 12}},
    )
    expect(totals_row(viewer)).to_have_text(["30", "0", "12"], timeout=LIVE_UPDATE_MS)
    # Swapped-in table cells are not announced, so a polite live region says the standings.
    announcement = viewer.locator("[aria-live=polite]").filter(has_text="Scores updated")
    expect(announcement).to_have_text("Scores updated. Bob 0, Cy 12, Ann 30.")

    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(created["edit_url"])
    page.get_by_role("button", name="Delete this game").click()
    expect(page.get_by_text("Game deleted.")).to_be_visible()
    expect(
        viewer.get_by_role("status").filter(has_text="This game has been deleted.")
    ).to_be_visible(timeout=LIVE_UPDATE_MS)
    assert viewer.evaluate("window.e2eNeverReloaded") is True


def test_read_only_pages_never_reveal_the_edit_token(
    page: Page, new_context: Callable[[], BrowserContext], table_api: TableApi
) -> None:
    """Anyone with the view link, or the bare game address, sees scores but no way to edit."""
    created = table_api.create_game(["Ann", "Bob"])
    table_api.put_round(created, 1, {"Ann": {"points": 4}, "Bob": {"points": 0, "went_out": True}})
    stranger = new_context().new_page()
    game_page = created["view_url"].removesuffix("/view")
    for url in (created["view_url"], game_page, "/"):
        stranger.goto(url)
        stranger.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        assert created["edit_token"] not in stranger.content()
        expect(
            stranger.get_by_role("button", name=re.compile("Save round|Undo|Delete"))
        ).to_have_count(0)
    expect(totals_row(stranger)).to_have_count(0)  # the home page has no scoresheet
    stranger.goto(game_page)
    expect(totals_row(stranger)).to_have_text(["4", "0"])


def test_a_live_refresh_does_not_swallow_the_saved_confirmation(
    page: Page, table_api: TableApi
) -> None:
    """The sheet's own refresh, landing between a save and the page that confirms it, keeps
    the confirmation (two tabs on one phone, or a slow redirect, give exactly this order)."""
    created = table_api.create_game(["Ann", "Bob"])
    page.goto(created["edit_url"])
    form = page.locator("form").filter(has=page.get_by_role("button", name="Save round 1"))
    fields: dict[str, str | float | bool] = {
        "csrf_token": form.locator("input[name=csrf_token]").input_value(),
        "version": form.locator("input[name=version]").input_value(),
        "points-0": "5",
        "points-1": "6",
    }
    action = form.get_attribute("action")
    assert action
    # The same phone (same cookies) saves the round, as another tab would ...
    saved = page.context.request.post(action, form=fields, max_redirects=0)
    assert saved.status == 302
    # ... the open sheet notices the new version and refreshes itself ...
    with page.expect_response(
        lambda r: r.request.resource_type == "fetch" and r.url.endswith(created["id"]),
        timeout=LIVE_UPDATE_MS * 2,
    ) as refresh:
        pass
    refresh.value.finished()
    # Its cookie is stored by the time the next poll goes out.
    with page.expect_response(lambda r: "/api/games/" in r.url, timeout=LIVE_UPDATE_MS * 2):
        pass
    # ... and then the redirect after the save is followed.
    page.goto(saved.headers["location"])
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
