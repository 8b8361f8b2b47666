"""``python -m doors._core.table_build NICE MODULE [ARGS...]``: run a door's
table build (``PreparedTable``) as ``python -m MODULE ARGS...`` after
lowering this process's CPU priority by NICE, in-process with
``os.setpriority`` (no ``nice`` program is executed, so a service whose
system calls are filtered sees one call it can refuse with an error, not a
killed process). When the priority cannot be lowered, one line on stderr
says why and the build runs at normal priority."""
from __future__ import annotations

import os
import runpy
import sys

__all__ = ["lower_priority", "main"]


def lower_priority(by: int) -> str:
    """Lower this process's CPU priority (children inherit it); "" or why not."""
    if by <= 0:
        return ""
    try:
        os.setpriority(os.PRIO_PROCESS, 0, min(19, os.getpriority(os.PRIO_PROCESS, 0) + by))
    except (OSError, AttributeError) as exc:
        return f"cannot lower the build's priority ({getattr(exc, 'strerror', None) or exc})"
    return ""


def main(argv: list[str]) -> None:
    if len(argv) < 2 or not argv[0].isdigit():
        sys.exit("usage: python -m doors._core.table_build NICE MODULE [ARGS...]")
    why = lower_priority(int(argv[0]))
    if why:
        print(f"note: {why}", file=sys.stderr, flush=True)
    sys.argv = [argv[1], *argv[2:]]
    runpy.run_module(argv[1], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
