"""Fixing what a photo was read as, on a 360-px phone (issue 26): the number pads open where the
player tapped, for a tile read, a shape not counted, or a tile the photo missed.

The reading itself is fixed here (a crowded hand of 14 tiles and one shape not counted), so the
tests are about the page, not about how well the models read.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from companion import photos
from companion.photo_overlay import ReadTile

from .helpers import TableApi, points_box

PLAYERS = ["Ann", "Bob", "Cy"]
SIZE = (1600, 1200)
TILES = [(11, 3), (10, 2), (9, 9), (9, 1), (8, 4), (7, 0), (6, 6),
         (6, 2), (5, 1), (4, 4), (3, 2), (2, 0), (1, 1), (10, 10)]  # fmt: skip
TILE_W, TILE_H = 150, 280


def tile_corners(index: int) -> tuple[tuple[int, int], ...]:
    column, row = index % 7, index // 7
    x, y = 60 + column * 210, 120 + row * 420
    return ((x, y), (x + TILE_W, y), (x + TILE_W, y + TILE_H), (x, y + TILE_H))


HINT = ((700, 950), (1000, 950), (1000, 1100), (700, 1100))


def fixed_reading(data: bytes, set_max: int | None = None) -> photos.PhotoReading:
    assert data, "the page sent the photo"
    return photos.PhotoReading(
        width=SIZE[0],
        height=SIZE[1],
        tiles=tuple(
            ReadTile(high, low, 0.99, tile_corners(index))
            for index, (high, low) in enumerate(TILES)
        ),
        hints=(HINT,),
    )


def plain_photo() -> bytes:
    image = np.full((SIZE[1], SIZE[0], 3), (40, 110, 60), dtype=np.uint8)
    ok, encoded = cv2.imencode(".jpg", image)
    assert ok
    return encoded.tobytes()


@pytest.fixture
def photographed(page: Page, table_api: TableApi, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Ann's hand photographed from the round form; the picker shows what was read."""
    monkeypatch.setattr(photos, "reading_available", lambda: True)
    monkeypatch.setattr(photos, "read_photo", fixed_reading)
    created = table_api.create_game(PLAYERS)
    page.goto(created["edit_url"])
    points_box(page, "Bob").fill("14")
    page.get_by_label("Photograph Ann's tiles").set_input_files(
        {"name": "IMG_1.jpg", "mimeType": "image/jpeg", "buffer": plain_photo()}
    )
    expect(page.get_by_role("heading", name="What the photo shows")).to_be_visible()
    expect(page.locator(".photo-overlay")).to_be_visible()
    return created


def chip_labels(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#photo-chips .chip-label").all_inner_texts()]


def pad_key(page: Page, half: str, number: int) -> Any:
    return (
        page.locator("#chip-editor")
        .get_by_role("group", name=half)
        .get_by_role("button", name=str(number), exact=True)
    )


def test_tapping_a_shape_not_counted_adds_its_tile_there(page: Page, photographed: Any) -> None:
    hint = page.locator(".photo-lines .hint")
    hint.click()
    editor = page.locator("#chip-editor")
    expect(editor).to_be_visible()
    expect(editor).to_contain_text("not counted")
    expect(editor).to_be_in_viewport()
    pad_key(page, "First half", 7).click()
    pad_key(page, "Second half", 3).click()
    editor.get_by_role("button", name="Add 7-3").click()
    assert chip_labels(page)[-1] == "7-3"
    expect(page.get_by_role("checkbox", name="7 3", exact=True)).to_be_checked()
    expect(page.locator(".photo-lines .hint")).to_have_class("hint added")


def test_add_a_tile_it_missed_opens_the_number_pads(page: Page, photographed: Any) -> None:
    page.get_by_role("link", name="Add a tile it missed").click()
    editor = page.locator("#chip-editor")
    expect(editor.get_by_role("group", name="First half")).to_be_in_viewport()
    # Not the 91-tile grid, scrolled to the double-12.
    expect(page.get_by_role("checkbox", name="12 12", exact=True)).not_to_be_in_viewport()
    pad_key(page, "First half", 0).click()
    pad_key(page, "Second half", 12).click()
    editor.get_by_role("button", name="Add 12-0").click()
    assert chip_labels(page)[-1] == "12-0"
    expect(page.get_by_role("checkbox", name="12 0", exact=True)).to_be_checked()
    # A tile the list holds already is not added twice.
    page.get_by_role("link", name="Add a tile it missed").click()
    pad_key(page, "First half", 3).click()
    pad_key(page, "Second half", 11).click()
    expect(editor.get_by_role("alert")).to_contain_text("11-3 is in the list already")
    expect(editor.get_by_role("button", name="Add 11-3")).to_be_disabled()


def test_tapping_an_outline_opens_its_editor_next_to_the_photo(
    page: Page, photographed: Any
) -> None:
    last = len(TILES)
    page.locator(f".photo-lines .read-tile[data-number='{last}']").click()
    editor = page.locator("#chip-editor")
    expect(editor).to_contain_text(f"Tile {last}:")
    figure = page.locator(".photo-overlay").bounding_box()
    opened = editor.bounding_box()
    assert figure and opened
    gap = opened["y"] - (figure["y"] + figure["height"])
    assert 0 <= gap < 60, f"the number pads open {gap:.0f} px below the photo"


def test_the_number_pads_for_a_new_tile_pass_axe(page: Page, photographed: Any) -> None:
    page.get_by_role("link", name="Add a tile it missed").click()
    pad_key(page, "First half", 4).click()
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
