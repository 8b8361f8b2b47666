"""Awari endgame table: exact values of every position with few stones left
in the rows, by backward induction.

State and value
---------------
A position is seen from the side to move: ``A`` = the mover's six holes and
``B`` = the opponent's six holes (each in its owner's sowing order), plus
``extra`` = this turn is already an extra turn (landing in the home again
gives no further turn). The homes are *not* part of the state: the table
stores

    V(A, B, extra) = the best final (mover's home - opponent's home) minus the
                     current (mover's home - opponent's home),

i.e. the net home gain of the rest of the game under perfect play, in the game
*without* the "19 in a home" stop. Why that is enough:

* homes only grow and 19 > 36/2, so once a home holds 19 the winner is
  fixed whatever happens next: stopping there never changes who wins;
* the winner is sign(final difference), a monotone function of it, and
  minimax commutes with monotone functions; so the real game (with the 19
  rule) is won / tied / lost by the mover exactly when
  ``d + V(A, B, extra)`` is > 0 / == 0 / < 0, where ``d`` is the current
  home difference. (The real final margin may be smaller when the 19 rule
  stops the game early; the table's margin is that of the no-19 game.)

Order of solution: sowing into a home and captures only remove stones from
the rows, so a position depends on positions with fewer row stones, and on
positions with as many, which arise only when the stones stay in the mover's
own row and move towards its home. Those raise the "potential" (sum of hole
position x stones over both rows), so within a layer of ``b`` row stones
positions are solved in decreasing potential. Within a layer, the blocks
(|A|, |B|) = (a, b-a) and (b-a, a) depend only on each other and on lower
layers, so they are solved in parallel (fork, shared memory).

File: ``<state_dir>/awari/endgame.bin`` (the door's folder, handed to
the door by the server: every function here takes the path): a 32-byte header (magic, rules version,
format version, stones covered, entry count) then one signed byte per entry.
Entry ``2 * (base[a][c] + rank(A) * N6[c] + rank(B)) + extra``, with
``a = |A|``, ``c = |B|``, blocks ordered by ``a + c`` then ``a``, and rows of
each count ranked in the order of ``_compositions``.

``python -m doors.awari build [--path P] [--stones N] [--jobs J]
[--nice N]`` builds it; the server runs that in the background at start
(``INFO.tables``), at lower priority, and reads the "building N%" lines it
prints on stderr. While it runs, the build also
keeps ``<table>.progress`` up to date ("building 42 <pid>", or "failed
<reason>" when it could not finish); ``table_status`` reads it as missing,
building N%, failed or ready, for the sysop console.
"""
from __future__ import annotations

import argparse
import contextlib
import mmap
import multiprocessing
import os
import struct
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from operator import add
from pathlib import Path

from doors._core.table_build import lower_priority

from .rules import RULES_VERSION

__all__ = ["DEFAULT_STONES", "Layout", "EndgameTable", "build", "table_status", "load", "is_current",
           "ensure", "value_of"]

DEFAULT_STONES = 16
DEV_PATH = Path("data") / "awari" / "endgame.bin"   # `make serve`'s state directory

MAGIC = b"AWARIEGT"
FORMAT_VERSION = 1
_HEADER = struct.Struct("<8sIIIQ4x")       # 32 bytes


def _compositions(total: int, parts: int = 6) -> list[tuple[int, ...]]:
    """All ways to put ``total`` stones in ``parts`` holes, in a fixed order."""
    if parts == 1:
        return [(total,)]
    out = []
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            out.append((first,) + rest)
    return out


class Layout:
    """Row ranks and block offsets for a table covering ``stones`` row stones."""

    def __init__(self, stones: int):
        self.stones = stones
        self.rows = [_compositions(c) for c in range(stones + 1)]
        self.n6 = [len(r) for r in self.rows]
        self.rank: dict[tuple[int, ...], int] = {}
        for rows in self.rows:
            for i, row in enumerate(rows):
                self.rank[row] = i
        self.base = [[0] * (stones + 1) for _ in range(stones + 1)]
        pos = 0
        for b in range(stones + 1):
            for a in range(b + 1):
                self.base[a][b - a] = pos
                pos += self.n6[a] * self.n6[b - a]
        self.boards = pos
        self.entries = 2 * pos

    def index(self, a_row: tuple[int, ...], b_row: tuple[int, ...]) -> int:
        """Board index (the entry is ``2 * index + extra``)."""
        c = sum(b_row)
        return (self.base[sum(a_row)][c] + self.rank[a_row] * self.n6[c]
                + self.rank[b_row])


