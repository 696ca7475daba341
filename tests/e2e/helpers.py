"""Shared helpers for the browser tests: API set-up and locators every page test needs."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import APIRequestContext, Locator, Page


class TableApi:
    """Set up games through the JSON API, for tests whose subject is a later page."""

    def __init__(self, request: APIRequestContext) -> None:
        self.request = request

    def create_game(
        self, players: list[str], rules: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Start a game; returns id, edit_token, view_url and edit_url."""
        response = self.request.post(
            "/api/games", data={"players": players, "rules": rules or {"preset": "standard"}}
        )
        assert response.status == 201, response.text()
        created: dict[str, Any] = response.json()
        return created

    def game(self, game_id: str) -> dict[str, Any]:
        """The game as the API reports it."""
        response = self.request.get(f"/api/games/{game_id}")
        assert response.ok, response.text()
        state: dict[str, Any] = response.json()
        return state

    def put_round(self, created: dict[str, Any], n: int, scores: dict[str, Any]) -> dict[str, Any]:
        """Write round ``n`` on top of the current version."""
        version = self.game(created["id"])["version"]
        response = self.request.put(
            f"/api/games/{created['id']}/rounds/{n}",
            data={"scores": scores, "version": version},
            headers={"Authorization": f"Bearer {created['edit_token']}"},
        )
        assert response.ok, response.text()
        state: dict[str, Any] = response.json()
        return state


def totals_row(page: Page) -> Locator:
    """The total cells of the scoresheet table, in seat order."""
    table = page.get_by_role("table", name=re.compile("Points per round"))
    total = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name="Total"))
    return total.get_by_role("cell")


def points_box(page: Page, name: str) -> Locator:
    """One player's points input in the round form, found inside that player's group."""
    return page.get_by_role("group", name=name).get_by_label(f"Points for {name}")
