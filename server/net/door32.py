"""DOOR32.SYS drop file parsing (Door32 revision 1, 11 lines).

Line  1  comm type (0 local, 1 serial, 2 telnet)
Line  2  comm or socket handle (Synchronet writes -1 for local/stdio doors)
Line  3  baud rate
Line  4  BBSID (software name and version)
Line  5  user record position (1-based)
Line  6  user's real name
Line  7  user's handle/alias
Line  8  user's security level
Line  9  user's time left (minutes)
Line 10  emulation (0 ascii, 1 ansi, 2 avatar, 3 rip, 4 max graphics)
Line 11  current node number

Lines past 11 are ignored; CRLF or LF; decoded as CP437.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

COMM_LOCAL, COMM_SERIAL, COMM_TELNET = 0, 1, 2
EMU_ASCII, EMU_ANSI, EMU_AVATAR, EMU_RIP, EMU_MAX = 0, 1, 2, 3, 4
MAX_BYTES = 64 * 1024
MAX_HANDLE = 2**31 - 1       # a file descriptor is a C int
LINE_NAMES = ("comm type", "comm handle", "baud rate", "BBS name", "user record",
              "real name", "handle", "security level", "minutes left", "emulation",
              "node number")


CALLER_BAD = "the BBS's note about you for this door (its drop file) could not be read."
CALLER_MISSING = "the BBS did not leave its note about you for this door (its drop file)."
CALLER_STALE = ("the BBS's note about you for this door (its drop file) is old, "
                "so it may be someone else's.")


class DropFileError(Exception):
    """A drop file that cannot be used. ``str(err)`` names the file and line
    (for the log); ``caller_text`` is a plain sentence for the caller, with no path."""

    def __init__(self, message: str, caller_text: str = CALLER_BAD):
        super().__init__(message)
        self.caller_text = caller_text


@dataclass(frozen=True)
class DropFile:
    comm_type: int
    comm_handle: int
    baud: int
    bbs_name: str
    user_record: int
    real_name: str
    handle: str
    security: int
    minutes_left: int
    emulation: int
    node: int

    @property
    def caller_name(self) -> str:
        """The handle, or the real name when the BBS left the handle blank."""
        return self.handle or self.real_name


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]


def parse_door32(text: str, source: str = "DOOR32.SYS", stdio: bool = False) -> DropFile:
    """Parse DOOR32.SYS text; DropFileError names ``source`` and the bad line.

    ``stdio``: the caller is on stdin/stdout whatever the file says, so the
    comm handle is not used (ENiGMA½ writes comm type 2 with handle -1)."""
    lines = _lines(text)
    while lines and not lines[-1]:
        lines.pop()
    if len(lines) < len(LINE_NAMES):
        missing = len(lines) + 1
        raise DropFileError(
            f"{source}: expected {len(LINE_NAMES)} lines, found {len(lines)} "
            f"(line {missing}, {LINE_NAMES[missing - 1]}, is missing)")

    def num(n: int, lo: int | None = None, hi: int | None = None) -> int:
        raw = lines[n - 1]
        what = LINE_NAMES[n - 1]
        try:
            value = int(raw)
        except ValueError:
            raise DropFileError(f"{source} line {n}: {what} must be a number, got {raw!r}") from None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
            raise DropFileError(f"{source} line {n}: {what} must be {bounds}, got {value}")
        return value

    drop = DropFile(
        comm_type=num(1, 0, 2), comm_handle=num(2, -1, MAX_HANDLE), baud=num(3, 0),
        bbs_name=lines[3], user_record=num(5), real_name=lines[5], handle=lines[6],
        security=num(8), minutes_left=num(9), emulation=num(10, 0, 4), node=num(11, 0))
    if not drop.caller_name:
        raise DropFileError(f"{source} line 7: handle is empty (and so is the real name on line 6)")
    if drop.comm_type == COMM_TELNET and drop.comm_handle < 0 and not stdio:
        raise DropFileError(f"{source} line 2: comm handle must be a socket number for comm type 2, "
                            f"got {drop.comm_handle}")
    return drop


def peek_comm(text: str) -> tuple[int, int] | None:
    """Best effort ``(comm_type, handle)`` from lines 1-2 of a bad file, else None."""
    lines = _lines(text)
    try:
        comm = int(lines[0]), int(lines[1])
    except (IndexError, ValueError):
        return None
    return comm if comm[1] <= MAX_HANDLE else None


def read_text(path: str | os.PathLike[str]) -> str:
    """The file's text (CP437); DropFileError if missing, unreadable or huge."""
    p = Path(path)
    try:
        if p.exists() and not p.is_file() and not p.is_dir():     # a pipe or a device: open would wait
            raise DropFileError(f"drop file is not a regular file: {p}")
        with p.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise DropFileError(f"drop file not found: {p}", CALLER_MISSING) from None
    except IsADirectoryError:
        raise DropFileError(f"drop file is a directory: {p}") from None
    except OSError as exc:
        raise DropFileError(f"cannot read drop file {p}: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise DropFileError(f"{p.name}: larger than {MAX_BYTES // 1024} KiB, not a DOOR32.SYS")
    return data.decode("cp437")


def load_door32(path: str | os.PathLike[str], max_age_minutes: float | None = None,
                now: float | None = None, stdio: bool = False) -> DropFile:
    """Read and parse a DOOR32.SYS; refuse it unless it was written within
    ``max_age_minutes`` of ``now`` (the door's start): a BBS writes the file
    just before it runs the door, so an older one is a previous caller's."""
    p = Path(path)
    text = read_text(p)
    if max_age_minutes is not None:
        age = ((time.time() if now is None else now) - p.stat().st_mtime) / 60
        if abs(age) > max_age_minutes:
            when = f"{age:.1f} minutes ago" if age > 0 else f"{-age:.1f} minutes in the future"
            raise DropFileError(f"{p} is stale: written {when} (a drop file must be written "
                                f"within {max_age_minutes:g} minutes of the door starting, "
                                "[door] max_drop_age_minutes)", CALLER_STALE)
    return parse_door32(text, source=p.name, stdio=stdio)
