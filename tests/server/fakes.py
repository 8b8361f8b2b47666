"""Seats for service tests without sockets: what a session shows the
services (who, where, an inbox)."""
from __future__ import annotations

import dataclasses

from server.services.ids import NodeId
from server.services.nodes import LOBBY, NodeRegistry


@dataclasses.dataclass(eq=False)
class FakeSeat:
    node: NodeId
    handle: str
    location: str = LOBBY
    closed: bool = False
    is_sysop: bool = False
    inbox: list[object] = dataclasses.field(default_factory=list)
    flashes: list[str] = dataclasses.field(default_factory=list)

    def send(self, event: object) -> None:
        self.inbox.append(event)

    def flash(self, text: str) -> None:
        self.flashes.append(text)


def seat(nodes: NodeRegistry[FakeSeat], handle: str, **kw: object) -> FakeSeat:
    return nodes.admit("127.0.0.1", lambda node: FakeSeat(node, handle, **kw))  # type: ignore[arg-type]
