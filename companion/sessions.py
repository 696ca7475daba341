"""The session cookie, which only a visit the player makes may write.

A phone's open sheet polls the API and refetches its own page in the background. Flask
re-sends a permanent session's cookie on every answer, so a poll sent just before a save,
and answered just after it, would put back the cookie it was sent with: the save's one-time
"Round 1 saved." message (and any edit right the save added) would be lost. Background
answers therefore never set the cookie; the next real visit refreshes its lifetime.
"""

from __future__ import annotations

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin

LIVE_REFRESH_HEADER = "X-Live-Refresh"
"""Sent by the sheet's own script on every background request (see static/js/sheet.js)."""


def is_live_refresh() -> bool:
    """Say whether this is the open sheet's own background fetch (which base.html also
    answers without the one-time "saved" messages, keeping them for a real visit)."""
    return request.headers.get(LIVE_REFRESH_HEADER) == "1"


def is_background_request() -> bool:
    """Say whether this request was made by a page's script rather than by the player."""
    return (
        is_live_refresh()
        # The API authenticates with a Bearer token and never reads the session.
        or request.blueprint == "api"
        or request.endpoint == "static"
    )


class PlayerVisitSessions(SecureCookieSessionInterface):
    """Signed-cookie sessions that background requests read but never write."""

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if is_background_request():
            return False
        return super().should_set_cookie(app, session)
