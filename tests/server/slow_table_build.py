"""A stand-in for a door's table build that never finishes (run as
``python -m``): starts a worker process, writes both process ids to the
file named first, says it has begun, and waits to be killed."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

if __name__ == "__main__":
    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
    Path(sys.argv[1]).write_text(f"{__import__('os').getpid()} {worker.pid}")
    print("step 1 of 4 done", file=sys.stderr, flush=True)
    time.sleep(3600)
