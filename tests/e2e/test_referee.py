"""Settling disputes on a 360-px phone, from the scoresheet, as a family would.

Each dispute counts the taps from the scoresheet to the ruling and checks the ruling against
``python -m companion.rules check`` answering the same position as a contract query.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Locator, Page, expect

from vision.finder import DEFAULT_FINDER_MODEL
from vision.halves import DEFAULT_HALF_MODEL

from .helpers import TableApi

PLAYERS = ["Ann", "Bea", "Cy", "Dee"]
TAP_GOAL = 12
DEV_PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "photos" / "dev"
READING_TIMEOUT_MS = 60_000


class Taps:
    """Does what a player's finger does, and counts it (a dropdown is two taps)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, target: Locator) -> None:
        target.click()
        self.count += 1

    def pick(self, target: Locator) -> None:
        target.check()
        self.count += 1

    def choose(self, target: Locator, value: str) -> None:
        target.select_option(value)
        self.count += 2

    def seat(self, legend: str, name: str) -> None:
        self.pick(self.page.get_by_role("group", name=legend).get_by_role("radio", name=name))

    def half(self, row: int, which: str, value: int) -> None:
        legend = "Tile: the half laid against" if which == "a" else "Tile: its other half"
        group = self.page.locator(f"fieldset.action >> nth={row}").get_by_role(
            "group", name=re.compile(legend)
        )
        self.pick(group.get_by_role("radio", name=str(value), exact=True))

    def train(self, row: int, name: str) -> None:
        group = self.page.locator(f"fieldset.action >> nth={row}").get_by_role(
            "group", name="Played on"
        )
        self.pick(group.get_by_role("radio", name=name, exact=True))

    def more(self, row: int) -> None:
        self.tap(self.page.locator(f"details.action-more >> nth={row - 1}").locator("summary"))

    def kind(self, row: int, words: str) -> None:
        self.pick(
            self.page.locator(f"fieldset.action >> nth={row}").get_by_role("radio", name=words)
        )

    def rule(self) -> None:
        self.tap(self.page.get_by_role("button", name="Rule", exact=True).last)


