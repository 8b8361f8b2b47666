"""Which handles a caller may take."""
from __future__ import annotations

import re

__all__ = ["RESERVED", "valid_handle"]

_HANDLE_RE = re.compile(r"^[A-Za-z0-9\[][A-Za-z0-9 _\-.\[\]]{1,19}$")
RESERVED = {"computer", "sysop", "new", "all", "guest", "nobody", "gatehouse"}   # (gatehouse: its news)


def valid_handle(handle: str, sysop_name: str = "Sysop") -> str | None:
    """None if ``handle`` is acceptable, else the reason."""
    if not 2 <= len(handle) <= 20:
        return "A handle is 2 to 20 characters."
    if not _HANDLE_RE.match(handle) or "  " in handle or handle != handle.strip():
        return "Use letters, digits, spaces and _ - . [ ] only."
    if handle.casefold() in RESERVED | {sysop_name.casefold()}:
        return "That handle is reserved."
    return None
