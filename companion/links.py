"""Addresses that other phones at the table can open."""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

from flask import current_app, request, url_for
from werkzeug.sansio.utils import host_is_trusted

from .netinfo import lan_ip

LOCAL_NAMES = {"localhost", "localhost.localdomain"}


def _is_loopback(host: str) -> bool:
    if host in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def base_url() -> str:
    """Return the scheme://host:port phones should use, e.g. ``http://192.168.1.20:5000``.

    ``PUBLIC_URL`` (the address the server is reached at) wins. Without it, the ``Host`` a
    client sends is used only when it is one of ``TRUSTED_HOSTS``; any other host, which a
    client may make up (``Host: evil.example``), is replaced by this machine's LAN address
    and the port the server listens on. A loopback host is swapped for the LAN address too,
    since a page opened on the laptop as ``localhost`` would hand phones a useless address.
    """
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured).rstrip("/")
    parts = urlsplit(request.host_url)
    host = parts.hostname or ""
    trusted = current_app.config.get("TRUSTED_HOSTS") or []
    if host and trusted and host_is_trusted(request.host, trusted) and not _is_loopback(host):
        port = f":{parts.port}" if parts.port else ""
        return f"{request.scheme}://{host}{port}"
    listening = str(request.environ.get("SERVER_PORT", "")).strip()
    default = "443" if request.scheme == "https" else "80"
    port = f":{listening}" if listening.isdecimal() and listening != default else ""
    return f"{request.scheme}://{lan_ip()}{port}"


def public_url(endpoint: str, **values: Any) -> str:
    """Build an absolute address for ``endpoint`` that works from another phone."""
    return base_url() + url_for(endpoint, **values)
