"""Which callers count as one address for the abuse limits.

An IPv4 caller is its address. An IPv6 caller is its /64 network: a home,
a phone or a rented server is given a whole /64 and may pick any address
in it, so limits kept per exact IPv6 address would give one attacker
billions of fresh starts. An IPv4-mapped IPv6 address (``::ffff:a.b.c.d``,
a dual-stack socket's view of an IPv4 caller) is its IPv4 address. Anything
that is not an IP address (``local``, the sysop's socket) is itself.
"""
from __future__ import annotations

import ipaddress

__all__ = ["address_key"]


def address_key(peer: str) -> str:
    """The key the limits keep ``peer``'s counts under."""
    try:
        ip = ipaddress.ip_address(peer.split("%", 1)[0])     # no zone index (fe80::1%eth0)
    except ValueError:
        return peer
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