def command(query: dict[str, Any]) -> dict[str, Any]:
    """What the referee command answers for ``query``."""
    done = subprocess.run(
        [sys.executable, "-m", "companion.rules", "check", "-"],
        input=json.dumps(query),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def table(trains: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"set_max": 12, "engine": 12, "seats": PLAYERS, "trains": trains, "boneyard": 10,
            "open_doubles": [], **extra}  # fmt: skip


def turn(
    rules: dict[str, Any],
    trains: dict[str, Any],
    seat: str,
    hand: list[list[int]],
    actions: list[dict[str, Any]],
    first: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "kind": "turn",
        "rules": rules,
        "table": table(trains, **extra),
        "turn": {"seat": seat, "first_turn": first, "hand": hand},
        "actions": actions,
    }


def ruling(page: Page) -> Locator:
    section = page.locator("#ruling")
    expect(section).to_be_visible()
    return section


def start(page: Page, table_api: TableApi, rules: dict[str, Any] | None = None) -> Taps:
    game = table_api.create_game(PLAYERS, rules)
    page.goto(game["edit_url"])
    taps = Taps(page)
    taps.tap(page.get_by_role("link", name="Settle a dispute").first)
    expect(page.get_by_role("heading", name="Settle a dispute")).to_be_visible()
    return taps


def expect_ruling(page: Page, taps: Taps, answer: dict[str, Any]) -> None:
    section = ruling(page)
    if answer["legal"]:
        expect(section.locator(".verdict")).to_have_text("Allowed")
    else:
        expect(section.locator(".verdict")).to_have_text("Not allowed")
        expect(section.locator(".read-aloud")).to_contain_text(answer["reason"])
    assert taps.count < TAP_GOAL, f"{taps.count} taps"


ANY = 12  # the end of a train that plays no part: a number none of the tiles shows


def test_a_play_while_a_double_is_open_elsewhere(page: Page, table_api: TableApi) -> None:
    taps = start(page, table_api)
    taps.seat("Whose turn is it?", "Cy")
    taps.half(0, "a", 2)
    taps.half(0, "b", 11)
    taps.choose(page.get_by_label("Bea's train ends in"), "9")
    taps.pick(page.locator("input[name=open-1]"))
    taps.rule()
    answer = command(turn({"preset": "standard"},
                          {"Ann": {"end": ANY}, "Bea": {"end": 9}, "Cy": {"end": 2},
                           "Dee": {"end": ANY}, "mexican": {"end": ANY}},
                          "Cy", [[2, 11]], [{"play": [2, 11], "on": "Cy"}],
                          open_doubles=["Bea"]))  # fmt: skip
    assert answer["legal"] is False and answer["rule"] == "satisfy_scope"
    expect_ruling(page, taps, answer)
    section = ruling(page)
    expect(section).to_contain_text("Under these other house rules it would be allowed")
    expect(section.get_by_text("Where it comes from")).to_be_visible()


def test_a_play_on_another_players_unmarked_train(page: Page, table_api: TableApi) -> None:
    taps = start(page, table_api)
    taps.seat("Whose turn is it?", "Cy")
    taps.half(0, "a", 5)
    taps.half(0, "b", 3)
    taps.train(0, "Dee")
    taps.rule()
    answer = command(turn({"preset": "standard"},
                          {"Ann": {"end": ANY}, "Bea": {"end": ANY}, "Cy": {"end": ANY},
                           "Dee": {"end": 5}, "mexican": {"end": ANY}},
                          "Cy", [[5, 3]], [{"play": [5, 3], "on": "Dee"}]))  # fmt: skip
    assert answer["rule"] == "private_train"
    expect_ruling(page, taps, answer)


def test_a_play_on_a_marked_train(page: Page, table_api: TableApi) -> None:
    taps = start(page, table_api)
    taps.seat("Whose turn is it?", "Cy")
    taps.half(0, "a", 5)
    taps.half(0, "b", 3)
    taps.train(0, "Dee")
    taps.pick(page.locator("input[name=marker-3]"))
    taps.rule()
    answer = command(turn({"preset": "standard"},
                          {"Ann": {"end": ANY}, "Bea": {"end": ANY}, "Cy": {"end": ANY},
                           "Dee": {"end": 5, "marker": True}, "mexican": {"end": ANY}},
                          "Cy", [[5, 3]], [{"play": [5, 3], "on": "Dee"}]))  # fmt: skip
    assert answer["legal"] is True
    expect_ruling(page, taps, answer)
    expect(ruling(page).locator(".read-aloud")).to_have_text("Yes: Cy may play 5-3 on Dee's train.")


def test_a_multi_tile_first_turn_that_wanders_onto_the_mexican_train(
    page: Page, table_api: TableApi
) -> None:
    taps = start(page, table_api)
    taps.seat("Whose turn is it?", "Ann")
    taps.pick(page.get_by_label("It is their first turn of the round"))
    taps.half(0, "a", 12)
    taps.half(0, "b", 5)
    taps.more(1)
    taps.half(1, "a", 12)
    taps.half(1, "b", 3)
    taps.train(1, "Mexican")
    taps.rule()
    answer = command(turn({"preset": "standard"},
                          {"Bea": {"end": ANY - 1}, "Cy": {"end": ANY - 1},
                           "Dee": {"end": ANY - 1}, "mexican": {"end": 12}},
                          "Ann", [[12, 5], [12, 3]],
                          [{"play": [12, 5], "on": "Ann"}, {"play": [12, 3], "on": "mexican"}],
                          first=True))  # fmt: skip
    assert answer["legal"] is False and answer["step"] == 1
    expect_ruling(page, taps, answer)
    expect(ruling(page).locator(".read-aloud")).to_contain_text("The first action is fine")


def test_going_out_on_a_double_that_must_be_covered(page: Page, table_api: TableApi) -> None:
    rules = {"preset": "standard", "go_out_on_double": "must_be_covered"}
    taps = start(page, table_api, rules)
    taps.seat("Whose turn is it?", "Ann")
    taps.pick(page.get_by_label("The tiles played are their last: they go out"))
    taps.half(0, "a", 7)
    taps.half(0, "b", 7)
    taps.choose(page.get_by_label("Ann's train ends in"), "7")
    taps.more(1)
    taps.kind(1, "End the turn or pass")
    taps.rule()
    answer = command(turn(rules,
                          {"Ann": {"end": 7}, "Bea": {"end": ANY}, "Cy": {"end": ANY},
                           "Dee": {"end": ANY}, "mexican": {"end": ANY}},
                          "Ann", [[7, 7]],
                          [{"play": [7, 7], "on": "Ann"}, {"end": True}]))  # fmt: skip
    assert answer["legal"] is False and answer["rule"] == "go_out_on_double"
    expect_ruling(page, taps, answer)
    # The house rule that decided it, in words, and the books that let a double end the round.
    section = ruling(page)
    expect(section.locator(".rule-facts")).not_to_contain_text("_")
    expect(section.locator(".alternatives")).to_be_visible()


def test_a_missed_last_tile_call(page: Page, table_api: TableApi) -> None:
    taps = start(page, table_api)
    taps.tap(page.get_by_role("link", name=re.compile("I forgot to call my last tile")))
    taps.rule()
    answer = command({"kind": "last_tile_call", "rules": {"preset": "standard"},
                      "boneyard": 10, "announced_in_time": False})  # fmt: skip
    section = ruling(page)
    expect(section.locator(".verdict")).to_have_text(f"Draw {answer['draw']}")
    expect(section.locator(".read-aloud")).to_have_text(answer["reason"])
    assert taps.count < TAP_GOAL


def test_a_kept_ruling_is_seen_on_the_read_only_view(
    page: Page, browser: Browser, table_api: TableApi
) -> None:
    game = table_api.create_game(PLAYERS)
    page.goto(game["edit_url"])
    page.get_by_role("link", name="Settle a dispute").first.click()
    taps = Taps(page)
    taps.seat("Whose turn is it?", "Cy")
    taps.half(0, "a", 5)
    taps.half(0, "b", 3)
    taps.train(0, "Dee")
    taps.rule()
    page.get_by_role("button", name="Keep this ruling with the game").click()
    expect(page.get_by_text("Ruling kept with the game.")).to_be_visible()
    follower = browser.new_context(viewport={"width": 360, "height": 780}).new_page()
    try:
        follower.goto(game["view_url"])
        rulings = follower.locator("#rulings")
        expect(rulings).to_contain_text("May Cy play 5-3 on Dee's train?")
        expect(rulings).to_contain_text("Not allowed.")
        expect(rulings.get_by_role("button", name=re.compile("Delete"))).to_have_count(0)
        # The follower may ask too, without the edit link.
        follower.locator("#rulings").get_by_role("link", name="Settle a dispute").click()
        expect(follower.get_by_role("heading", name="Settle a dispute")).to_be_visible()
    finally:
        follower.context.close()


def test_an_impossible_position_is_named_and_nothing_entered_is_lost(
    page: Page, table_api: TableApi
) -> None:
    start(page, table_api)
    page.get_by_role("group", name="Whose turn is it?").get_by_role("radio", name="Cy").check()
    page.get_by_text(re.compile("Their hand")).click()
    page.get_by_role("checkbox", name="12 12").check()  # the engine, already in the hub
    against = page.locator("fieldset.action").first.get_by_role("group", name=re.compile("against"))
    against.get_by_role("radio", name="5", exact=True).check()
    page.get_by_role("button", name="Rule", exact=True).last.click()
    error = page.locator("#hand-error")
    expect(error).to_contain_text("12-12 can't be in Cy's hand: it is already the engine")
    whose = page.get_by_role("group", name="Whose turn is it?")
    expect(whose.get_by_role("radio", name="Cy")).to_be_checked()
    expect(page.get_by_role("checkbox", name="12 12")).to_be_checked()
    expect(page.locator("#ruling")).to_have_count(0)


@pytest.mark.skipif(
    not (DEFAULT_HALF_MODEL.is_file() and DEFAULT_FINDER_MODEL.is_file()),
    reason="photo-reading models not found",
)
@pytest.mark.skipif(not DEV_PHOTOS.is_dir(), reason=f"dev photos not found at {DEV_PHOTOS}")
def test_the_tile_played_can_be_photographed(page: Page, table_api: TableApi) -> None:
    from vision.pipeline import read_hand

    photo = DEV_PHOTOS / "jeremyarde__domino-counter" / "11-2.jpg"
    read = [tile.pips for tile in read_hand(photo.read_bytes()).tiles]
    assert read, "the pipeline reads nothing in this photo any more"
    high, low = max(read[0]), min(read[0])
    start(page, table_api)
    page.get_by_role("group", name="Whose turn is it?").get_by_role("radio", name="Cy").check()
    page.get_by_label("Cy's train ends in").select_option(str(low))
    page.get_by_label("Photograph the tiles instead of typing").set_input_files(str(photo))
    page.get_by_role("button", name="Read the tiles in dispute").click()
    chip = page.get_by_role("button", name=f"Played {high}-{low}")
    expect(chip).to_be_visible(timeout=READING_TIMEOUT_MS)
    # The photo comes back with each tile read outlined and numbered on it.
    figure = page.locator("figure.photo-overlay")
    expect(figure).to_be_visible()
    expect(figure.locator(".read-tile")).to_have_count(len(read))
    expect(figure.locator(".photo-back")).to_have_attribute("src", re.compile("^data:image/"))
    chip.click()
    # The tile is entered with the half that matches Cy's train against it.
    action = page.locator("fieldset.action").first
    against = action.get_by_role("group", name=re.compile("against"))
    other = action.get_by_role("group", name="Tile: its other half")
    expect(against.get_by_role("radio", name=str(low), exact=True)).to_be_checked()
    expect(other.get_by_role("radio", name=str(high), exact=True)).to_be_checked()
    expect(page.get_by_label("Cy's train ends in")).to_have_value(str(low))
    page.get_by_role("button", name="Rule", exact=True).last.click()
    expect(ruling(page).locator(".verdict")).to_have_text("Allowed")
    expect(ruling(page).locator(".read-aloud")).to_contain_text(f"{low}-{high} on their own train")


def test_the_referee_page_passes_axe(page: Page, table_api: TableApi) -> None:
    taps = start(page, table_api)
    assert Axe().run(page).violations_count == 0, Axe().run(page).generate_report()
    taps.seat("Whose turn is it?", "Cy")
    taps.half(0, "a", 5)
    taps.half(0, "b", 3)
    taps.train(0, "Dee")
    taps.rule()
    ruling(page)
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    for question in ("What can I play?", "Is the round over?", "What does this hand score?"):
        page.get_by_role("link", name=question).click()
        expect(page.get_by_role("heading", name=question)).to_be_visible()
        results = Axe().run(page)
        assert results.violations_count == 0, f"{question}\n{results.generate_report()}"
    page.goto("/referee")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
