"""A phone that knows whose it is ends a game and shares the winner card, at 360x780."""

from __future__ import annotations

import json
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .helpers import TableApi, points_box

PLAYERS = ["Ann", "Bob", "Cy"]
SHORT = {"preset": "standard", "schedule": [2, 1]}

# Chromium on Linux has no share sheet: a stand-in that records what the page asked to share.
SHARE_STUB = """
window.shared = [];
navigator.canShare = function (data) { return !!(data && data.files && data.files.length); };
navigator.share = function (data) {
  window.shared.push({
    files: data.files.map(function (file) {
      return {name: file.name, type: file.type, size: file.size};
    }),
    text: data.text
  });
  return Promise.resolve();
};
"""
# A browser that can share text but not files (no canShare at all), with a recorded clipboard.
NO_FILE_SHARE_STUB = """
window.shared = [];
window.copied = [];
Object.defineProperty(Navigator.prototype, "canShare", {value: undefined, configurable: true});
navigator.share = function (data) { window.shared.push(data); return Promise.resolve(); };
Object.defineProperty(navigator, "clipboard", {value: {
  writeText: function (text) { window.copied.push(text); return Promise.resolve(); }
}, configurable: true});
"""


def no_axe_violations(page: Page) -> None:
    page.wait_for_load_state("load")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def game_one_round_from_the_end(table_api: TableApi) -> dict[str, Any]:
    created = table_api.create_game(PLAYERS, SHORT)
    table_api.put_round(
        created, 1, {"Ann": {"points": 20}, "Bob": {"went_out": True}, "Cy": {"points": 9}}
    )
    return created


def hold_and_end_the_game(page: Page, created: dict[str, Any]) -> None:
    """This phone says it is Bob's, then enters the last round in the form."""
    page.goto(created["edit_url"])
    page.get_by_label("This phone is").select_option("Bob")
    page.get_by_role("button", name="Save", exact=True).click()
    standings = page.locator("ol.standings")
    expect(standings.get_by_role("listitem").filter(has_text="Bob")).to_contain_text("you")
    expect(page.locator("#entry legend").first).to_have_text("Bob you")  # Bob's box comes first
    points_box(page, "Ann").fill("11")
    points_box(page, "Bob").fill("7")
    page.get_by_role("group", name="Cy").get_by_label("Went out").check()
    page.get_by_role("button", name="Save round 2").click()
    expect(page.get_by_text("Bob wins with 7!")).to_be_visible()


def test_phone_holding_bob_ends_the_game_and_shares_the_card(
    page: Page, table_api: TableApi
) -> None:
    created = game_one_round_from_the_end(table_api)
    page.add_init_script(SHARE_STUB)
    hold_and_end_the_game(page, created)
    no_axe_violations(page)
    page.get_by_role("link", name="Share the winner card").click()
    card = page.get_by_role("img", name="Mexican Train: Bob wins!", exact=False)
    expect(card).to_be_visible()
    page.wait_for_function("() => document.querySelector('.winner-card img').complete")
    assert page.evaluate("document.querySelector('.winner-card img').naturalWidth") == 1080
    box = card.bounding_box()
    assert box is not None and box["width"] <= 360  # fits the phone
    no_axe_violations(page)
    page.get_by_role("button", name="Share").click()
    expect(page.get_by_role("status").filter(has_text="Shared.")).to_be_visible()
    shared = page.evaluate("window.shared")
    assert len(shared) == 1
    (file,) = shared[0]["files"]
    assert file["name"] == f"mexican-train-{created['id']}-winner.png"
    assert file["type"] == "image/png"
    assert file["size"] > 1000
    assert shared[0]["text"].startswith("Mexican Train: Bob wins! 7 points after 2 rounds.")
    # Rejoining by the read-only link (the QR code) on the same phone: still Bob's.
    page.goto(created["view_url"])
    expect(
        page.locator("ol.standings").get_by_role("listitem").filter(has_text="Bob")
    ).to_contain_text("you")


def test_without_file_sharing_the_card_is_offered_to_download_and_its_text_to_copy(
    page: Page, table_api: TableApi
) -> None:
    created = game_one_round_from_the_end(table_api)
    table_api.put_round(
        created, 2, {"Ann": {"points": 11}, "Bob": {"points": 7}, "Cy": {"went_out": True}}
    )
    page.add_init_script(NO_FILE_SHARE_STUB)
    page.goto(f"/games/{created['id']}/winner")
    page.get_by_role("button", name="Share").click()
    expect(page.get_by_role("status").filter(has_text="can't share pictures")).to_be_visible()
    assert page.evaluate("window.shared") == []
    download = page.get_by_role("link", name="Download the picture")
    expect(download).to_be_visible()
    expect(download).to_have_attribute("download", f"mexican-train-{created['id']}-winner.png")
    response = page.request.get(download.get_attribute("href") or "")
    assert response.headers["content-type"] == "image/png"
    page.get_by_role("button", name="Copy the text").click()
    expect(page.get_by_role("status").filter(has_text="Text copied.")).to_be_visible()
    copied = page.evaluate("window.copied")
    assert copied == [page.get_by_label("The text to send with it").input_value()]
    assert copied[0].startswith("Mexican Train: Bob wins!")
    no_axe_violations(page)


def test_import_page_reports_what_it_imported_and_skipped(page: Page, table_api: TableApi) -> None:
    created = game_one_round_from_the_end(table_api)
    page.goto("/")
    page.get_by_role("link", name="Download every game, or import games").click()
    no_axe_violations(page)
    export = page.request.get("/games/export.json").json()
    mine = next(game for game in export["games"] if game["id"] == created["id"])
    bad = json.loads(json.dumps(mine))
    bad["rounds"][0]["scores"]["Ann"] = {"points": 5000}
    body = json.dumps({**export, "games": [mine, bad]}).encode()
    page.get_by_label("Export file (JSON)").set_input_files(
        {"name": "games.json", "mimeType": "application/json", "buffer": body}
    )
    page.get_by_role("button", name="Import").click()
    report = page.locator("#import-report")
    expect(report).to_contain_text("Imported 0 games; skipped 2.")
    expect(report).to_contain_text("Game 1 (Ann, Bob, Cy): it is already here")
    expect(report).to_contain_text("Game 2 (Ann, Bob, Cy): round 1, Ann: 5000 is more than")
    no_axe_violations(page)