# ----- the build ----------------------------------------------------------
_TABLE: memoryview | None = None          # shared signed-byte array while building
_LAYOUT: Layout | None = None
_MOVES: dict[tuple[int, ...], list[tuple[tuple[int, ...], tuple[int, ...] | None, int, int, int]]] | None = None


def _row_moves(row: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...] | None, int, int, int]]:
    """Each sowing of the mover's row alone: (A after, stones added to B or
    None, own home gain, opponent home gain, last position 0..13)."""
    out = []
    for h in range(6):
        s = row[h]
        if not s:
            continue
        cyc = list(row) + [0] * 8
        cyc[h] = 0
        i = h
        for _ in range(s):
            i = (i + 1) % 14
            cyc[i] += 1
        add_b = tuple(cyc[7:13])
        out.append((tuple(cyc[:6]), add_b if any(add_b) else None,
                    cyc[6], cyc[13], i))
    return out


def _solve_pair(job: tuple[int, int]) -> int:
    """Solve blocks (a, b-a) and (b-a, a) of layer b; returns positions done."""
    b, a = job
    lay, moves, T = _LAYOUT, _MOVES, _TABLE
    assert lay is not None and moves is not None and T is not None, "build() sets these first"
    rank, base, n6 = lay.rank, lay.base, lay.n6
    c = b - a
    pairs = [(a, c)] if a == c else [(a, c), (c, a)]

    def pot(row: tuple[int, ...]) -> int:
        return sum(i * v for i, v in enumerate(row))

    by_pot: dict[int, dict[int, list[tuple[int, ...]]]] = {}
    for cnt in {a, c}:
        d: dict[int, list[tuple[int, ...]]] = {}
        for row in lay.rows[cnt]:
            d.setdefault(pot(row), []).append(row)
        by_pot[cnt] = d
    done = 0
    for total in range(5 * b, -1, -1):
        for x, y in pairs:
            if x == 0:
                continue                   # mover has no stones: value 0
            bx, by_ = by_pot[x], by_pot[y]
            basexy, ny = base[x][y], n6[y]
            for px, arows in bx.items():
                brows = by_.get(total - px)
                if not brows:
                    continue
                for A in arows:
                    amoves = moves[A]
                    ia = basexy + rank[A] * ny
                    for B in brows:
                        best0 = best1 = -128
                        for A2, add_b, g_own, g_opp, last in amoves:
                            B2 = B if add_b is None else tuple(map(add, B, add_b))
                            gain = g_own - g_opp
                            if last == 6:
                                # extra turn (only when this is not one already)
                                sa, sb = sum(A2), sum(B2)
                                v0 = gain + T[2 * (base[sa][sb] + rank[A2] * n6[sb] + rank[B2]) + 1]
                                v1 = gain - T[2 * (base[sb][sa] + rank[B2] * n6[sa] + rank[A2])]
                            else:
                                if last < 6:
                                    if A2[last] == 1 and B2[5 - last]:
                                        gain += 1 + B2[5 - last]
                                        A2 = A2[:last] + (0,) + A2[last + 1:]
                                        j = 5 - last
                                        B2 = B2[:j] + (0,) + B2[j + 1:]
                                elif last != 13:
                                    j = last - 7
                                    if B2[j] == 1 and A2[5 - j]:
                                        gain += 1 + A2[5 - j]
                                        B2 = B2[:j] + (0,) + B2[j + 1:]
                                        k = 5 - j
                                        A2 = A2[:k] + (0,) + A2[k + 1:]
                                sa, sb = sum(A2), sum(B2)
                                v0 = v1 = gain - T[2 * (base[sb][sa] + rank[B2] * n6[sa] + rank[A2])]
                            if v0 > best0:
                                best0 = v0
                            if v1 > best1:
                                best1 = v1
                        k = 2 * (ia + rank[B])
                        T[k] = best0
                        T[k + 1] = best1
                        done += 1
    return done


