"""Door mode: ``gatehouse door PATH/DOOR32.SYS``, run by a BBS for one caller.

Reads the drop file, takes over the caller's connection (comm type 2: the
inherited telnet socket handle; comm type 0: stdin/stdout) and bridges it
to the running Gatehouse server over RLogin (client-user = BBS tag or name,
server-user = caller's handle), piping bytes both ways until either closes.

On a telnet socket the door owns the telnet protocol: caller input has IAC
commands stripped by telnetlib3's own interpreter (``net.telnet.TelnetInputFilter``;
a NAWS report becomes an RLogin window-size message) and 0xFF going to the
caller is doubled.  The inherited socket is only closed,
never shut down, so the BBS keeps its own copy of the connection.

The caller's charset is the door's to say, not the caller's saved choice:
a BBS that runs a door over stdio (ENiGMA½'s abracadabra) decodes the
door's output as CP437, so UTF-8 would arrive double-encoded. The door
sends it as the RLogin terminal type (``ansi-bbs`` = CP437, ``ansi-utf8``
= UTF-8), and the server locks a BBS caller's session to it.  DOOR32.SYS
has no UTF-8 emulation, so the default is CP437; ``--charset`` or
``[door] charset`` overrides it.

Under ``--stdio`` on a pseudo-terminal (ENiGMA½ runs doors in one of the
caller's size) the size is read from the terminal (TIOCGWINSZ) and sent
as an RLogin window-size message, again on every SIGWINCH.

Exit status: 0 normal, 1 drop file / setup error, 2 server unreachable or refused.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import selectors
import socket
import sys
from collections.abc import Iterator

from server.net.door32 import (
    COMM_LOCAL,
    COMM_SERIAL,
    COMM_TELNET,
    DropFile,
    DropFileError,
    load_door32,
    peek_comm,
    read_text,
)
from server.net.pty_window import PtyWindow
from server.net.rlogin import (
    QUOTED,
    REFUSAL,
    WindowSize,
    alias_field,
    build_handshake,
    normalize_tag,
    window_message,
)
from server.net.telnet import TelnetInputFilter as TelnetFilter

log = logging.getLogger("gatehouse.door")

EXIT_OK, EXIT_SETUP, EXIT_SERVER = 0, 1, 2
DEFAULT_SPEED = 38400
MAX_SPEED = 999_999_999       # the most digits the RLogin terminal field takes
MAX_MINUTES = 999_999         # the most the server reads (six digits)
CHUNK = 4096


CHARSETS = ("cp437", "utf8")
_TERMINALS = {"cp437": "ansi-bbs", "utf8": "ansi-utf8"}
_PLAIN_TERMINALS = {"cp437": "dumb-bbs", "utf8": "dumb-utf8"}


def charset_for(drop: DropFile, wanted: str | None = None) -> str:
    """The caller's charset: ``wanted`` (flag or setting) if given, else
    CP437, the only one a DOOR32.SYS emulation (ASCII, ANSI, AVATAR, RIP) means."""
    if wanted:
        if wanted not in CHARSETS:
            raise ValueError(f"charset must be one of {CHARSETS}, got {wanted!r}")
        return wanted
    del drop  # every DOOR32.SYS emulation is a CP437 one
    return "cp437"


def terminal_for(drop: DropFile, charset: str = "cp437", time_left: bool = False) -> str:
    """RLogin terminal/speed naming the locked charset: ``ansi-bbs/38400`` (CP437)
    or ``ansi-utf8/38400``; ``time_left``: with the caller's minutes left on
    the BBS (``ansi-bbs;minutes=12/38400``), which the server counts down
    (0 or fewer, as some BBSes write for the sysop, is sent as no limit)."""
    minutes = (f";minutes={min(drop.minutes_left, MAX_MINUTES)}"
               if time_left and drop.minutes_left > 0 else "")
    # emulation 0: ASCII, no ANSI; the charset still says what the caller's 8-bit keys are
    term = _PLAIN_TERMINALS[charset] if drop.emulation == 0 else _TERMINALS[charset]
    speed = drop.baud if 0 < drop.baud <= MAX_SPEED else DEFAULT_SPEED    # (a speed is only told)
    return f"{term}{minutes}/{speed}"


def client_user_for(drop: DropFile, tag: str | None, secret: str | None = None) -> str:
    """RLogin client-user: the shared secret (``rlogin.secrets``) if one is
    required, else the configured BBS tag, else the BBS name from the drop file."""
    return secret or normalize_tag(tag) or drop.bbs_name or "BBS"


def handshake_for(drop: DropFile, tag: str | None, secret: str | None, charset: str,
                  time_left: bool, name_field: str = "server_user") -> bytes:
    """The RLogin handshake for the drop file's caller: the alias quoted (and
    the terminal field says so) in the field ``name_field`` names, the tag or
    secret in the other."""
    fields = (client_user_for(drop, tag, secret), alias_field(drop.caller_name))
    if name_field == "client_user":
        fields = (fields[1], fields[0])
    term, _, speed = terminal_for(drop, charset, time_left).rpartition("/")
    return build_handshake(*fields, f"{term};{QUOTED}/{speed}")


async def _say(writer: asyncio.StreamWriter, text: str) -> None:
    """Write plain ASCII text (CP437-safe) to the caller, with no control
    character but CR and LF (a BBS name from the drop file is shown as
    text, never obeyed); ignore a gone caller."""
    text = "".join(c for c in text if c in "\r\n" or " " <= c <= "~" or c > "\x9f")
    try:
        writer.write(text.encode("ascii", "replace"))
        await writer.drain()
    except (ConnectionError, OSError):
        pass


async def run_door(drop: DropFile, host: str, port: int,
                   caller_reader: asyncio.StreamReader, caller_writer: asyncio.StreamWriter,
                   *, tag: str | None = None, timeout: float = 10.0,
                   telnet: bool | None = None, secret: str | None = None,
                   charset: str = "cp437", window: PtyWindow | None = None,
                   time_left: bool = True, name_field: str = "server_user") -> int:
    """Bridge one caller to the Gatehouse RLogin port; returns the exit status.

    ``telnet`` defaults to True for comm type 2 (telnet escaping on the caller side).
    ``window`` (a pseudo-terminal's size) is sent after the handshake and on each change.
    ``time_left``: the server ends the call when the drop file's minutes left run out.
    ``name_field``: the server's ``rlogin.name_field``, the handshake field the
    caller's alias goes in (the tag or secret goes in the other).
    The caller's writer is left open for the caller of this function to close.
    """
    telnet = drop.comm_type == COMM_TELNET if telnet is None else telnet
    try:
        async with asyncio.timeout(timeout):
            srv_reader, srv_writer = await asyncio.open_connection(host, port)
    except (OSError, TimeoutError) as exc:
        log.warning("door: cannot reach Gatehouse at %s:%s: %s", host, port, exc or "timed out")
        await _say(caller_writer, "\r\nSorry, the Gatehouse game server is not reachable right now"
                                  f" ({host}:{port}).\r\nPlease try again later.\r\n")
        return EXIT_SERVER
    try:
        srv_writer.write(handshake_for(drop, tag, secret, charset, time_left, name_field))
        await srv_writer.drain()
        async with asyncio.timeout(timeout):
            ack = await srv_reader.read(1)
        if ack != b"\0":
            await _refused(ack, srv_reader, caller_writer, host, port)
            return EXIT_SERVER
        log.info("door: %s (node %d) connected to %s:%s", drop.caller_name, drop.node, host, port)
        if window is not None:
            window.watch(lambda size: srv_writer.write(window_message(size)))
        try:
            server_closed = await _pipe(caller_reader, caller_writer, srv_reader, srv_writer, telnet)
        except _Refused as refusal:
            await _refused(refusal.words, srv_reader, caller_writer, host, port)
            return EXIT_SERVER
    except (OSError, TimeoutError) as exc:
        log.warning("door: RLogin handshake with %s:%s failed: %s", host, port, exc or "timed out")
        await _say(caller_writer, "\r\nSorry, the Gatehouse game server did not answer.\r\n"
                                  "Please try again later.\r\n")
        return EXIT_SERVER
    finally:
        if window is not None:
            window.close()
        srv_writer.close()
        with contextlib.suppress(OSError):
            await srv_writer.wait_closed()
    if server_closed:
        await _say(caller_writer, f"\r\nReturning to {drop.bbs_name or 'the BBS'}...\r\n")
    return EXIT_OK


class _Refused(Exception):
    """The server accepted the handshake, then refused the caller (a
    reserved name, a wrong secret): ``REFUSAL`` and a reason follow the NUL."""

    def __init__(self, words: bytes):
        super().__init__()
        self.words = words


async def _refused(first: bytes, srv_reader: asyncio.StreamReader,
                   caller_writer: asyncio.StreamWriter, host: str, port: int) -> None:
    reason = first
    with contextlib.suppress(OSError, TimeoutError):
        async with asyncio.timeout(1):
            while first and len(reason) < 200 and (more := await srv_reader.read(200)):
                reason += more
    reason = reason.removeprefix(REFUSAL)
    text = "".join(c for c in reason.decode("ascii", "replace") if " " <= c <= "~")[:200].strip()
    log.warning("door: Gatehouse at %s:%s refused the RLogin connection: %s", host, port,
                text or "closed without a reply")
    detail = f": {text}" if text else " (is this BBS on its RLogin allow list?)"
    await _say(caller_writer, f"\r\nSorry, the Gatehouse game server refused the connection{detail}\r\n")


async def _pipe(caller_reader: asyncio.StreamReader, caller_writer: asyncio.StreamWriter,
                srv_reader: asyncio.StreamReader, srv_writer: asyncio.StreamWriter,
                telnet: bool) -> bool:
    """Copy both ways until one side closes; True if the server side ended
    first. _Refused if the server's first words refuse the caller."""
    tfilter = TelnetFilter() if telnet else None

    async def up() -> None:
        while data := await caller_reader.read(CHUNK):
            if tfilter:
                data, naws = tfilter.feed(data)
                if naws:
                    cols, rows = naws
                    srv_writer.write(window_message(WindowSize(rows, cols, 0, 0)))
            if data:
                srv_writer.write(data)
            await srv_writer.drain()

    async def down() -> None:
        data = await srv_reader.read(CHUNK)
        while data and len(data) < len(REFUSAL) and REFUSAL.startswith(data):
            data += (more := await srv_reader.read(CHUNK))
            if not more:
                break
        if data.startswith(REFUSAL):
            raise _Refused(data)
        while data:
            caller_writer.write(data.replace(b"\xff", b"\xff\xff") if telnet else data)
            await caller_writer.drain()
            data = await srv_reader.read(CHUNK)

    up_task, down_task = asyncio.ensure_future(up()), asyncio.ensure_future(down())
    done, pending = await asyncio.wait({up_task, down_task}, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    for task in pending | done:
        with contextlib.suppress(asyncio.CancelledError, ConnectionError, OSError, _Refused):
            await task
    refusal = down_task.exception() if down_task in done and not down_task.cancelled() else None
    if isinstance(refusal, _Refused):
        raise refusal
    return down_task in done and up_task not in done


# --- the sync entry point ----------------------------------------------------

def main(path: str, host: str = "127.0.0.1", port: int = 2513, *, tag: str | None = None,
         max_age_minutes: float | None = None, stdio: bool = False,
         secret: str | None = None, charset: str | None = None, time_left: bool = True,
         name_field: str = "server_user") -> int:
    """Run door mode for one caller; returns the process exit status.

    ``stdio=True`` forces stdin/stdout whatever the drop file's comm type
    (for BBSes such as ENiGMA½ that cannot hand over a socket).
    """
    try:
        drop = load_door32(path, max_age_minutes, stdio=stdio)
    except DropFileError as exc:
        _report_drop_error(path, exc, stdio)
        return EXIT_SETUP
    if drop.comm_type == COMM_SERIAL and not stdio:
        print(f"gatehouse door: {path}: serial connections (comm type 1) are not supported;"
              " set the door up for a socket or stdio", file=sys.stderr)
        return EXIT_SETUP
    if stdio or drop.comm_type == COMM_LOCAL:
        problem = stdio_problem()
        if problem:
            print(f"gatehouse door: {problem}", file=sys.stderr)
            return EXIT_SETUP
    return asyncio.run(_main(drop, host, port, tag, stdio, secret, charset_for(drop, charset),
                             time_left, name_field))


def stdio_problem(stdin: int = 0, stdout: int = 1) -> str | None:
    """Why stdin/stdout cannot carry a caller (``/dev/null``, a plain file,
    closed), or None: both must be a terminal, pipe or socket the event loop can wait on."""
    for fd, name, event in ((stdin, "standard input", selectors.EVENT_READ),
                            (stdout, "standard output", selectors.EVENT_WRITE)):
        try:
            target = os.ttyname(fd) if os.isatty(fd) else os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            target = f"descriptor {fd}"
        with selectors.DefaultSelector() as sel:
            try:
                sel.register(fd, event)
            except (OSError, ValueError):
                return (f"--stdio needs the caller on {name}, but it is {target}, "
                        "not a terminal, pipe or socket")
    return None


def _report_drop_error(path: str, exc: DropFileError, stdio: bool) -> None:
    """The full reason (with the path) to stderr, the BBS's log; a plain
    sentence to the caller's screen where it can be found."""
    print(f"gatehouse door: {exc}", file=sys.stderr)
    text = (f"\r\nSorry, this game cannot start: {exc.caller_text}\r\n"
            "Please tell the sysop.\r\n").encode("ascii", "replace")
    comm = None
    with contextlib.suppress(DropFileError):
        comm = peek_comm(read_text(path))
    if not stdio and comm and comm[0] == COMM_TELNET and comm[1] >= 0:
        try:
            with socket.socket(fileno=os.dup(comm[1])) as sock:
                sock.settimeout(5)
                sock.sendall(text)
            return
        except OSError:
            pass
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.buffer.write(text)
        sys.stdout.buffer.flush()


async def _main(drop: DropFile, host: str, port: int, tag: str | None, stdio: bool,
                secret: str | None = None, charset: str = "cp437", time_left: bool = True,
                name_field: str = "server_user") -> int:
    if stdio or drop.comm_type == COMM_LOCAL:
        return await _run_stdio(drop, host, port, tag, secret, charset, time_left, name_field)
    handle = drop.comm_handle
    try:
        was_blocking = os.get_blocking(handle)
        sock = socket.socket(fileno=os.dup(handle))
    except OSError as exc:
        print(f"gatehouse door: comm handle {handle} is not an open socket: {exc}",
              file=sys.stderr)
        return EXIT_SETUP
    try:
        reader, writer = await asyncio.open_connection(sock=sock)
        try:
            return await run_door(drop, host, port, reader, writer, tag=tag, secret=secret,
                                  charset=charset, time_left=time_left, name_field=name_field)
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
    finally:
        # O_NONBLOCK lives on the shared open file: give the BBS its mode back.
        with contextlib.suppress(OSError):
            os.set_blocking(handle, was_blocking)
            os.close(handle)


async def _run_stdio(drop: DropFile, host: str, port: int, tag: str | None,
                     secret: str | None = None, charset: str = "cp437",
                     time_left: bool = True, name_field: str = "server_user") -> int:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
        transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin,
                                                            sys.stdout.buffer)
    except (ValueError, OSError) as exc:
        print(f"gatehouse door: stdin/stdout must be a pipe, socket or terminal: {exc}",
              file=sys.stderr)
        return EXIT_SETUP
    writer = asyncio.StreamWriter(transport, protocol, reader, loop)
    fd = sys.stdin.fileno()
    window = PtyWindow.open(fd, loop)
    with _raw_tty(fd):
        return await run_door(drop, host, port, reader, writer, tag=tag, telnet=False,
                              secret=secret, charset=charset, window=window, time_left=time_left,
                              name_field=name_field)


@contextlib.contextmanager
def _raw_tty(fd: int) -> Iterator[None]:
    """Put a terminal stdin into raw mode for the session (no-op for pipes)."""
    if not os.isatty(fd):
        yield
        return
    import termios
    import tty
    saved = termios.tcgetattr(fd)
    try:
        tty.setraw(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
