"""A stand-in for a door's table build (run as ``python -m``): writes its
progress to stderr the way a real build does, then the table file."""
from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    target = Path(sys.argv[1])
    for step in (1, 2, 3, 4):
        print(f"step {step} of 4 done", file=sys.stderr, flush=True)
    if sys.argv[2:] != ["fail"]:
        target.write_text("table")
    sys.exit(0 if sys.argv[2:] != ["fail"] else 3)