def _progress_path(path: Path | str) -> Path:
    path = Path(path)
    return path.with_name(path.name + ".progress")


def _write_progress(path: Path | str, text: str) -> None:
    """Replace the progress file in one step (a reader never sees half)."""
    target = _progress_path(path)
    tmp = target.with_name(f"{target.name}.{os.getpid()}")
    with contextlib.suppress(OSError):
        tmp.write_text(text + "\n", encoding="ascii", errors="replace")
        os.replace(tmp, target)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True          # someone else's process: it exists
    return True


def table_status(path: Path | str | None, stones: int = DEFAULT_STONES) -> str:
    """The table's state in a few words: "ready (16 stones)", "building 42%",
    "failed: <reason>", "missing", or "not configured" (no path)."""
    if path is None:
        return "not configured"
    if is_current(path, stones):
        try:
            with open(path, "rb") as fh:
                have = _HEADER.unpack(fh.read(_HEADER.size))[3]
        except (OSError, struct.error):
            have = stones
        return f"ready ({have} stones)"
    try:
        words = _progress_path(path).read_text(encoding="ascii", errors="replace").strip().split(None, 2)
    except OSError:
        words = []
    if len(words) == 3 and words[0] == "building" and words[1].isdigit() and words[2].isdigit():
        if _alive(int(words[2])):
            return f"building {int(words[1])}%"
    elif words and words[0] == "failed":
        return "failed: " + " ".join(words[1:]).strip()
    return "missing"


