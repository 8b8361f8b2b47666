"""What a door gives the server: its registry entry, its screen and its bots.

A door package (``doors/<key>/``) has ``rules.py`` (a pure ``GameState``),
``view.py`` and ``keys.py`` (together a ``DoorUI``: one player's screen and
controller), ``ai.py`` (bots) and an ``INFO: DoorInfo`` in its ``__init__``.

Screen layout (80x24): the door draws in the top ``DOOR_ROWS`` rows
(``DoorUI.draw`` gets a canvas region of 80x20). The server owns the bottom
four rows: a status line (whose turn, last move, messages), two lines of chat
and a key-hint / chat-input line.

Keys the server keeps for itself in every door (a door must not use them):
``c`` chat, ``r`` and CTRL-L redraw, ``?`` help, ``Q`` resign, ``=`` offer or
accept a draw. Everything else reaches ``DoorUI.on_key``.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from .game import GameState, Player

__all__ = ["DOOR_ROWS", "RESERVED_KEYS", "OptionSpec", "Submit", "Request",
           "DoorUI", "Bot", "DoorInfo"]

DOOR_ROWS = 20
RESERVED_KEYS = frozenset({"c", "r", "?", "Q", "=", "CTRL_L"})


@dataclasses.dataclass(frozen=True)
class OptionSpec:
    """One game option chosen by the challenger.

    ``choices`` are ``(value, label)`` pairs; the value "random" is resolved
    to one of the other values when the game is created (so the record holds
    the concrete choice)."""

    key: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    default: Any

    def label_of(self, value: Any) -> str:
        return next((lab for val, lab in self.choices if val == value), str(value))


@dataclasses.dataclass(frozen=True)
class Submit:
    """``DoorUI.on_key`` result: propose this action to the match."""
    action: Any


@dataclasses.dataclass(frozen=True)
class Request:
    """``DoorUI.on_key`` result: ask the server for something beyond an action.

    Known kinds: "auto_finish" (Awari: the computer plays both sides to the
    end; the other human must agree), "save_setup" (data: (name, setup
    text)) and "load_setup" (data: name; the server answers with
    ``ui.setup_loaded(name, text)``) for Stratego's named setups. The server
    fills ``ui.saved_setups`` with the caller's setup names, and while
    ``ui.text_input`` is true it passes every key (even its own) to the door."""
    kind: str
    data: Any = None


class DoorUI:
    """One seat's (or a spectator's) screen and controller for a door.

    The server calls ``update`` with each new observation, ``on_key`` with
    each key the server does not keep, and ``draw`` whenever it repaints.
    ``message`` is shown on the status line. ``frame_due`` lets a view animate
    (Awari's sowing, Stratego's strike reveal): the server redraws at that
    time."""

    # True when the view itself shows whose turn it is and the last move: the
    # server's status line then leaves them out (no update pays for them twice)
    shows_turn = False

    def __init__(self, me: Player | None, names: tuple[str, str],
                 options: Mapping[str, Any]):
        self.me = me                  # None: spectator
        self.names = names
        self.options = dict(options)
        self.obs: Any = None
        self.last: tuple[Player, Any] | None = None
        self.message = ""
        self.outcome: Any = None      # set by the server when the game ends

    def update(self, obs: Any, last: tuple[Player, Any] | None, now: float) -> None:
        self.obs = obs
        self.last = last

    def on_key(self, key: str, now: float) -> Submit | Request | None:
        return None

    def draw(self, canvas: Any, now: float) -> None:
        raise NotImplementedError

    def frame_due(self, now: float) -> float | None:
        """Monotonic time of the next animation frame, or None."""
        return None

    def cursor(self) -> tuple[int, int] | None:
        """Where to leave the terminal cursor (region coordinates), or None."""
        return None


class Bot(Protocol):
    """A computer player. ``choose`` blocks (the server runs it in a thread)
    and sees only ``state.observation(player)``."""

    def choose(self, observation: Any, player: Player) -> Any: ...


@dataclasses.dataclass(frozen=True)
class DoorInfo:
    key: str                                   # "towers"
    title: str                                 # "Towers"
    blurb: str                                 # one line for the lobby
    state_class: type[GameState]
    ui_class: type[DoorUI]
    make_bot: Callable[[int, int | None], Bot]  # (level, seed) -> Bot
    help_text: str
    options: tuple[OptionSpec, ...] = ()
    levels: tuple[int, int] = (1, 5)
    default_level: int = 3
    hidden_information: bool = False
    # options whose choices change at run time (Kingdom's board files)
    options_factory: Callable[[], tuple[OptionSpec, ...]] | None = None
    # a door tool on the new-game screen (Kingdom's board editor): builds an
    # object with on_key(key) -> None | "saved" | "cancel", draw(canvas), message
    editor: Callable[[], Any] | None = None
    # the server hands the door its own writable folder (<state_dir>/<key>)
    # and its [<key>] section of gatehouse.toml, once at start (Kingdom keeps
    # saved boards there, Awari its endgame table)
    configure: Callable[[Path, Mapping[str, Any]], None] | None = None
    # a job the server runs once in the background at start (Awari builds its
    # endgame table): the arguments after the Python interpreter, or None
    # when there is nothing to do. The job lowers its own priority, exits
    # non-zero with one line on stderr saying why when it fails.
    background_job: Callable[[], list[str] | None] | None = None
    # one line on the door's own state for the sysop console, or None
    status: Callable[[], str | None] | None = None

    def specs(self) -> tuple[OptionSpec, ...]:
        """The options as they are now."""
        return self.options_factory() if self.options_factory else self.options

    def resolve_options(self, chosen: Mapping[str, Any],
                        rng: random.Random | None = None) -> dict[str, Any]:
        """Defaults filled in, unknown keys dropped, "random" resolved."""
        rng = rng or random.Random()
        out: dict[str, Any] = {}
        for spec in self.specs():
            value = chosen.get(spec.key, spec.default)
            if value not in [v for v, _ in spec.choices]:
                value = spec.default
            if value == "random":
                value = rng.choice([v for v, _ in spec.choices if v != "random"])
            out[spec.key] = value
        return out

    def new_game(self, chosen: Mapping[str, Any],
                 rng: random.Random | None = None) -> GameState:
        return self.state_class.from_options(self.resolve_options(chosen, rng))
