"""``gatehouse sysop``: the thin local client of the sysop console.

Connects to the server's Unix socket, sends one JSON line with the terminal
type and size, then pipes raw key bytes to the server and the server's
screen to this terminal until either side closes. The local terminal is
handled with blessed: full screen, raw mode (so CTRL-S, CTRL-Q and CTRL-C
reach the server), and SIGWINCH becomes the RLogin window-size message.
"""
from __future__ import annotations

import errno
import json
import os
import re
import selectors
import signal
import socket
import sys

from server.net.rlogin import WindowSize, window_message

__all__ = ["main", "connect", "goodbye_in"]

# The server's last words to a console (a DCS string: a terminal ignores it),
# printed after the full screen is left: the reason the console closed.
_GOODBYE = re.compile(rb"\x1bPgatehouse-goodbye;(.*?)\x1b\\", re.S)


def goodbye_in(data: bytes) -> str:
    """The server's goodbye line in ``data`` ("" if none), as printable text."""
    found = _GOODBYE.search(data)
    text = found.group(1).decode("utf-8", "replace") if found else ""
    return "".join(c for c in text if c.isprintable())[:200]


def connect(socket_path: str) -> tuple[socket.socket | None, str]:
    """The connected socket, or None and why not (for a person to read)."""
    socket_path = os.path.abspath(socket_path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(socket_path)
        return sock, ""
    except FileNotFoundError:
        why = (f"no sysop socket at {socket_path}: is the server running "
               "(gatehouse serve), with the same configuration? The path is the [sysop] socket "
               "setting of gatehouse.toml, or --socket.")
    except ConnectionRefusedError:
        why = f"nothing answers on {socket_path}: the server is not running."
    except PermissionError:
        why = (f"permission denied on {socket_path}: run this as the user the server "
               "runs as (e.g. sudo -u gatehouse gatehouse sysop ...).")
    except OSError as exc:
        why = f"cannot connect to {socket_path}: {exc.strerror or exc}"
    sock.close()
    return None, why


def _write_all(fd: int, data: bytes) -> None:
    while data:
        try:
            n = os.write(fd, data)
        except InterruptedError:
            continue
        except BlockingIOError:
            selectors.DefaultSelector().select(0.05)
            continue
        data = data[n:]


def main(socket_path: str) -> int:
    sock, why = connect(socket_path)
    if sock is None:
        print(f"gatehouse sysop: {why}", file=sys.stderr)
        return 1
    from blessed import Terminal
    term = Terminal()
    if not term.is_a_tty:
        print("gatehouse sysop: the console needs a terminal.", file=sys.stderr)
        sock.close()
        return 1
    header = {"term": os.environ.get("TERM") or "xterm", "cols": term.width, "rows": term.height}
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    resized = False
    tail = b""                      # the last bytes from the server (its goodbye)

    def on_winch(signum: int, frame: object) -> None:
        nonlocal resized
        resized = True
        try:
            os.write(wake_w, b"w")
        except OSError:
            pass

    old_winch = signal.signal(signal.SIGWINCH, on_winch)
    sel = selectors.DefaultSelector()
    try:
        sock.sendall(json.dumps(header).encode() + b"\n")
        with term.fullscreen(), term.raw():
            sel.register(sock, selectors.EVENT_READ, "server")
            sel.register(stdin, selectors.EVENT_READ, "keys")
            sel.register(wake_r, selectors.EVENT_READ, "winch")
            running = True
            while running:
                for key, _ in sel.select():
                    if key.data == "server":
                        data = sock.recv(65536)
                        if not data:
                            running = False
                            break
                        tail = (tail + data)[-4096:]
                        _write_all(stdout, _GOODBYE.sub(b"", data))
                    elif key.data == "keys":
                        data = os.read(stdin, 4096)
                        if not data:
                            running = False
                            break
                        sock.sendall(data)
                    else:
                        os.read(wake_r, 64)
                        if resized:
                            resized = False
                            sock.sendall(window_message(WindowSize(term.height, term.width, 0, 0)))
            _write_all(stdout, (term.normal + term.normal_cursor).encode())
    except OSError as exc:
        if exc.errno not in (errno.EPIPE, errno.ECONNRESET):
            print(f"gatehouse sysop: {exc}", file=sys.stderr)
            return 1
    finally:
        signal.signal(signal.SIGWINCH, old_winch)
        sel.close()
        sock.close()
        os.close(wake_r)
        os.close(wake_w)
    why = goodbye_in(tail)
    print(f"Sysop console closed: {why}" if why else "Sysop console closed.")
    return 0
