"""The doors (games) Gatehouse hosts, and their registry.

Each door is a package ``doors/<key>/`` whose ``__init__`` exposes
``INFO: doors._core.door.DoorInfo``. A door appears in the lobby once its key
is listed in ``DOOR_KEYS``.
"""
from __future__ import annotations

import importlib
from functools import lru_cache

from ._core.door import DoorInfo

__all__ = ["DOOR_KEYS", "registry", "find_door"]

DOOR_KEYS: tuple[str, ...] = ("stratego", "awari", "stone_towers", "towers", "kingdom")


@lru_cache(maxsize=1)
def registry() -> dict[str, DoorInfo]:
    """Door key -> DoorInfo, in lobby order."""
    out: dict[str, DoorInfo] = {}
    for key in DOOR_KEYS:
        module = importlib.import_module(f"doors.{key}")
        out[key] = module.INFO
    return out


def find_door(name: str) -> DoorInfo | None:
    """A door by key or title, case-insensitive."""
    name = name.strip().lower().replace(" ", "_")
    for key, info in registry().items():
        if name in (key, info.title.lower().replace(" ", "_")):
            return info
    return None
