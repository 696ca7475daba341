"""The labels drawn over a crowded photo, measured in the browser's own fonts on a 360 px
phone: after fixing or removing every tile, no two labels overlap, none leaves the photo, none
is smaller than 9 px, and a label with room only for its number keeps to it.

No photo is read here (no model needed): the overlay is built from outlines and drawn by the
page script as the tile picker draws it.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import render_template_string
from playwright.sync_api import Page

from companion import create_app
from companion.photo_overlay import LabelFit, Overlay, ReadTile, build_overlay
from companion.rules import Rules

SMALLEST_LABEL_PX = 9


def crowded_overlay(size: tuple[int, int], at: tuple[int, int]) -> Overlay:
    """20 tiles 100 x 50 units on the photo, touching in 4 rows of 5, and one hint."""
    tiles = []
    for index in range(20):
        x, y = at[0] + index % 5 * 400, at[1] + index // 5 * 200
        corners = ((x, y), (x + 400, y), (x + 400, y + 200), (x, y + 200))
        tiles.append(ReadTile(index % 13, index % 5, 0.5 if index % 3 else 0.95, corners))
    hx, hy = size[0] - 700, size[1] - 500
    hint = ((hx, hy), (hx + 400, hy), (hx + 400, hy + 200), (hx, hy + 200))
    return build_overlay(size, tiles, [hint], Rules.from_json({}), check_below=0.9)


def rendered(overlay: Overlay) -> str:
    app = create_app({"TESTING": True, "SECRET_KEY": "e2e", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    with app.app_context():
        return render_template_string(
            '{% from "_photo_overlay.html" import photo_overlay %}{{ photo_overlay(o, "k") }}',
            o=overlay,
        )


@pytest.mark.parametrize(
    ("size", "at"), [((4000, 3000), (1000, 1000)), ((3000, 4000), (0, 0))], ids=["wide", "tall"]
)
def test_crowded_labels_stay_apart_and_readable_after_every_tile_is_fixed(
    page: Page, size: tuple[int, int], at: tuple[int, int]
) -> None:
    overlay = crowded_overlay(size, at)
    assert overlay.numbers_only, "some labels are the number alone, as on a crowded photo"
    page.goto("/")
    page.evaluate("html => { document.querySelector('main').innerHTML = html; }", rendered(overlay))
    # Every other tile removed, the rest fixed to the longest reading a label can show.
    shown = {
        shape.number: None if shape.number % 2 else {"label": "12-12", "unsure": True}
        for shape in overlay.tiles
    }
    labels: list[dict[str, Any]] = page.evaluate(
        """async shown => {
            const {drawPhotoOverlay} = await import("/static/js/photo.js");
            const figure = document.querySelector(".photo-overlay");
            const data = JSON.parse(figure.nextElementSibling.textContent);
            drawPhotoOverlay(figure, data, shown);
            const svg = figure.querySelector(".photo-lines");
            const scale = svg.getBoundingClientRect().width / data.width;
            return [...svg.querySelectorAll("text")].map(text => {
                const box = text.getBBox();
                return {
                    number: text.parentElement.dataset.number || null,
                    text: text.textContent,
                    box: [box.x, box.y, box.x + box.width, box.y + box.height],
                    px: Number(text.getAttribute("font-size")) * scale,
                };
            });
        }""",
        {str(number): reading for number, reading in shown.items()},
    )
    assert len(labels) == len(overlay.tiles) + sum(bool(h.text) for h in overlay.hints)
    for shape, label in zip(overlay.tiles, labels, strict=False):
        assert label["number"] == str(shape.number)
        if shape.fit is LabelFit.SHORT:
            assert label["text"] == str(shape.number)
        elif shape.number % 2:
            assert label["text"] == f"{shape.number}: removed"
        else:
            assert label["text"] == f"{shape.number}: 12-12 ?"
    for index, label in enumerate(labels):
        left, top, right, bottom = label["box"]
        assert 0 <= left and right <= overlay.width and 0 <= top and bottom <= overlay.height, label
        assert label["px"] >= SMALLEST_LABEL_PX, label
        for other in labels[index + 1 :]:
            o_left, o_top, o_right, o_bottom = other["box"]
            apart = right <= o_left or o_right <= left or bottom <= o_top or o_bottom <= top
            assert apart, (label, other)


def test_a_label_moved_off_its_tile_is_tied_to_it_by_a_line(page: Page) -> None:
    """On a crowded photo each label set beside its tile has a line from the label to the
    tile's outline, drawn and visible on the phone."""
    overlay = crowded_overlay((4000, 3000), (1000, 1000))
    page.goto("/")
    page.evaluate("html => { document.querySelector('main').innerHTML = html; }", rendered(overlay))
    page.evaluate(
        """async () => {
            const {drawPhotoOverlay} = await import("/static/js/photo.js");
            const figure = document.querySelector(".photo-overlay");
            drawPhotoOverlay(figure, JSON.parse(figure.nextElementSibling.textContent));
            figure.hidden = false;
        }"""
    )
    for shape in overlay.tiles:
        lines = page.locator(f".read-tile[data-number='{shape.number}'] line.leader")
        if shape.leader is None:
            assert lines.count() == 0
            continue
        assert lines.count() == 1
        drawn = lines.first.evaluate(
            "line => [line.x1, line.y1, line.x2, line.y2].map(a => a.baseVal.value)"
        )
        assert drawn == pytest.approx([*shape.leader[0], *shape.leader[1]], abs=0.1)
        stroke = lines.first.evaluate("line => getComputedStyle(line).stroke")
        assert stroke != "none"
    assert any(shape.leader for shape in overlay.tiles)
