"""Door mode honours the caller's time on their BBS (DOOR32.SYS line 9,
minutes left, counted from the door's start): a notice at 5 and at 1
minute, the game screen's status shows the time left under 10 minutes, and
at 0 "Your time on the BBS is up" and back to the BBS as after `g`; a live
game is suspended as after a dropped line and resumes at the next call.
A minute is shortened to a few seconds here ([timing] minute_seconds)."""
import asyncio
import socket
import time

import pyte

from ansi.cp437 import decode_cp437
from server.net.door32 import parse_door32
from server.net.door_bridge import run_door

from .harness import door_digit, start_app, wait_until

DROP = "2\n{handle}\n38400\nVertrauen BBS\n42\nReal Name\n{alias}\n50\n{minutes}\n{emulation}\n3\n"


class TimedCaller:
    """A BBS caller through door mode with ``minutes`` left on the BBS
    (``emulation``: DOOR32.SYS line 10, 0 for ASCII)."""

    def __init__(self, app, alias: str, minutes: int, emulation: int = 1):
        self.app, self.alias, self.minutes, self.emulation = app, alias, minutes, emulation
        self.raw = bytearray()
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)

    async def start(self) -> "TimedCaller":
        bbs_side, caller_side = socket.socketpair()
        drop = parse_door32(DROP.format(handle=bbs_side.fileno(), alias=self.alias, minutes=self.minutes,
                                         emulation=self.emulation))
        door_reader, door_writer = await asyncio.open_connection(sock=bbs_side)
        reader, self.writer = await asyncio.open_connection(sock=caller_side)
        self.door = asyncio.create_task(run_door(drop, "127.0.0.1", self.app.rlogin_port,
                                                 door_reader, door_writer, tag="VRT"))
        self.pump = asyncio.create_task(self._pump(reader))
        return self

    async def _pump(self, reader) -> None:
        while data := await reader.read(4096):
            self.raw += data
            self.stream.feed(decode_cp437(data))

    def seen(self) -> str:
        return decode_cp437(bytes(self.raw))

    async def expect(self, text: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while text not in "\n".join(self.screen.display):
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared:\n" + "\n".join(self.screen.display))
            await asyncio.sleep(0.02)
        return "\n".join(self.screen.display)

    def send(self, keys: str) -> None:
        self.writer.write(keys.encode())


async def test_one_minute_left_ends_the_call_and_the_game_resumes_next_call(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"},
                          timing={"minute_seconds": 20.0})
    try:
        ada = await TimedCaller(app, "Ada", minutes=1).start()
        started = time.monotonic()
        await ada.expect("Who's online")
        await ada.expect("You have 1 minute left on the BBS.")
        ada.send("p")
        await ada.expect("Choose a door")
        ada.send(door_digit("Awari"))
        await ada.expect("choose your opponent")
        ada.send("1")
        await ada.expect("options")
        ada.send("\r")
        text = await ada.expect("Time left 0:")          # the game's status line
        assert "Awari" in text or "Your move" in text
        assert await asyncio.wait_for(ada.door, 90) == 0   # back to the BBS, as after `g`
        assert time.monotonic() - started < 90
        await wait_until(lambda: "Returning to Vertrauen BBS" in ada.seen(), what="the way back")
        assert "Your time on the BBS is up" in ada.seen()
        ada.writer.close()
        again = await TimedCaller(app, "Ada", minutes=30).start()
        await again.expect("unfinished game of Awari")
        again.send("y")
        text = await again.expect("Computer")
        assert "Time left" not in text                    # 30 minutes: no clock shown
        again.writer.close()
        await asyncio.wait_for(again.door, 30)
    finally:
        await app.stop()
