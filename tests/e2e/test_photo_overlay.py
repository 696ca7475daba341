"""The photo back with what was read drawn on it, on a 360 px phone: outlines and chips, fix a
tile, remove one, add one it missed, save; by touch and by keyboard; a big photo is shrunk
before it is sent; an iPhone's HEIC photo goes through the page too."""

from __future__ import annotations

import io
import re
from typing import Any

import cv2
import numpy as np
import pytest
from axe_playwright_python.sync_playwright import Axe
from PIL import Image
from playwright.sync_api import Page, Request, expect
from pytest_playwright.pytest_playwright import CreateContextCallback

from companion.rules import Rules, Tile, score_hand
from training.synth import render_scene
from vision.halves import DEFAULT_HALF_MODEL

from .helpers import TableApi, points_box, totals_row

pytestmark = pytest.mark.skipif(
    not DEFAULT_HALF_MODEL.is_file(), reason=f"half-reader model not found: {DEFAULT_HALF_MODEL}"
)

PLAYERS = ["Ann", "Bob", "Cy"]
READING_TIMEOUT_MS = 60_000  # one photo read on a busy 2-core machine
RULES = {"preset": "standard", "blank_scoring": "double_blank_50"}


def phone_photo(seed: int = 2) -> bytes:
    """A 3200x2400 JPEG of a rendered hand: bigger than the reader needs, as a phone takes."""
    scene = render_scene(seed, n_tiles=(4, 6), size=(1600, 1200))
    big = cv2.resize(scene.image, (3200, 2400), interpolation=cv2.INTER_CUBIC)
    ok, encoded = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return encoded.tobytes()


def heic_photo(seed: int = 2) -> bytes:
    image = render_scene(seed, n_tiles=(4, 6), size=(1280, 960)).image
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(image[:, :, ::-1])).save(buffer, format="HEIF")
    return buffer.getvalue()


