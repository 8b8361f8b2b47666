"""Every test starts with the doors unconfigured (no saved-boards folder, no
Awari table): a server started by one test hands the doors its state
directory, and that must not reach the next test."""
from __future__ import annotations

import pytest

from doors.awari import endgame
from doors.kingdom import boards


@pytest.fixture(autouse=True)
def _doors_unconfigured():
    where, saved = dict(endgame._WHERE), boards.SAVED_DIR
    endgame.use_table(None)
    boards.use_saved_dir(None)
    yield
    endgame._WHERE.update(where)
    boards.SAVED_DIR = saved
