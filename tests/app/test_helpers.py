"""QR codes, the standings chart and the LAN address finder."""

from __future__ import annotations

import ipaddress
import re
import socket

import pytest

from companion.chart import cumulative_chart
from companion.netinfo import lan_ip
from companion.qr import qr_svg


def test_qr_is_inline_svg_with_an_accessible_name() -> None:
    svg = qr_svg("http://192.168.1.20:5000/", "Join code")
    assert svg.startswith('<svg role="img" aria-label="Join code"')
    assert "<path" in svg
    assert not re.search(r'\swidth="', svg.split(">")[0])  # sized by CSS, not in millimetres


def test_qr_escapes_its_label() -> None:
    assert 'aria-label="&lt;b&gt;"' in qr_svg("x", "<b>")


def test_chart_draws_one_line_per_player_with_scores() -> None:
    svg = cumulative_chart(["Ann", "Bob"], {"Ann": [5, 9, 20], "Bob": [0, 30, 31]}, 13)
    assert svg.count("<polyline") == 2
    assert "<title>Ann: 20</title>" in svg
    assert svg.count("<circle") == 2
    ann_points = re.search(r'points="([^"]+)"', svg)
    assert ann_points and len(ann_points.group(1).split()) == 3


def test_chart_is_empty_before_any_round() -> None:
    assert cumulative_chart(["Ann"], {"Ann": []}, 13) == ""


def test_chart_handles_negative_totals() -> None:
    svg = cumulative_chart(["Ann"], {"Ann": [-10, -20]}, 2)
    ys = [float(p.split(",")[1]) for p in re.search(r'points="([^"]+)"', svg).group(1).split()]  # type: ignore[union-attr]
    assert all(0 <= y <= 220 for y in ys)


def test_lan_ip_is_an_ipv4_address() -> None:
    address = ipaddress.ip_address(lan_ip())
    assert address.version == 4


def test_lan_ip_falls_back_to_loopback_without_a_network(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoRoute(socket.socket):
        def connect(self, address: object) -> None:
            raise OSError("network unreachable")

    def no_hostname(*_args: object, **_kwargs: object) -> list[object]:
        raise OSError("no DNS")

    monkeypatch.setattr(socket, "socket", NoRoute)
    monkeypatch.setattr(socket, "getaddrinfo", no_hostname)
    assert lan_ip() == "127.0.0.1"
