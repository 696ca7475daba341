"""Addresses that other phones at the table can open."""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

from flask import current_app, request, url_for

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

    A page opened on the laptop as ``localhost`` would hand phones a useless address, so the
    loopback host is swapped for the machine's LAN address (``PUBLIC_URL`` overrides all).
    """
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured).rstrip("/")
    parts = urlsplit(request.host_url)
    host = parts.hostname or "127.0.0.1"
    if _is_loopback(host):
        host = lan_ip()
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}"


def public_url(endpoint: str, **values: Any) -> str:
    """Build an absolute address for ``endpoint`` that works from another phone."""
    return base_url() + url_for(endpoint, **values)
