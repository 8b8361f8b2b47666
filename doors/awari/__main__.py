"""``python -m doors.awari build [--path P] [--stones N] [--jobs J] [--nice N]``:
build the endgame table (see doors.awari.endgame)."""
import sys

from .endgame import main

sys.exit(main())
