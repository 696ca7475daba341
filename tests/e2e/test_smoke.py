"""The home page opens on a phone and leads to a new game."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def test_home_page_offers_a_new_game_and_a_join_code(page: Page) -> None:
    """A phone at the table sees the title, the join QR code and the way to start a game."""
    response = page.goto("/")

    assert response is not None and response.status == 200
    expect(page).to_have_title(re.compile("Mexican Train"))
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Mexican Train"))
    expect(page.get_by_role("heading", name="Join from a phone")).to_be_visible()
    expect(page.get_by_role("img", name=re.compile(r"^QR code for http"))).to_be_visible()

    page.get_by_role("link", name="Start a new game").click()

    expect(page).to_have_url(re.compile(r"/games/new$"))
    expect(page.get_by_role("heading", level=1, name="New game")).to_be_visible()


def test_pages_let_the_reader_zoom(page: Page) -> None:
    """Older players pinch to zoom: the viewport must not forbid it or cap it below 200 %."""
    page.goto("/")
    content = page.locator("meta[name=viewport]").get_attribute("content") or ""
    settings = dict(
        part.split("=", 1) for part in content.replace(" ", "").lower().split(",") if "=" in part
    )
    assert settings.get("width") == "device-width"
    assert settings.get("user-scalable", "yes") not in ("no", "0")
    assert float(settings.get("maximum-scale", "10")) >= 2
