"""The addresses this machine is reached at: for the command line and join links."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit, urlunsplit

LOOPBACK = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
"""Host names another device cannot reach."""


def lan_addresses() -> list[str]:
    """Return this machine's IPv4 addresses other devices on the network may reach."""
    found: list[str] = []
    try:
        # Connecting a UDP socket sends nothing; it only picks the outgoing interface.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if address not in found:
                found.append(address)
    except OSError:
        pass
    return [a for a in found if not a.startswith("127.") and a != "0.0.0.0"]


def urls(host: str, port: int) -> list[str]:
    """Return the addresses to open for a server bound to host:port, local one first."""
    if host in ("0.0.0.0", "", "::"):
        local = [f"http://127.0.0.1:{port}/"]
        return local + [f"http://{a}:{port}/" for a in lan_addresses()]
    return [f"http://{host}:{port}/"]


def is_loopback(host: str) -> bool:
    """Return whether a host name (without port) only reaches this machine."""
    return host in LOOPBACK


def lan_url(url: str) -> str | None:
    """Return url with its host replaced by this machine's LAN address, if any.

    The laptop serving the table often opens the page as localhost; the phone that
    scans the QR code needs the address it can reach.
    """
    addresses = lan_addresses()
    if not addresses:
        return None
    parts = urlsplit(url)
    netloc = addresses[0] + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
