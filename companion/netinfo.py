"""Find the address other devices on the local network can reach this machine at."""

from __future__ import annotations

import ipaddress
import socket

# Connecting a UDP socket only picks a route; no packet is sent, so this works offline.
PROBE_ADDRESSES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")


def _usable(address: str) -> bool:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (parsed.is_loopback or parsed.is_unspecified or parsed.is_link_local)


def lan_ip() -> str:
    """Return this machine's LAN IPv4 address, falling back to the hostname, then loopback."""
    for probe in PROBE_ADDRESSES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 1))
                address = str(udp.getsockname()[0])
            except OSError:
                continue
        if _usable(address):
            return address
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if _usable(address):
                return address
    except OSError:
        pass
    return "127.0.0.1"
