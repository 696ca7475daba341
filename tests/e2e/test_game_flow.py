"""A whole game on phones: set up four players, play 13 rounds, fix a round, crown the winner.

A second phone follows the share link and must see every change by itself, without reloading.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import BrowserContext, Locator, Page, expect

from .helpers import totals_row

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
LIVE_UPDATE_MS = 2000  # the promise for the read-only view


@dataclass(frozen=True)
class WentOut:
    """The player went out: one tap on "Went out"."""


@dataclass(frozen=True)
class Picked:
    """The tiles left in hand, picked on the tile grid as (high, low) pairs."""

    tiles: tuple[tuple[int, int], ...]

    @property
    def pips(self) -> int:
        """Plain pip count; the standard preset scores the double blank as 0 too."""
        return sum(high + low for high, low in self.tiles)


Entry = int | WentOut | Picked
OUT = WentOut()

# Every round somebody goes out with one tap; most hands are typed; three are picked as tiles.
PLAN: list[dict[str, Entry]] = [
    {"Ann": OUT, "Bob": 23, "Cy": 7, "Dee": 41},
    {"Ann": 12, "Bob": OUT, "Cy": Picked(((6, 5), (0, 0))), "Dee": 30},
    {"Ann": 5, "Bob": 18, "Cy": OUT, "Dee": 9},
    {"Ann": 14, "Bob": 22, "Cy": 3, "Dee": OUT},
    {"Ann": OUT, "Bob": 10, "Cy": 16, "Dee": 28},
    {"Ann": 8, "Bob": OUT, "Cy": 19, "Dee": Picked(((12, 12), (3, 1)))},
    {"Ann": 6, "Bob": 15, "Cy": OUT, "Dee": 11},
    {"Ann": 21, "Bob": 4, "Cy": 13, "Dee": OUT},
    {"Ann": OUT, "Bob": 33, "Cy": 2, "Dee": 17},
    {"Ann": Picked(((9, 4),)), "Bob": OUT, "Cy": 25, "Dee": 6},
    {"Ann": 3, "Bob": 12, "Cy": OUT, "Dee": 20},
    {"Ann": 7, "Bob": 9, "Cy": 14, "Dee": OUT},
    {"Ann": OUT, "Bob": 26, "Cy": 8, "Dee": 5},
]
# The fix after the last round: Ann's round-8 hand was 51, not 21. That hands the win to Cy.
FIXED_ROUND, FIXED_PLAYER, FIXED_POINTS = 8, "Ann", 51


def points(entry: Entry) -> int:
    """What a hand scores under the standard preset (no going-out bonus, no marker penalty)."""
    if isinstance(entry, WentOut):
        return 0
    if isinstance(entry, Picked):
        return entry.pips
    return entry


def totals_after(plan: list[dict[str, Entry]]) -> list[int]:
    """Running totals, in seat order, after the rounds in ``plan``."""
    return [sum(points(round_[name]) for round_ in plan) for name in PLAYERS]


def lowest(totals: list[int]) -> list[str]:
    """The players with the lowest total."""
    return [name for name, total in zip(PLAYERS, totals, strict=True) if total == min(totals)]


def round_entry(page: Page, n: int) -> Locator:
    """The entry form's region for round ``n``."""
    return page.get_by_role("region", name=re.compile(rf"^Round {n}: engine"))


def set_up_game_through_the_pages(page: Page) -> None:
    """Home page -> new game form -> four players in seat order -> the scoresheet."""
    page.goto("/")
    page.get_by_role("link", name="Start a new game").click()
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    expect(page.get_by_role("status").filter(has_text="tiles each")).to_contain_text(
        "for 4 players"
    )
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1, name="Scoresheet")).to_be_visible()
    expect(page.get_by_text("Game started.")).to_be_visible()


def open_share_link(page: Page, new_page: Callable[[], Page]) -> Page:
    """Open the read-only link from the Share card on a second phone."""
    share = page.get_by_role("region", name="Share")
    view_url = share.get_by_role("link", name=re.compile(r"view$")).get_attribute("href")
    assert view_url
    viewer = new_page()
    viewer.goto(view_url)
    expect(viewer.get_by_text("Read-only view")).to_be_visible()
    expect(viewer.get_by_role("button", name=re.compile("^Save round"))).to_have_count(0)
    # Survives only if the page is never reloaded or replaced.
    viewer.evaluate("window.e2eNeverReloaded = true")
    return viewer