def build(stones: int = DEFAULT_STONES, path: Path | str | None = None,
          jobs: int | None = None, verbose: bool = False,
          progress: Callable[[float], None] | None = None) -> EndgameTable:
    """Solve every position with at most ``stones`` row stones; save to
    ``path`` (None: keep in memory only). ``progress`` hears the share done
    (0.0 to 1.0) as the build goes."""
    global _TABLE, _LAYOUT, _MOVES
    t0 = time.monotonic()
    lay = Layout(stones)
    jobs = jobs or min(2, os.cpu_count() or 1)
    moves = {row: _row_moves(row) for rows in lay.rows for row in rows}
    # an anonymous shared mapping: forked workers write into the same bytes
    shared = mmap.mmap(-1, max(1, lay.entries))
    table = memoryview(shared).cast("b")
    _TABLE, _LAYOUT, _MOVES = table, lay, moves
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    done = 0
    try:
        for b in range(1, stones + 1):
            work = sorted(((b, a) for a in range(b // 2 + 1)),
                          key=lambda j: -lay.n6[j[1]] * lay.n6[j[0] - j[1]])
            if pool is None or b < 6:
                results: Iterable[int] = map(_solve_pair, work)
            else:
                results = pool.imap_unordered(_solve_pair, work)
            for count in results:
                done += count
                if progress is not None:
                    progress(min(1.0, done / max(1, lay.boards)))
            if verbose:
                print(f"  layer {b:2d} solved  {time.monotonic() - t0:7.1f} s",
                      file=sys.stderr, flush=True)
        if progress is not None:
            progress(1.0)          # (boards whose mover has no stone are not counted above)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    data = bytes(shared[:lay.entries])
    table.release()
    shared.close()
    _TABLE = _LAYOUT = _MOVES = None
    result = EndgameTable(stones, data, lay)
    if path is not None:
        result.save(path)
    return result


# ----- use ----------------------------------------------------------------
class EndgameTable:
    """A solved table. ``value(board, player, extra)``: see the module doc."""

    def __init__(self, stones: int, data: bytes, layout: Layout | None = None):
        self.stones = stones
        self.layout = layout or Layout(stones)
        if len(data) != self.layout.entries:
            raise ValueError("endgame table has the wrong size")
        self.data = memoryview(data).cast("b")

    @property
    def entries(self) -> int:
        return self.layout.entries

    def covers(self, board: Sequence[int]) -> bool:
        return sum(board) - board[6] - board[13] <= self.stones

    def value(self, board: Sequence[int], player: int, extra: bool) -> int | None:
        """Net home gain of the rest of the game for ``player`` (to move),
        or None when the position has too many row stones."""
        o = 7 - 7 * player
        a_row = tuple(board[7 * player:7 * player + 6])
        b_row = tuple(board[o:o + 6])
        if sum(a_row) + sum(b_row) > self.stones:
            return None
        return self.data[2 * self.layout.index(a_row, b_row) + int(extra)]

    def save(self, path: Path | str) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as fh:
                fh.write(_HEADER.pack(MAGIC, RULES_VERSION, FORMAT_VERSION,
                                      self.stones, self.entries))
                fh.write(self.data.cast("B"))
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise


def load(path: Path | str) -> EndgameTable | None:
    """The table at ``path``, or None if missing, damaged or out of date."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_HEADER.size)
            magic, rules, fmt, stones, entries = _HEADER.unpack(head)
            if (magic, rules, fmt) != (MAGIC, RULES_VERSION, FORMAT_VERSION):
                return None
            data = fh.read()
        table = EndgameTable(stones, data)
        if table.entries != entries:
            return None
        return table
    except (OSError, struct.error, ValueError):
        return None


def is_current(path: Path | str, stones: int | None = None) -> bool:
    """True when ``path`` holds a table of these rules (and at least ``stones``)."""
    try:
        with open(path, "rb") as fh:
            magic, rules, fmt, have, _ = _HEADER.unpack(fh.read(_HEADER.size))
    except (OSError, struct.error):
        return False
    return ((magic, rules, fmt) == (MAGIC, RULES_VERSION, FORMAT_VERSION)
            and (stones is None or have >= stones))


def ensure(stones: int, path: Path | str, jobs: int | None = None) -> bool:
    """Build the table unless ``path`` already holds a current one covering
    ``stones``; True if it built. For deploy scripts and server start-up
    (run it off the event loop); bots never call it."""
    if is_current(path, stones):
        return False
    build(stones, path, jobs)
    return True


def value_of(table: EndgameTable, board: Sequence[int], player: int,
             extra: bool) -> int | None:
    """Game value for ``player`` to move: +1 win, 0 tie, -1 loss (None: not covered)."""
    v = table.value(board, player, extra)
    if v is None:
        return None
    d = board[6] - board[13] if player == 0 else board[13] - board[6]
    return (d + v > 0) - (d + v < 0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m doors.awari")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build the table (if missing or out of date)")
    b.add_argument("--stones", type=int, default=DEFAULT_STONES)
    b.add_argument("--jobs", type=int, default=None)
    b.add_argument("--force", action="store_true")
    b.add_argument("--path", default=str(DEV_PATH))
    b.add_argument("--nice", type=int, default=0, help="lower the build's priority by this much")
    b.add_argument("--quiet", action="store_true", help="no per-layer lines")
    args = ap.parse_args(argv)
    if not args.force and is_current(args.path, args.stones):  # see ensure()
        print(f"{args.path} is up to date")
        return 0
    why = lower_priority(args.nice)
    if why:
        print(f"note: {why}", file=sys.stderr, flush=True)
    t0 = time.monotonic()
    shown = [-1]

    def progress(share: float) -> None:
        pct = int(share * 100)
        if pct != shown[0]:
            shown[0] = pct
            _write_progress(args.path, f"building {pct} {os.getpid()}")
            print(f"building {pct}%", file=sys.stderr, flush=True)    # the server reads these

    progress(0.0)
    try:
        Path(args.path).parent.mkdir(parents=True, exist_ok=True)
        table = build(args.stones, args.path, args.jobs, verbose=not args.quiet, progress=progress)
    except OSError as exc:
        reason = f"cannot write {os.path.abspath(args.path)}: {exc.strerror or exc}"
    except (MemoryError, RuntimeError, ValueError) as exc:
        reason = f"{type(exc).__name__}: {exc}"
    else:
        _progress_path(args.path).unlink(missing_ok=True)
        print(f"built {args.path}: {table.stones} stones, {table.entries} entries, "
              f"{Path(args.path).stat().st_size} bytes, {time.monotonic() - t0:.1f} s")
        return 0
    _write_progress(args.path, f"failed {reason}")
    print(f"Awari endgame table not built: {reason}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
