"""A game in plain text (screen readers, terminals without ANSI): the
caller types a line and presses ENTER. A door's own words
(``DoorInfo.text_commands``: ``sow 3``) and a move's record text are
moves; ``help``, ``say TEXT``, ``draw``, ``resign``, ``board`` and
``lobby`` are the server's. The board is printed after each move by the
plain renderer (the lines that changed)."""
from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Protocol

from ansi import keys as K
from ansi.widgets import LineInput
from doors._core.game import IllegalAction, InvalidNotation
from server.screens.pager import PagerScreen
from server.screens.session import Push, Transition

if TYPE_CHECKING:
    from server.screens.session import Session
    from server.services.match import Match

__all__ = ["PlainCommands"]

SERVER_WORDS = (("say TEXT", "say TEXT to the other player and watchers"),
                ("draw", "offer a draw (or accept one)"),
                ("resign", "give up this game (asks first)"),
                ("board", "print the whole screen again"),
                ("lobby", "back to the lobby, when the game is over or waits"),
                ("help", "this list"))


class GameScreen(Protocol):
    """What the typed line needs of the game screen."""
    session: Session
    match: Match
    me: int | None
    banner: str
    confirm: str | None

    def leave_if_free(self) -> Transition: ...

    async def to_door(self, key: str) -> Transition: ...

    @property
    def door_asks(self) -> bool: ...


class PlainCommands:
    """The typed line of a game screen in plain text."""

    def __init__(self, screen: GameScreen):
        self.screen = screen
        self.line = LineInput(70)

    def help_text(self) -> str:
        info = self.screen.match.info
        rows = [(c.usage, c.meaning) for c in info.text_commands]
        rows.append(("a move as the record writes it", "as `gatehouse games` and replays show"))
        lines = [f"Type a command and press ENTER ({info.title}):", ""]
        for usage, meaning in rows + list(SERVER_WORDS):     # the meaning wrapped under itself
            said = textwrap.wrap(meaning, 78 - 35) or [""]
            lines += [f"  {usage:<32} {said[0]}", *(" " * 35 + more for more in said[1:])]
        return "\n".join(lines) + "\f" + info.help_text

    async def on_key(self, key: str) -> Transition:
        if key == K.CTRL_L:
            self.screen.session.terminal.redraw()
            return None
        text = self.line.handle(key)
        if self.line.cancelled:
            return self.screen.leave_if_free()
        if text is None:
            return None
        return await self.run(" ".join(text.split()))

    async def run(self, line: str) -> Transition:
        screen, match = self.screen, self.screen.match
        word, _, rest = line.partition(" ")
        word = word.casefold()
        if not line:
            return screen.leave_if_free()
        if word in ("help", "?"):
            return Push(PagerScreen(screen.session, self.help_text(), f"{match.info.title} commands"))
        if word in ("say", "chat") and rest:
            reason = await match.post_chat(screen.me, screen.session.handle, rest,
                                           screen.session.own_address)
            screen.banner = reason or ""
            return None
        if word == "board":
            screen.session.terminal.redraw()
            return None
        if word in ("lobby", "quit", "leave"):
            return screen.leave_if_free() or self._say("The game is on: type resign to give up.")
        if match.ended:
            return self._say("This game is over: type lobby (or press ENTER) to leave.")
        if screen.me is None:
            if match.hears_watcher(screen.session.is_sysop):
                return self._say("You are watching: say TEXT to chat, lobby to leave.")
            return self._say("You are watching: type lobby (or press ENTER) to leave.")
        if word == "draw":
            screen.banner = await match.offer_draw(screen.me)
            return None
        if word == "resign":
            screen.confirm = "resign"
            return None
        command = next((c for c in match.info.text_commands if c.word == word), None)
        if command is not None and command.key and not rest:
            return await screen.to_door(command.key)     # "random": the door's own key for it
        if command is not None and command.key and command.typed:
            transition = await screen.to_door(command.key)     # "save mine": W, then the name
            for key in rest:
                transition = await screen.to_door(key) or transition
            if screen.door_asks:
                transition = await screen.to_door(K.ENTER) or transition
            return transition
        tries = [rest, line] if command is not None else [line]
        for notation in tries:               # "sow 3" -> "3"; "place d4 M" as it stands
            try:
                action = match.state.parse_action(notation)
                break
            except (InvalidNotation, IllegalAction, ValueError):
                continue
        else:
            usage = command.usage if command else " or ".join(c.usage for c in match.info.text_commands)
            return self._say(f"Not a move: {line!r}. Type {usage or 'a move'}, or help.")
        reason = await match.submit(screen.me, action)
        if reason is not None:
            return self._say(reason)
        return None

    def _say(self, text: str) -> Transition:
        self.screen.banner = text
        return None