def chip_labels(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#photo-chips .chip-label").all_inner_texts()]


def photograph(page: Page, table_api: TableApi, photo: bytes, name: str) -> dict[str, Any]:
    """A new game; Bob's points typed but not saved; Ann's hand photographed from the round."""
    created = table_api.create_game(PLAYERS, RULES)
    page.goto(created["edit_url"])
    points_box(page, "Bob").fill("14")
    page.get_by_label("Photograph Ann's tiles").set_input_files(
        {"name": name, "mimeType": "image/heic" if name.endswith("HEIC") else "image/jpeg",
         "buffer": photo}
    )  # fmt: skip
    expect(page.get_by_role("heading", name="What the photo shows")).to_be_visible(
        timeout=READING_TIMEOUT_MS
    )
    return created


def expect_saved(page: Page, table_api: TableApi, created: dict[str, Any], tiles: set[str]) -> None:
    points = score_hand([Tile.parse(t) for t in tiles], Rules.from_json(RULES)).points
    expect(totals_row(page).first).to_have_text(str(points))
    stored = table_api.game(created["id"])["rounds"][0]["scores"]["Ann"]
    assert stored["points"] == points
    assert {str(Tile.from_json(pair)) for pair in stored["tiles"]} == tiles
    expect(points_box(page, "Bob")).to_have_value("14")


def other_half(label: str, set_max: int = 12) -> tuple[int, str]:
    """A number to put in the first half instead, and the tile that makes."""
    high, low = (int(part) for part in label.split("-"))
    new = (high + 1) % (set_max + 1)
    return new, f"{max(new, low)}-{min(new, low)}"


def test_outlines_and_chips_fix_remove_add_and_save(page: Page, table_api: TableApi) -> None:
    photo = phone_photo()
    sent: list[int] = []

    def remember(request: Request) -> None:
        if request.method == "POST" and request.url.split("?")[0].endswith("/photo"):
            sent.append(int(request.all_headers().get("content-length", "0")))

    page.on("request", remember)
    created = photograph(page, table_api, photo, "IMG_0001.jpg")
    assert sent and 0 < sent[0] < len(photo) / 2, "the phone sends a shrunk photo"

    # The photo is shown back with every tile read outlined, numbered and labelled.
    figure = page.locator(".photo-overlay")
    expect(figure).to_be_visible()
    size = page.locator(".photo-back").evaluate("img => [img.naturalWidth, img.naturalHeight]")
    assert max(size) == 2000 and size[0] * 3 == size[1] * 4, "the shrunk photo, upright"
    labels = chip_labels(page)
    assert len(labels) >= 2, "the scene's hand is read"
    outlines = page.locator(".photo-lines .read-tile text")
    expect(outlines).to_have_count(len(labels))
    for number, label in enumerate(labels, start=1):
        expect(outlines.nth(number - 1)).to_have_text(re.compile(rf"^{number}: {label}( \?)?$"))
    box = page.locator(".photo-lines").bounding_box()
    assert box is not None and box["width"] <= 360, "the photo fits the phone's width"
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()

    # Tapping a tile on the photo opens the same number pads as its chip. Fix the first tile's
    # first half with them.
    chips = page.locator("#photo-chips button")
    page.locator(".photo-lines .read-tile").first.click()
    expect(page.locator("#chip-editor-title")).to_contain_text(f"Tile 1: {labels[0]}")
    new_half, fixed = other_half(labels[0])
    page.get_by_role("group", name="First half").get_by_role(
        "button", name=str(new_half), exact=True
    ).click()
    results = Axe().run(page)  # with the number pads open
    assert results.violations_count == 0, results.generate_report()
    page.get_by_role("button", name="Done").click()
    expect(page.locator("#photo-chips .chip-label").first).to_have_text(fixed)
    expect(outlines.first).to_have_text(re.compile(rf"^1: {fixed}"))

    # Remove the second.
    chips.nth(1).click()
    page.get_by_role("button", name="Remove tile 2").click()
    expect(outlines.nth(1)).to_have_text("2: removed")

    # Add one it missed, with the same number pads.
    page.get_by_role("link", name="Add a tile it missed").click()
    kept = {fixed, *labels[2:]}
    # Not 12-12: it is round 1's engine, on the table, so no hand can hold it.
    h = next(h for h in range(11, -1, -1) if f"{h}-{h}" not in kept)
    missed = f"{h}-{h}"
    for half in ("First half", "Second half"):
        page.get_by_role("group", name=half).get_by_role("button", name=str(h), exact=True).click()
    page.get_by_role("button", name=f"Add {missed}").click()
    expect(page.locator("#photo-chips .chip-label").last).to_have_text(missed)
    expect(page.get_by_role("checkbox", name=f"{h} {h}", exact=True)).to_be_checked()
    wanted = kept | {missed}
    points = score_hand([Tile.parse(t) for t in wanted], Rules.from_json(RULES)).points
    expect(page.locator("#picked-summary")).to_contain_text(f"— {points} point")
    expect(page.locator("#photo-chips .chip-total").last).to_have_text(f"total {points}")

    page.get_by_role("button", name="Save Ann's tiles").click()
    expect_saved(page, table_api, created, wanted)
    kept_photos = page.evaluate(
        "Object.keys(sessionStorage).filter(k => k.startsWith('photo-back:'))"
    )
    assert kept_photos == [], "the photo is dropped from the tab once the tiles are saved"


def test_the_same_by_keyboard_alone(page: Page, table_api: TableApi) -> None:
    created = photograph(page, table_api, phone_photo(), "IMG_0002.jpg")
    labels = chip_labels(page)
    assert len(labels) >= 2

    page.locator("#photo-chips button").first.focus()
    page.keyboard.press("Enter")  # opens the number pads, the first half's current number focused
    focused = page.evaluate("document.activeElement.textContent")
    high, low = (int(part) for part in labels[0].split("-"))
    assert focused == str(high)
    page.keyboard.press("Tab")  # the next number (after 12: the second half's 0)
    page.keyboard.press("Enter")
    fixed = f"{max(high + 1, low)}-{min(high + 1, low)}" if high < 12 else "12-0"
    page.keyboard.press("Escape")  # closes, back on the chip
    assert page.evaluate("document.activeElement.dataset.index") == "0"
    expect(page.locator("#photo-chips .chip-label").first).to_have_text(fixed)

    page.keyboard.press("Tab")  # the second chip
    page.keyboard.press("Enter")
    for _ in range(2 * 13 + 1):  # on through the number pads and "Done"
        if page.evaluate("document.activeElement.textContent") == "Remove tile 2":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Remove tile 2"
    page.keyboard.press("Enter")

    page.get_by_role("link", name="Add a tile it missed").focus()
    page.keyboard.press("Enter")  # opens the number pads, on the first half's 0
    kept = {fixed, *labels[2:]}
    missed = next(h for h in range(1, 12) if f"{h}-0" not in kept)
    page.keyboard.press("Enter")  # the first half: 0
    for _ in range(13 + missed):  # on through the first pad to the second half's number
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    for _ in range(12 - missed + 1):  # past the rest of the pad to "Add"
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == f"Add {missed}-0"
    page.keyboard.press("Enter")
    kept.add(f"{missed}-0")
    page.get_by_role("button", name="Save Ann's tiles").focus()
    page.keyboard.press("Enter")
    expect_saved(page, table_api, created, kept)


def test_an_iphone_heic_photo_is_read_through_the_page(page: Page, table_api: TableApi) -> None:
    from vision.pipeline import read_hand

    photo = heic_photo()
    expected = sorted(f"{t.pips[0]}-{t.pips[1]}" for t in read_hand(photo).tiles)
    created = photograph(page, table_api, photo, "IMG_0003.HEIC")
    assert sorted(chip_labels(page)) == expected
    # Chromium can't show HEIC: the outlines are drawn alone, and say so.
    expect(page.locator(".photo-overlay")).to_be_visible()
    expect(page.get_by_text("The photo itself can't be shown here")).to_be_visible()
    expect(page.locator(".photo-lines .read-tile")).to_have_count(len(expected))
    page.get_by_role("button", name="Save Ann's tiles").click()
    expect_saved(page, table_api, created, set(expected))


def test_without_javascript_the_full_photo_goes_and_the_list_shows(
    new_context: CreateContextCallback, table_api: TableApi
) -> None:
    page = new_context(java_script_enabled=False).new_page()
    photo = phone_photo()
    sent: list[int] = []

    def remember(request: Request) -> None:
        if request.method == "POST":
            sent.append(int(request.all_headers().get("content-length", "0")))

    page.on("request", remember)
    created = table_api.create_game(PLAYERS, RULES)
    page.goto(created["edit_url"])
    page.get_by_label("Photograph Ann's tiles").set_input_files(
        {"name": "IMG_0004.jpg", "mimeType": "image/jpeg", "buffer": photo}
    )
    page.get_by_role("button", name="Read Ann's photo").click()
    expect(page.get_by_role("heading", name="What the photo shows")).to_be_visible(
        timeout=READING_TIMEOUT_MS
    )
    assert sent and sent[-1] > len(photo), "the full file is sent"
    labels = chip_labels(page)
    assert labels, "the tiles read are listed"
    expect(page.locator(".photo-overlay")).to_be_hidden()
    expect(page.locator("#photo-chips button")).to_have_count(0)
    page.get_by_role("button", name="Save Ann's tiles").click()
    expected = score_hand([Tile.parse(t) for t in set(labels)], Rules.from_json(RULES)).points
    expect(totals_row(page).first).to_have_text(str(expected))
