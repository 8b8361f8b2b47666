"""Names of the keys a screen receives.

The terminal layer (``server.net.terminal``) decodes a caller's byte stream into
these names; the sysop console decodes blessed keystrokes into the same names.
A printable key is the character itself ("a", "Q", "7"); control keys are
the names below.
"""
from __future__ import annotations

__all__ = ["UP", "DOWN", "LEFT", "RIGHT", "ENTER", "ESC", "BACKSPACE",
           "DELETE", "TAB", "HOME", "END", "PGUP", "PGDN", "INSERT",
           "CTRL_L", "CTRL_C", "CTRL_D", "F1", "is_text", "ARROWS"]

UP, DOWN, LEFT, RIGHT = "UP", "DOWN", "LEFT", "RIGHT"
ENTER, ESC, BACKSPACE, DELETE, TAB = "ENTER", "ESC", "BACKSPACE", "DELETE", "TAB"
HOME, END, PGUP, PGDN, INSERT = "HOME", "END", "PGUP", "PGDN", "INSERT"
CTRL_L, CTRL_C, CTRL_D, F1 = "CTRL_L", "CTRL_C", "CTRL_D", "F1"
ARROWS = {UP: (0, -1), DOWN: (0, 1), LEFT: (-1, 0), RIGHT: (1, 0)}


def is_text(key: str) -> bool:
    """True for a single printable character."""
    return len(key) == 1 and key.isprintable()
