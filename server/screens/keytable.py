"""One table of keys per screen: each key is declared once, with the text
its key line shows, its line on the ``?`` page and the states in which it
applies. The key line, the help page and the dispatch all read the table,
so a hint never names a key that does nothing in the state shown."""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

__all__ = ["KeySpec", "KeyTable"]

S = TypeVar("S", bound=enum.Enum)


@dataclasses.dataclass(frozen=True)
class KeySpec(Generic[S]):
    """``keys``: the keys that do it (the first is the one named);
    ``hint``: the key line's words ("" keeps it off the key line);
    ``help``: the ``?`` page's line; ``states``: where it applies;
    ``action``: the screen's method name that does it; ``when``: a further
    test on the screen (the sysop's keys), by name of a screen property."""
    keys: tuple[str, ...]
    hint: str
    help: str
    states: frozenset[S]
    action: str
    when: str | None = None
    label: str | None = None        # the key's name on the ? page, when not keys[0]
    spare: bool = False             # left off the key line first when it is too long (still on ?)


class KeyTable(Generic[S]):
    def __init__(self, specs: Sequence[KeySpec[S]]):
        self.specs = tuple(specs)
        # (the hints that apply, width) -> the key line: every lobby redraws its
        # key line each minute, most with the same hints
        self._lines: dict[tuple[tuple[int, ...], int], str] = {}

    def _applies(self, spec: KeySpec[S], state: S, test: Callable[[str], bool]) -> bool:
        return state in spec.states and (spec.when is None or test(spec.when))

    def find(self, key: str, state: S, test: Callable[[str], bool]) -> KeySpec[S] | None:
        """The entry ``key`` does in ``state``, or None."""
        return next((spec for spec in self.specs
                     if key in spec.keys and self._applies(spec, state, test)), None)

    def hints(self, state: S, test: Callable[[str], bool]) -> list[str]:
        """The key line's parts for ``state``, in the table's order."""
        return [spec.hint for spec in self.specs if spec.hint and self._applies(spec, state, test)]

    def line(self, state: S, test: Callable[[str], bool], width: int) -> str:
        """The key line in ``width`` columns, two spaces apart: the spare
        hints left off first (last first), then the line's tail."""
        shown = tuple(i for i, spec in enumerate(self.specs) if spec.hint and self._applies(spec, state, test))
        found = self._lines.get((shown, width))
        if found is None:
            if len(self._lines) > 1024:        # (never grows without bound)
                self._lines.clear()
            found = self._lines[shown, width] = self._line([self.specs[i] for i in shown], width)
        return found

    @staticmethod
    def _line(specs: list[KeySpec[S]], width: int) -> str:
        while len("  ".join(spec.hint for spec in specs)) > width and any(s.spare for s in specs):
            specs.remove([s for s in specs if s.spare][-1])
        out = ""
        for spec in specs:
            nxt = f"{out}  {spec.hint}" if out else spec.hint
            if len(nxt) > width:
                break
            out = nxt
        return out

    def help_lines(self, states: Iterable[S], test: Callable[[str], bool]) -> list[str]:
        """The ``?`` page's lines for the keys that apply in any of ``states``."""
        wanted = set(states)
        out = []
        for spec in self.specs:
            if spec.help and wanted & spec.states and (spec.when is None or test(spec.when)):
                name = spec.label or spec.keys[0]
                out.append(f"  {name:<10} {spec.help}")
        return out

    def named_keys(self, state: S, test: Callable[[str], bool]) -> set[str]:
        """Every key that does something in ``state`` (for the tour test)."""
        return {key for spec in self.specs if self._applies(spec, state, test) for key in spec.keys}
