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

Types: a door is a ``Door[A, Obs]`` for its action type ``A`` and observation
type ``Obs`` (those of its ``GameState[A, Obs]``); its screen is a
``DoorUI[A, Obs]`` and its bots are ``Bot[Obs, A]``, so mypy checks that they
fit. The server holds doors of every kind side by side and only hands each
door its own values back: it sees them as ``DoorInfo`` (``Door[Any, Any]``).
"""
from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, Literal, Protocol, TypeAlias, TypeVar

from ansi.canvas import Canvas

from .game import GameState, Json, Options, Outcome, Player

__all__ = ["DOOR_ROWS", "RESERVED_KEYS", "OptionSpec", "Submit", "RequestKind", "Request",
           "DoorUI", "Bot", "SplitBot", "Editor", "EditorResult", "DoorSetting", "SettingValue",
           "Settings", "PreparedTable", "Door", "DoorInfo", "AnyState", "AnyUI", "TextCommand"]

A = TypeVar("A", bound=Hashable)                   # a door's action
Obs = TypeVar("Obs")                               # a door's observation
A_co = TypeVar("A_co", bound=Hashable, covariant=True)
Obs_contra = TypeVar("Obs_contra", contravariant=True)

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
    choices: tuple[tuple[Json, str], ...]         # values kept in the game's stored options
    default: Json

    def label_of(self, value: Json) -> str:
        return next((lab for val, lab in self.choices if val == value), str(value))


@dataclasses.dataclass(frozen=True)
class Submit(Generic[A]):
    """``DoorUI.on_key`` result: propose this action to the match."""
    action: A


class RequestKind(enum.StrEnum):
    """What a door may ask of the server beyond an action; each goes with a
    capability the door declares in its ``DoorInfo``."""
    AUTO_FINISH = "auto_finish"    # DoorInfo.auto_finish
    SAVE_SETUP = "save_setup"      # DoorInfo.saved_setups; data: (name, setup text)
    LOAD_SETUP = "load_setup"      # DoorInfo.saved_setups; data: name


@dataclasses.dataclass(frozen=True)
class Request:
    """``DoorUI.on_key`` result: ask the server for something beyond an action.

    "auto_finish": the computer plays both sides to the end; the other human
    must agree. "save_setup" (``name``, ``text``) / "load_setup" (``name``):
    named setups kept per caller; the server answers a load with
    ``ui.setup_loaded(name, text)`` and keeps ``ui.saved_setups`` filled with
    the caller's setup names. While ``ui.text_input`` is true the server
    passes every key (even its own) to the door."""
    kind: RequestKind
    name: str = ""                 # the setup's name (save_setup, load_setup)
    text: str = ""                 # the setup as text (save_setup)


class DoorUI(Generic[A, Obs]):
    """One seat's (or a spectator's) screen and controller for a door whose
    actions are ``A`` and observations ``Obs``.

    The server calls ``update`` with each new observation, ``on_key`` with
    each key the server does not keep, and ``draw`` whenever it repaints.
    ``message`` is shown on the status line. ``frame_due`` lets a view animate
    (Awari's sowing, Stratego's strike reveal): the server redraws at that
    time."""

    # True when the view itself shows whose turn it is and the last move: the
    # server's status line then leaves them out (no update pays for them twice)
    shows_turn = False

    def __init__(self, me: Player | None, names: tuple[str, str], options: Options):
        self.me = me                  # None: spectator
        self.names = names
        self.options = dict(options)
        self.obs: Obs | None = None     # None until the server's first update
        self.last: tuple[Player, A] | None = None
        self.message = ""
        self.outcome: Outcome | None = None   # set by the server when the game ends
        # the caller's saved setup names (DoorInfo.saved_setups), kept by the server
        self.saved_setups: list[str] = []

    @property
    def over(self) -> bool:
        """True once the game has ended (the server sets ``outcome``, and the
        server's own rows say the result, the reason and the keys): the
        door's panels then show the final position, with no turn line and
        no move hints."""
        return self.outcome is not None

    @property
    def text_input(self) -> bool:
        """True while the door takes typed text (a setup's name): the server
        then passes every key to the door."""
        return False

    def update(self, obs: Obs, last: tuple[Player, A] | None, now: float) -> None:
        self.obs = obs
        self.last = last

    def on_key(self, key: str, now: float) -> Submit[A] | Request | None:
        return None

    def draw(self, canvas: Canvas, now: float) -> None:
        raise NotImplementedError

    def frame_due(self, now: float) -> float | None:
        """Monotonic time of the next animation frame, or None."""
        return None

    def cursor(self) -> tuple[int, int] | None:
        """Where to leave the terminal cursor (region coordinates), or None."""
        return None

    def setup_loaded(self, name: str, text: str) -> Submit[A] | None:
        """A saved setup the caller asked for (DoorInfo.saved_setups)."""
        return None

    def configure(self, settings: Settings, specs: tuple[DoorSetting, ...]) -> None:
        """The sysop's settings for this door: each one with a
        ``ui_attribute`` is set on the UI (Stratego's strike reveal time)."""
        for spec in specs:
            if spec.ui_attribute is not None and spec.key in settings:
                setattr(self, spec.ui_attribute, settings[spec.key])


class Bot(Protocol[Obs_contra, A_co]):
    """A computer player of a door with observations ``Obs`` and actions
    ``A``. ``choose`` blocks (the server runs it in a worker process) and
    sees only ``state.observation(player)``."""

    def choose(self, observation: Obs_contra, player: Player) -> A_co: ...


class SplitBot(Protocol[Obs_contra, A_co]):
    """A computer player whose think splits into parts that run in workers
    side by side (a door with ``bot_parts`` above 1): ``choose_part`` gives
    share ``part`` of ``parts`` of the work, picklable, and ``merge`` (in a
    worker too, by a bot built from the same level and seed) the action
    from all the parts. Same level and seed, every part must agree on what
    it splits (the candidate moves)."""

    def choose_part(self, observation: Obs_contra, player: Player, part: int, parts: int) -> object: ...

    def merge(self, observation: Obs_contra, player: Player, parts: Sequence[Any]) -> A_co: ...


EditorResult: TypeAlias = Literal["saved", "cancel"] | None


class Editor(Protocol):
    """A door tool on the new-game screen (Kingdom's board editor): it gets
    every key and draws the whole 80x24 screen. ``on_key`` says "saved"
    (the server leaves the tool and shows ``message``), "cancel" (it
    leaves) or None (the tool stays)."""

    message: str

    def on_key(self, key: str) -> EditorResult: ...

    def draw(self, canvas: Canvas) -> None: ...


SettingValue: TypeAlias = bool | float | str
Settings: TypeAlias = Mapping[str, SettingValue]     # a door's checked settings, by key


@dataclasses.dataclass(frozen=True)
class DoorSetting:
    """A setting the sysop may change for a door, ``[<door key>] <key> =
    value`` in gatehouse.toml. Numbers are checked against ``low``..``high``
    (``low`` itself allowed when ``low_ok``)."""
    key: str
    default: SettingValue
    low: float | None = None
    high: float | None = None
    low_ok: bool = True
    ui_attribute: str | None = None    # set on every DoorUI of the door (DoorUI.configure)


@dataclasses.dataclass(frozen=True)
class PreparedTable:
    """Data a door builds once, in the background, before its strongest
    levels play at full strength (Awari's endgame table). The server runs
    ``python -m <module> <args>`` when ``is_ready()`` is false, at lower
    priority (``doors._core.table_build`` lowers it in-process), reads the
    build's progress from its stderr lines, and on failure logs the last
    stderr line as the reason. ``args`` may be a function, called at start.
    A table in the state directory comes from the door bound to its folder
    (``DoorInfo.state_folder``), which names the path."""
    title: str                                  # "Awari endgame table"
    is_ready: Callable[[], bool]
    module: str                                 # run as python -m module args...
    args: tuple[str, ...] | Callable[[], tuple[str, ...]] = ()
    progress: Callable[[str], float | None] = lambda line: None   # an output line -> 0..1
    enabled_by: str | None = None               # a bool DoorSetting that turns the build on

    def command(self) -> tuple[str, ...]:
        """``module`` and its arguments, as they are now."""
        return (self.module, *(self.args() if callable(self.args) else self.args))


@dataclasses.dataclass(frozen=True)
class TextCommand:
    """A move typed as a line (plain text: screen readers, terminals
    without ANSI): ``word`` and what follows it, given to the state's
    ``parse_action`` (``sow 3`` -> ``parse_action("3")``), or else the
    whole line (``place d4 M``, the record's own notation). With ``key``,
    the word alone presses that key on the door's own screen (``random``:
    the key that fills a setup at random); with ``typed`` too, the words
    after it are then typed on that screen, and ENTER if it still asks
    (``save mine``: the key that saves a setup, then its name)."""
    word: str                                  # "sow"
    usage: str                                 # "sow N"
    meaning: str                               # "sow hole N (1-6, as numbered on your row)"
    key: str = ""                              # the word alone stands for this key of the door's screen
    typed: bool = False                        # the words after it are typed after the key


@dataclasses.dataclass(frozen=True)
class Door(Generic[A, Obs]):
    """A door's registry entry: what the server reads, for a door whose
    actions are ``A`` and observations ``Obs``."""
    key: str                                   # "towers"
    title: str                                 # "Towers"
    blurb: str                                 # one line for the lobby
    state_class: type[GameState[A, Obs]]
    ui_class: type[DoorUI[A, Obs]]
    make_bot: Callable[[int, int | None], Bot[Obs, A]]  # (level, seed) -> Bot
    help_text: str
    options: tuple[OptionSpec, ...] = ()
    levels: tuple[int, int] = (1, 5)
    default_level: int = 3
    # the computer's fixed rating at each level, lowest level first, from the
    # door's measured ladder (Elo differences of each level against the one
    # below); empty: the server spreads the levels evenly
    anchors: tuple[float, ...] = ()
    # options whose choices change at run time (Kingdom's board files)
    options_factory: Callable[[], tuple[OptionSpec, ...]] | None = None
    # ----- capabilities: what the server offers this door ---------------
    # a door tool on the new-game screen (Kingdom's board editor): builds the
    # Editor for a caller's handle (None: the sysop)
    editor: Callable[[str | None], Editor] | None = None
    editor_title: str = "board editor"
    # offers "auto finish" (Request "auto_finish"): the computer ends the game
    auto_finish: bool = False
    # keeps named setups per caller (Requests "save_setup" / "load_setup")
    saved_setups: bool = False
    # the sysop's settings for this door (gatehouse.toml section [<key>])
    settings: tuple[DoorSetting, ...] = ()
    # data built in the background before the strongest levels (PreparedTable)
    tables: tuple[PreparedTable, ...] = ()
    # files of its own: the server hands the door its writable folder
    # (<state_dir>/<key>) and its checked [<key>] settings when it builds its
    # door table, and uses the door this returns: a copy whose capabilities
    # read and write there (Kingdom keeps saved boards there, Awari its
    # endgame table). Nothing is kept in module globals, so two servers in
    # one process keep their own. Read-only data ships as package data.
    state_folder: Callable[[Path, Settings], Door[A, Obs]] | None = None
    # builds the game from resolved options (default: state_class.from_options);
    # a door bound to its folder resolves what lives there (a saved board)
    state_factory: Callable[[Options], GameState[A, Obs]] | None = None
    # extra arguments its computer player gets (make_bot(level, seed, options)),
    # picklable: they travel to the worker processes (Awari's table file)
    bot_options: Mapping[str, str] = dataclasses.field(default_factory=dict)
    # worker processes one move of the computer may be spread over while no
    # other computer game waits (its bot is then a SplitBot)
    bot_parts: int = 1
    # moves typed as lines in plain text (a move's record text works too)
    text_commands: tuple[TextCommand, ...] = ()

    def setting_defaults(self) -> dict[str, SettingValue]:
        return {spec.key: spec.default for spec in self.settings}

    def specs(self) -> tuple[OptionSpec, ...]:
        """The options as they are now."""
        return self.options_factory() if self.options_factory else self.options

    def resolve_options(self, chosen: Options,
                        rng: random.Random | None = None) -> dict[str, Json]:
        """Defaults filled in, unknown keys dropped, "random" resolved."""
        rng = rng or random.Random()
        out: dict[str, Json] = {}
        for spec in self.specs():
            value = chosen.get(spec.key, spec.default)
            if value not in [v for v, _ in spec.choices]:
                value = spec.default
            if value == "random":
                value = rng.choice([v for v, _ in spec.choices if v != "random"])
            out[spec.key] = value
        return out

    def build_state(self, options: Options) -> GameState[A, Obs]:
        """The game for resolved ``options``."""
        if self.state_factory is not None:
            return self.state_factory(options)
        return self.state_class.from_options(options)

    def new_game(self, chosen: Options,
                 rng: random.Random | None = None) -> GameState[A, Obs]:
        return self.build_state(self.resolve_options(chosen, rng))


# The server's view of any door. It keeps doors of every kind side by side
# and passes each one only its own actions and observations (from its own
# state to its own screen and back), never looking inside them: to the
# server they are opaque, hence Any for both.
DoorInfo: TypeAlias = Door[Any, Any]
AnyState: TypeAlias = GameState[Any, Any]
AnyUI: TypeAlias = DoorUI[Any, Any]
