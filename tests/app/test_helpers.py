"""QR codes, the standings chart and the LAN address finder."""

from __future__ import annotations

import ipaddress
import re
import socket
from typing import Any

import numpy as np
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


def rasterise(svg: str, scale: int = 8) -> Any:
    """Paint the QR path's rectangles into a white image, as a browser would."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))  # type: ignore[union-attr]
    image = np.full((size * scale, size * scale), 255, dtype=np.uint8)
    path = re.search(r'<path d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    for x, y, width in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", path):
        top, left = int(y) * scale, int(x) * scale
        image[top : top + scale, left : left + int(width) * scale] = 0
    return image


@pytest.mark.parametrize(
    "address",
    ["http://192.168.1.20:5000/", "http://10.0.0.7:5000/games/abcdefghij/edit/Tok-en_123456789"],
)
def test_qr_decodes_back_to_the_address(address: str) -> None:
    cv2 = pytest.importorskip("cv2")
    decoded, _points, _straight = cv2.QRCodeDetector().detectAndDecode(
        rasterise(qr_svg(address, "code"))
    )
    assert decoded == address
