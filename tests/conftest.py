"""Every test runs in a temporary directory of its own (its working
directory, so a relative ``data`` state directory is the test's), and no
test may write under the checkout: a file made, changed or removed there
(source files aside: those are someone's edits) fails the test that did it.
Under ``data/`` (the state directory of `make serve`) every file counts,
whatever its name, and so does a folder made or removed."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
# the state directory of `make serve`: nothing under it is anyone's edit, and
# a folder made or removed there counts as much as a file
STATE = CHECKOUT / "data"
# tools' own caches and the virtualenv are not the project's files
_NOT_CHECKED = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache",
                ".ruff_cache", ".import_linter_cache", "build", "gatehouse.egg-info", "node_modules"}

# source made or changed while the suite runs is someone's edit, not a test's
_EDITED_BY_HAND = (".py", ".md", ".toml")


def _checkout_files() -> dict[str, tuple[int, int]]:
    """Every file under the checkout (but tools' caches), and every folder
    under ``data/`` (and ``data`` itself): path -> (mtime, size)."""
    found: dict[str, tuple[int, int]] = {}
    stack = [str(CHECKOUT)]
    state = str(STATE)
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.name in _NOT_CHECKED:
                    continue
                in_state = entry.path == state or entry.path.startswith(state + os.sep)
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                    if in_state:
                        info = entry.stat(follow_symlinks=False)
                        found[entry.path + os.sep] = (info.st_mtime_ns, 0)
                else:
                    info = entry.stat(follow_symlinks=False)
                    found[entry.path] = (info.st_mtime_ns, info.st_size)
    return found


def _edited_by_hand(path: str) -> bool:
    return path.endswith(_EDITED_BY_HAND) and not path.startswith(str(STATE) + os.sep)


@pytest.fixture(autouse=True)
def _own_directory_and_checkout_untouched(tmp_path_factory, monkeypatch):
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
    # child processes (``python -m tests...``) still find the checkout's packages
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(CHECKOUT), os.environ.get("PYTHONPATH")])))
    before = _checkout_files()
    yield
    after = _checkout_files()
    changed = sorted(path for path in before.keys() | after.keys()
                     if before.get(path) != after.get(path) and not _edited_by_hand(path))
    assert not changed, f"the test wrote under the checkout: {changed[:10]}"
