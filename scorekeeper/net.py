"""The addresses this machine is reached at: for the command line and join links."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

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


ANY = frozenset({"0.0.0.0", "", "::"})
"""Listen addresses meaning "every interface of this machine"."""


def is_loopback(host: str) -> bool:
    """Return whether a host name (without port) only reaches this machine."""
    return host in LOOPBACK or is_loopback_address(host.strip("[]"))


def is_loopback_address(address: str | None) -> bool:
    """Return whether a peer's IP address (the socket's, never a header) is this
    machine's loopback, IPv4-mapped IPv6 included."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def _url(host: str, port: int | None) -> str:
    name = f"[{host}]" if ":" in host else host
    return f"http://{name}:{port}/" if port and port != 80 else f"http://{name}/"


def reachable_url(host: str | None, port: int | None) -> str | None:
    """Return the address other devices reach a server listening on host:port at,
    or None when it is only reachable on this machine.

    For every interface: this machine's first LAN address; for a loopback
    address: None; for one address: that address.
    """
    if host is None or host in ANY:
        found = lan_addresses()
        return _url(found[0], port) if found else None
    if is_loopback(host):
        return None
    return _url(host, port)


def allowed_hosts(listen_host: str, given: Iterable[str] = ()) -> list[str]:
    """Return the Host names requests may carry: the given ones, else this
    machine's names and addresses (only the listen address when it is one);
    localhost always, so the serving machine itself gets in."""
    names = {"localhost", "127.0.0.1", "::1"}
    given = [host_name(name) for name in given]
    if given:
        names.update(given)
    elif listen_host in ANY:
        names.update(lan_addresses())
        try:
            hostname = socket.gethostname()
            names.update({hostname, f"{hostname}.local", socket.getfqdn()})
        except OSError:
            pass
    else:
        names.add(host_name(listen_host))
    return sorted(name.lower() for name in names if name)


def host_name(host: str) -> str:
    """Return a Host header's name: without its port or IPv6 brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    if host.count(":") == 1:
        return host.partition(":")[0]
    return host


def proxy_network(value: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """Return the network a `--trusted-proxy` value names (an address or a
    network such as 10.0.0.0/8); ValueError when it names none."""
    return ipaddress.ip_network(value.strip().strip("[]"), strict=False)


def _ip(address: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def is_trusted(address: str | None, trusted: Iterable[str]) -> bool:
    """Return whether a peer address is one of the trusted proxies."""
    ip = _ip(address)
    if ip is None:
        return False
    for value in trusted:
        try:
            if ip in proxy_network(value):
                return True
        except (ValueError, TypeError):
            continue
    return False


def _forwarded_for(value: str) -> str:
    """Return the address of a Forwarded header's `for=` (without port or quotes)."""
    value = value.strip().strip('"')
    if value.startswith("["):
        return value[1:].partition("]")[0]
    if value.count(":") == 1:
        return value.partition(":")[0]
    return value


def forwarded_chain(
    x_forwarded_for: Iterable[str], forwarded: Iterable[str],
    x_real_ip: Iterable[str] = (),
) -> list[str]:
    """Return the addresses a request passed through, client first, as the
    proxies wrote them: X-Forwarded-For, else the `for=` of Forwarded (RFC 7239),
    else X-Real-IP (nginx's `proxy_set_header X-Real-IP $remote_addr`)."""
    chain = [part.strip() for header in x_forwarded_for
             for part in header.split(",") if part.strip()]
    if chain:
        return [_forwarded_for(part) for part in chain]
    real = [value.strip() for value in x_real_ip if value.strip()]
    for header in forwarded:
        for element in header.split(","):
            for pair in element.split(";"):
                key, _, value = pair.partition("=")
                if key.strip().lower() == "for" and value.strip():
                    chain.append(_forwarded_for(value))
    return chain or [_forwarded_for(value) for value in real[-1:]]


def client_address(
    peer: str | None, chain: list[str], trusted: Iterable[str]
) -> str | None:
    """Return the address of the client behind the request.

    Without trusted proxies, or from a peer that is none of them, the socket's
    peer. From a trusted proxy, the rightmost address of the chain that is not
    itself a trusted proxy (what ProxyFix does with one proxy: an address the
    client wrote further left is not believed); when every address is a trusted
    one, the first (a client on the proxy's own machine); None when the proxy
    named none.
    """
    trusted = list(trusted)
    if not trusted or not is_trusted(peer, trusted):
        return peer
    for address in reversed(chain):
        if not is_trusted(address, trusted):
            return address if _ip(address) is not None else None
    return chain[0] if chain else None
