#!/usr/bin/env python3
"""Prove deploy/enigma-menu.hjson.example against a real ENiGMA½.

    .venv/bin/python scripts/enigma_proof.py PATH/TO/enigma-bbs [--override NAME=SPEC ...]

PATH is an ENiGMA½ git repository or checkout (e.g. what the `fetch` tool
brings: /work/.mirror/NuSkooler+enigma-bbs/repo). Everything is built in a
temporary folder outside the project, which is removed at the end (unless
--keep):

1. clone PATH there, `npm install --omit=dev --ignore-scripts`, then build
   the native modules ENiGMA needs (better-sqlite3, node-pty, sharp; sharp
   wants the system's libvips: `apt-get install libvips-dev`);
2. write a minimal board: config.hjson (telnet on a loopback port only),
   the stock menu templates (as `oputil.js config new` copies them), the
   Gatehouse door menu taken from deploy/enigma-menu.hjson.example with
   only its paths changed, and a `GATEHOUSE` command on the doors menu that
   opens it; create one ENiGMA½ user through ENiGMA½'s own User API;
3. start Gatehouse (telnet + RLogin on loopback, tag PRF) and ENiGMA½;
4. a telnet caller (telnetlib3, read through pyte) logs in to ENiGMA½,
   opens the doors menu, types GATEHOUSE, lands in Gatehouse's lobby as
   [PRF]<name>, presses g, and is back at ENiGMA½'s doors menu.

It prints each step and the screen it saw, and exits 0 only if all of it
happened. Not part of `make test` (it needs npm and takes minutes).

--override NAME=SPEC rewrites a dependency (root and transitive, through
npm's "overrides") before installing, and --local NAME=PATH installs one
from a git repository: for a registry that lacks a version the lock file
names. What this machine's registry needed (2026-11-24):

    .venv/bin/python scripts/enigma_proof.py /work/.mirror/NuSkooler+enigma-bbs/repo \
        --local telnet-socket=/work/.mirror/NuSkooler+telnet-socket/repo \
        --local buffers=/work/.mirror/NuSkooler+node-buffers/repo \
        --override fatfs-volume-driver=0.0.4
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyte
import telnetlib3

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ansi.cp437 import decode_cp437  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "deploy" / "enigma-menu.hjson.example"
USER, PASSWORD = "proofcaller", "Pr00f-caller-pw"
BOARD = "Gatehouse Proof BBS"
TAG = "PRF"
NATIVE = ("better-sqlite3", "node-pty", "sharp")
COLS, ROWS = 100, 30     # not 80x24: the door must draw at the caller's size


def step(text: str) -> None:
    print(f"\n== {text}", flush=True)


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 1200) -> None:
    print("$ " + " ".join(cmd), flush=True)
    result = subprocess.run(cmd, cwd=cwd, env=env, timeout=timeout, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stdout.write(result.stdout[-4000:] + result.stderr[-4000:])
        raise SystemExit(f"failed ({result.returncode}): {' '.join(cmd)}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- 1. ENiGMA½ built in a temporary folder ---------------------------------

def local_copies(work: Path, locals_: list[str]) -> list[str]:
    """``NAME=PATH`` (a git repository or a folder) -> ``NAME=file:<copy>``."""
    out = []
    for entry in locals_:
        name, _, path = entry.partition("=")
        dest = work / "deps" / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        step(f"local package {name} from {path}")
        run(["git", "clone", "--quiet", path, str(dest)], cwd=work)
        out.append(f"{name}=file:{dest}")
    specs = dict(entry.partition("=")[::2] for entry in out)
    for entry in out:                    # local packages use each other's copies too
        package_json = Path(entry.partition("=file:")[2]) / "package.json"
        package = json.loads(package_json.read_text())
        for name in package.get("dependencies", {}):
            if name in specs:
                package["dependencies"][name] = specs[name]
        package_json.write_text(json.dumps(package, indent=2))
    return out


def build(source: Path, work: Path, overrides: list[str]) -> Path:
    enigma = work / "enigma-bbs"
    step(f"clone {source} -> {enigma}")
    run(["git", "clone", "--quiet", str(source), str(enigma)], cwd=work)
    package = json.loads((enigma / "package.json").read_text())
    if overrides:
        package.setdefault("overrides", {})
        for entry in overrides:
            name, _, spec = entry.partition("=")
            if name in package["dependencies"]:
                package["dependencies"][name] = spec
            package["overrides"][name] = spec
        (enigma / "package.json").write_text(json.dumps(package, indent=4))
        print("overrides:", package["overrides"])
        lock_path = enigma / "package-lock.json"       # let npm resolve those afresh
        lock = json.loads(lock_path.read_text())
        names = {entry.partition("=")[0] for entry in overrides}
        lock["packages"] = {key: value for key, value in lock.get("packages", {}).items()
                            if key.rpartition("node_modules/")[2] not in names}
        lock_path.write_text(json.dumps(lock, indent=4))
    env = dict(os.environ)
    if Path("/usr/include/node/node.h").exists():
        env["npm_config_nodedir"] = "/usr"      # node-gyp: headers from the system, no download
    step("npm install (ENiGMA½'s own packages, from the npm registry)")
    run(["npm", "install", "--omit=dev", "--no-audit", "--no-fund", "--ignore-scripts",
         "--install-links", "--engine-strict=false"], cwd=enigma, env=env)
    step("build the native modules: " + ", ".join(NATIVE))
    run(["npm", "rebuild", *NATIVE], cwd=enigma, env=env)
    return enigma


# --- 2. a minimal board -------------------------------------------------------

def door_menu(gatehouse_cmd: str, gatehouse_toml: Path) -> str:
    """The example, as a sysop would install it: only the two paths change."""
    text = EXAMPLE.read_text()
    text = text.replace("/opt/gatehouse/venv/bin/gatehouse", gatehouse_cmd)
    text = text.replace("/etc/gatehouse/gatehouse.toml", str(gatehouse_toml))
    return text


def configure(enigma: Path, work: Path, telnet_port: int, gatehouse_toml: Path) -> None:
    step("configure a minimal board")
    menus = enigma / "config" / "menus"
    menus.mkdir(parents=True, exist_ok=True)
    templates = enigma / "misc" / "menu_templates"
    includes = []
    for name in ("message_base", "private_mail", "login", "new_user", "doors", "file_base",
                 "activitypub"):
        src = templates / f"{name}.in.hjson"
        if src.exists():
            out = f"proof-{name}.hjson"
            text = src.read_text()
            if name == "doors":          # the sysop's menu item: GATEHOUSE opens the example's menu
                text = text.replace(
                    'value: { command: "Q" }\n                    action: @systemMethod:prevMenu\n'
                    '                }',
                    'value: { command: "Q" }\n                    action: @systemMethod:prevMenu\n'
                    '                }\n                {\n'
                    '                    value: { command: "GATEHOUSE" }\n'
                    '                    action: @menu:doorGatehouse\n                }', 1)
                assert "@menu:doorGatehouse" in text, "doors template changed: add the item by hand"
            (menus / out).write_text(text)
            includes.append(out)
    gatehouse_cmd = str(Path(sys.executable).with_name("gatehouse"))
    (menus / "proof-gatehouse.hjson").write_text(door_menu(gatehouse_cmd, gatehouse_toml))
    includes.append("proof-gatehouse.hjson")
    main = (templates / "main.in.hjson").read_text().replace("%INCLUDE_FILES%",
                                                             "\n\t\t".join(includes))
    (menus / "proof-main.hjson").write_text(main)
    config = {
        "general": {"boardName": BOARD, "menuFile": str(menus / "proof-main.hjson")},
        "paths": {"logs": str(work / "enigma-logs") + "/"},
        "logging": {"rotatingFile": {"level": "debug"}},
        # only telnet, on loopback (SSH, web, gopher, NNTP are off by default)
        "loginServers": {"telnet": {"port": telnet_port, "address": "127.0.0.1"}},
    }
    (enigma / "config" / "config.hjson").write_text(json.dumps(config, indent=4))
    print(f"ENiGMA½ telnet on 127.0.0.1:{telnet_port}; menus: {', '.join(includes)}")


CREATE_USER = """
const common = require('./core/oputil/oputil_common.js');
common.initConfigAndDatabases(err => {
    if (err) { console.error('init: ' + err.message); process.exit(1); }
    const User = require('./core/user.js');   // after the config is loaded, as oputil does
    const user = new User();
    user.username = process.argv[2];
    user.properties.real_name = 'Proof Caller';
    user.create({ password: process.argv[3] }, err => {
        if (err) { console.error('create: ' + err.message); process.exit(1); }
        console.log('created user ' + user.userId + ' ' + user.username);
        process.exit(0);
    });
});
"""


def create_user(enigma: Path, work: Path) -> None:
    step(f"create the ENiGMA½ user {USER!r} (ENiGMA½'s User API)")
    script = enigma / "proof_create_user.js"
    script.write_text(CREATE_USER)
    for folder in (enigma / "db", work / "enigma-logs"):   # ENiGMA½ makes these on its first start
        folder.mkdir(exist_ok=True)
    cmd = ["node", str(script), USER, PASSWORD, "--config", str(enigma / "config") + "/"]
    print("$ " + " ".join(cmd), flush=True)
    result = subprocess.run(cmd, cwd=enigma, timeout=120, capture_output=True, text=True)
    print(result.stdout.strip(), result.stderr.strip())
    if result.returncode != 0 or "created user" not in result.stdout:
        raise SystemExit("could not create the ENiGMA½ user")


def gatehouse_settings(work: Path, telnet_port: int, rlogin_port: int) -> Path:
    path = work / "gatehouse.toml"
    path.write_text(f"""[server]