def pick_tiles(page: Page, n: int, name: str, picked: Picked) -> None:
    """Tap the tiles left in ``name``'s hand on the tile grid and save them."""
    round_entry(page, n).get_by_role("link", name=f"Pick {name}'s tiles").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{name}'s tiles, round {n}")
    for high, low in picked.tiles:
        page.get_by_role("checkbox", name=f"{high} {low}", exact=True).check()
    count = len(picked.tiles)
    expect(page.get_by_text(re.compile(r"tiles? picked"))).to_have_text(
        f"{count} tile{'' if count == 1 else 's'} picked, {picked.pips} pips before the blank rule."
    )
    page.get_by_role("button", name=f"Save {name}'s tiles").click()
    expect(
        page.get_by_text(f"{name}'s tiles saved for round {n}: {picked.pips} points.")
    ).to_be_visible()


def play_round(page: Page, n: int, entries: dict[str, Entry]) -> None:
    """Enter one round the way a scorekeeper would: tiles first, then taps and typing."""
    for name, entry in entries.items():
        if isinstance(entry, Picked):
            pick_tiles(page, n, name, entry)
    form = round_entry(page, n)
    for name, entry in entries.items():
        player = form.get_by_role("group", name=name)
        if isinstance(entry, WentOut):
            player.get_by_label("Went out").check()
            expect(player.get_by_label(f"Points for {name}")).to_be_disabled()
        elif isinstance(entry, int):
            player.get_by_label(f"Points for {name}").fill(str(entry))
        else:
            expect(player.get_by_text(re.compile("^Tiles kept:"))).to_be_visible()
    form.get_by_role("button", name=f"Save round {n}").click()
    # The saved round shows in the totals (checked by the caller); the "Round n saved." message
    # is left to test_live_view, as the live poller can race it (see e2e-findings.md).


def test_four_players_play_a_whole_game_while_a_second_phone_follows(
    page: Page, new_context: Callable[[], BrowserContext]
) -> None:
    """Set up through the pages, play 13 rounds, fix round 8, and the winner changes."""
    set_up_game_through_the_pages(page)
    viewer = open_share_link(page, lambda: new_context().new_page())

    for n, entries in enumerate(PLAN, start=1):
        expect(round_entry(page, n)).to_be_visible()
        play_round(page, n, entries)
        expected = [str(total) for total in totals_after(PLAN[:n])]
        expect(totals_row(page)).to_have_text(expected)
        expect(totals_row(viewer)).to_have_text(expected, timeout=LIVE_UPDATE_MS)

    final = totals_after(PLAN)
    assert lowest(final) == ["Ann"]  # the plan itself: Ann wins before the fix
    winner_line = f"Ann wins with {final[0]}!"
    expect(page.get_by_text(winner_line)).to_be_visible()
    expect(viewer.get_by_text(winner_line)).to_be_visible(timeout=LIVE_UPDATE_MS)
    # A went-out hand is marked in words, not only with a tick.
    first_row = page.get_by_role("row").filter(
        has=page.get_by_role("rowheader", name=re.compile(r"^Edit round 1\b"))
    )
    expect(first_row.get_by_role("cell").first).to_have_text("0✓ (went out)")

    # Fix a past round: the form comes back filled in as saved, one number changes.
    page.get_by_role("link", name=f"Edit round {FIXED_ROUND}", exact=True).click()
    form = round_entry(page, FIXED_ROUND)
    expect(form).to_be_visible()
    for name, entry in PLAN[FIXED_ROUND - 1].items():
        player = form.get_by_role("group", name=name)
        if isinstance(entry, WentOut):
            expect(player.get_by_label("Went out")).to_be_checked()
        else:
            expect(player.get_by_label(f"Points for {name}")).to_have_value(str(entry))
    form.get_by_role("group", name=FIXED_PLAYER).get_by_label(f"Points for {FIXED_PLAYER}").fill(
        str(FIXED_POINTS)
    )
    form.get_by_role("button", name=f"Save round {FIXED_ROUND}").click()

    fixed_plan = [dict(round_) for round_ in PLAN]
    fixed_plan[FIXED_ROUND - 1][FIXED_PLAYER] = FIXED_POINTS
    fixed = totals_after(fixed_plan)
    assert lowest(fixed) == ["Cy"]
    new_winner_line = f"Cy wins with {fixed[2]}!"
    for phone in (page, viewer):
        expect(totals_row(phone)).to_have_text([str(t) for t in fixed], timeout=LIVE_UPDATE_MS)
        expect(phone.get_by_text(new_winner_line)).to_be_visible(timeout=LIVE_UPDATE_MS)
        expect(phone.get_by_text(winner_line)).to_have_count(0)

    # The history keeps the old value next to the new one.
    history = page.get_by_role("region", name="History")
    newest = history.get_by_role("listitem").first
    old_points = PLAN[FIXED_ROUND - 1][FIXED_PLAYER]
    expect(newest).to_contain_text(re.compile(rf"round {FIXED_ROUND}\b", re.IGNORECASE))
    expect(newest).to_contain_text(re.compile(rf"{FIXED_PLAYER}\D*{old_points}\D+{FIXED_POINTS}"))

    assert viewer.evaluate("window.e2eNeverReloaded") is True
