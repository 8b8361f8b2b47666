"""``gatehouse games`` (the record of games, with results and rating
changes) and ``gatehouse bulletin`` (the host BBS's bulletin file)."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO

from server.config import Config

if TYPE_CHECKING:
    from server.services.store_ratings import StoredRating

__all__ = ["games_command", "bulletin_command"]


def rating_text(players: tuple[str, str], change: StoredRating | None) -> str:
    """"Alice 1500->1662 +162, Bob 1500->1338 -162"; "unrated"; "" if not over."""
    if change is None:
        return ""
    rated, (b0, b1), (a0, a1), why = change
    if not rated:
        return f"unrated: {why}" if why else "unrated"
    parts = []
    for label, before, after in ((players[0], b0, a0), (players[1], b1, a1)):
        if before is not None and after is not None:
            parts.append(f"{label} {before:.0f}->{after:.0f} {round(after) - round(before):+d}")
    return ", ".join(parts)


async def games_command(config: Config, status: str | None, limit: int, out: TextIO | None = None) -> None:
    from doors import registry
    from server.services.store import Store
    doors = registry()
    out = out or sys.stdout
    store = await Store(config.store.database).open()
    try:
        rows = await store.list_games(status, limit)
        changes = await store.game_ratings(g.id for g in rows)
        print(f"{'id':>5}  {'door':<13} {'player 1':<20} {'player 2':<20} {'moves':>5}  "
              f"{'started':<16}  result; rating change", file=out)
        for g in rows:
            if g.outcome:
                winner = g.outcome.get("winner")
                if g.outcome.get("termination") == "aborted":
                    who = "aborted"
                elif winner is None:
                    who = "draw"
                elif g.players[0] == g.players[1]:      # the computer against itself
                    who = f"player {winner + 1} ({g.players[winner]}) won"
                else:
                    who = f"{g.players[winner]} won"
                result = f"{who} ({g.outcome.get('reason', '')})"
                rating = rating_text(g.players, changes.get(g.id)) or "not rated yet"
                result += f"; {rating}"
            elif g.damaged:
                result = "its record in the database cannot be read"
            else:
                result = "unfinished"
            started = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.created))
            record = await store.moves(g.id)        # game moves only, not setup placements
            try:
                moves = doors[g.door].state_class.count_moves(record)[0] if g.door in doors else len(record)
            except Exception:                       # (a move the rules cannot read: counted as stored)
                moves = len(record)
            print(f"{g.id:>5}  {g.door:<13} {g.players[0][:20]:<20} {g.players[1][:20]:<20} "
                  f"{moves:>5}  {started:<16}  {result}", file=out)
        if not rows:
            print("No games recorded yet.", file=out)
    finally:
        await store.close()


async def bulletin_command(config: Config, door: str | None, fmt: str, out: BinaryIO,
                           output: str | None = None, bbs: str | None = None) -> int:
    """Write the bulletin to ``out`` (bytes), or to the file ``output``
    (replaced at once: a caller never sees half a file); a message and a
    non-zero exit if it cannot."""
    from doors import registry
    from server.net.rlogin import normalize_tag
    from server.screens.board_look import footer_line
    from server.screens.bulletin import build_bulletin, encode_bulletin
    from server.services.records import open_readonly
    if door is not None and door not in registry():
        print(f"gatehouse: there is no door {door!r} (doors: {', '.join(registry())})",
              file=sys.stderr)
        return 2
    tag = normalize_tag(bbs) if bbs is not None else None
    if bbs is not None and not tag:
        print(f"gatehouse: --bbs {bbs!r} is no tag (write the tag its callers carry, e.g. MYS)",
              file=sys.stderr)
        return 2
    store = await open_readonly(config.store.database)
    try:
        canvas = await build_bulletin(store, door, bbs=tag, footer=footer_line(config.paths.state_dir))
    finally:
        await store.close()
    data = encode_bulletin(canvas, fmt)
    if output is None:
        out.write(data)
        out.flush()
        return 0
    return _replace_file(Path(output), data)


def _replace_file(path: Path, data: bytes) -> int:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        tmp.chmod(0o644)               # the BBS, another user, shows it
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        print(f"gatehouse: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