host = "127.0.0.1"
port = {telnet_port}

[store]
database = "{work / 'gatehouse.db'}"

[sysop]
socket = "{work / 'sysop.sock'}"

[rlogin]
enabled = true
host = "127.0.0.1"
port = {rlogin_port}
allow = ["127.0.0.1"]
tag = "{TAG}"

[door]
rlogin_port = {rlogin_port}

[awari]
build_endgame = false
""")
    return path


# --- 3. + 4. run both and call in --------------------------------------------

class Caller:
    """A telnet caller (telnetlib3) whose screen is read through pyte."""

    def __init__(self, reader: telnetlib3.TelnetReader, writer: telnetlib3.TelnetWriter):
        self.reader, self.writer = reader, writer
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.Stream(self.screen)        # fed CP437 (the caller says ansi-bbs)
        self.raw = bytearray()
        self.last_data = time.monotonic()
        self.pump = asyncio.ensure_future(self._pump())

    async def _pump(self) -> None:
        while data := await self.reader.read(4096):
            self.raw += data
            self.stream.feed(decode_cp437(data))
            self.last_data = time.monotonic()

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def send(self, keys: str) -> None:
        self.writer.write(keys.encode("ascii"))

    async def quiet(self, seconds: float = 1.0, timeout: float = 15.0) -> None:
        """Until nothing has arrived for ``seconds`` (the BBS finished drawing)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() - self.last_data < seconds and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    async def wait_for(self, pattern: str, timeout: float = 20.0,
                       nudge: str | None = None) -> str:
        """Until ``pattern`` (regex) is on the screen; ``nudge`` is typed
        whenever the screen has been quiet for a second (pauses, "more")."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if re.search(pattern, self.text()):
                return self.text()
            if nudge is not None and time.monotonic() - self.last_data > 1.0:
                self.send(nudge)
                self.last_data = time.monotonic()
            await asyncio.sleep(0.05)
        raise TimeoutError(f"never saw {pattern!r}; the screen:\n{self.text()}")


def show(title: str, text: str) -> None:
    print(f"-- screen: {title}")
    for line in text.splitlines():
        if line.strip():
            print("   |" + line)


async def call_in(telnet_port: int) -> None:
    step(f"a telnet caller connects to ENiGMA½ on 127.0.0.1:{telnet_port}")
    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", telnet_port, encoding=False, term="ansi-bbs", cols=COLS, rows=ROWS,
        connect_minwait=0.5, connect_maxwait=3.0)
    caller = Caller(reader, writer)
    try:
        text = await caller.wait_for(r"(?i)log ?in", timeout=30)
        show("ENiGMA½ login matrix", text)
        caller.send("\r")                                   # "login" is the first item
        await caller.wait_for(r"PASSW", timeout=15)
        await asyncio.sleep(0.5)
        caller.send(USER + "\r")
        await asyncio.sleep(0.5)
        caller.send(PASSWORD + "\r")
        step("logged in: through ENiGMA½'s login sequence to its main menu")
        text = await caller.wait_for(r"MAIN MENU", timeout=90, nudge="\r")
        await caller.quiet()
        show("ENiGMA½ main menu", caller.text())
        step("d: ENiGMA½'s doors menu")
        caller.send("D\r")
        await caller.wait_for(r"^(?![\s\S]*MAIN MENU)", timeout=20)
        await caller.quiet()
        doors_menu = caller.text()
        show("ENiGMA½ doors menu", doors_menu)
        step("pick the Gatehouse door (GATEHOUSE, the menu item pointing at doorGatehouse)")
        caller.send("GATEHOUSE\r")
        text = await caller.wait_for(r"Who's online", timeout=40)
        show("Gatehouse lobby, through ENiGMA½", text)
        handle = f"[{TAG}]{USER}"
        if handle not in text:
            raise SystemExit(f"the lobby does not show {handle}")
        print(f"OK: in Gatehouse's lobby as {handle}")
        rows = caller.screen.display
        # Gatehouse's screens are 80x24. Drawn on a wider terminal that it
        # took for 80 columns (the size never reached it), each row would run
        # on into the next; drawn knowing the pty's size, it sits in the corner.
        if not ("GATEHOUSE" in rows[0] and "Who's online" in rows[1] and "g bye" in rows[23]
                and all(not row[80:].strip() for row in rows)):
            raise SystemExit(f"the lobby is garbled on the caller's {COLS}x{ROWS}")
        print(f"OK: the 80x24 lobby sits in the corner of the caller's {COLS}x{ROWS}: the door "
              "read ENiGMA½'s pty size and passed it on")
        step("press g: goodbye, back to ENiGMA½")
        caller.send("g")
        await caller.wait_for(r"^(?![\s\S]*Who's online)", timeout=30)
        await caller.quiet()
        text = caller.text()
        show("back in ENiGMA½", text)
        if text != doors_menu:
            raise SystemExit("not back at ENiGMA½'s doors menu")
        print("OK: back at ENiGMA½'s doors menu")
    finally:
        writer.close()
        caller.pump.cancel()


def start(cmd: list[str], cwd: Path, log: Path) -> subprocess.Popen[bytes]:
    print("$ " + " ".join(cmd) + f"   (output: {log})", flush=True)
    return subprocess.Popen(cmd, cwd=cwd, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def wait_port(port: int, proc: subprocess.Popen[bytes], log: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"exited ({proc.returncode}) before listening:\n"
                             + log.read_text(errors="replace")[-3000:])
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit(f"nothing listening on {port} after {timeout:g}s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="ENiGMA½ git repository or checkout")
    parser.add_argument("--override", action="append", default=[], metavar="NAME=SPEC",
                        help="pin a dependency, e.g. fatfs-volume-driver=0.0.4")
    parser.add_argument("--local", action="append", default=[], metavar="NAME=PATH",
                        help="install a dependency from a git repository (e.g. one the "
                             "registry lacks: telnet-socket, buffers)")
    parser.add_argument("--workdir", type=Path, help="build here (default: a new temp folder)")
    parser.add_argument("--reuse", action="store_true",
                        help="--workdir already holds a built enigma-bbs: skip clone and npm")
    parser.add_argument("--keep", action="store_true", help="keep the temp folder")
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="enigma-proof-"))
    work.mkdir(parents=True, exist_ok=True)
    if ROOT in work.resolve().parents:
        raise SystemExit("build outside the project")
    procs: list[subprocess.Popen[bytes]] = []
    try:
        enigma = (work / "enigma-bbs" if args.reuse else
                  build(args.source, work, args.override + local_copies(work, args.local)))
        enigma_port, gh_port, rlogin_port = free_port(), free_port(), free_port()
        settings = gatehouse_settings(work, gh_port, rlogin_port)
        configure(enigma, work, enigma_port, settings)
        if not args.reuse or not (enigma / "db" / "system.sqlite3").exists():
            create_user(enigma, work)
        step("start Gatehouse and ENiGMA½")
        gatehouse = start([str(Path(sys.executable).with_name("gatehouse")), "serve",
                           "--config", str(settings)], work, work / "gatehouse.log")
        procs.append(gatehouse)
        wait_port(rlogin_port, gatehouse, work / "gatehouse.log")
        bbs = start(["node", "main.js", "--config", str(enigma / "config") + "/"], enigma,
                    work / "enigma.log")
        procs.append(bbs)
        wait_port(enigma_port, bbs, work / "enigma.log")
        asyncio.run(call_in(enigma_port))
        step("PROVED: ENiGMA½ login -> doors menu -> Gatehouse lobby as "
             f"[{TAG}]{USER} -> g -> back in ENiGMA½")
        return 0
    finally:
        for proc in reversed(procs):
            stop(proc)
        if args.keep or args.reuse:
            print(f"(kept {work})")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
