"""The ``gatehouse`` command: serve, games, replay, bulletin, sysop, user, backup, check (and the BBS helpers)."""
from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from typing import BinaryIO

from server.config import Config, ConfigError, load_config, settings_file

__all__ = ["main"]


def _config(args: argparse.Namespace) -> Config:
    from server.startup import check_settings
    return check_settings(load_config(getattr(args, "config", None), _flags(args)))


def _flags(args: argparse.Namespace) -> dict[str, dict[str, object]]:
    """The settings given as flags, as section tables (only those given)."""
    given = {("server", "host"): "host", ("server", "port"): "port", ("store", "database"): "db",
             ("sysop", "socket"): "socket", ("server", "forfeit_minutes"): "forfeit_minutes",
             ("server", "idle_minutes"): "idle_minutes", ("web", "port"): "web_port"}
    tables: dict[str, dict[str, object]] = {}
    for (section, key), flag in given.items():
        value = getattr(args, flag, None)
        if value is not None:
            tables.setdefault(section, {})[key] = value
    if "web" in tables:
        tables["web"]["enabled"] = True
    return tables


async def _serve(config: Config) -> None:
    from server.app import App
    from server.collector import Collector
    _raise_nofile()
    app = App(config)
    await app.start()
    collector = Collector()
    collector.start()
    print(f"Gatehouse is listening on telnet://{config.server.host}:{app.port} "
          f"(state directory {config.paths.state_dir}; sysop console: gatehouse sysop, "
          f"socket {config.sysop.socket}). CTRL-C stops it.", flush=True)
    if app.web_port:
        print(f"Browser seat: http://{config.web.host}:{app.web_port}/", flush=True)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, app.stopping.set)
    await app.stopping.wait()
    collector.stop()
    await app.stop()


def _raise_nofile() -> None:
    """One descriptor per caller: lift the soft RLIMIT_NOFILE to the hard limit."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass


def _existing_database(config: Config) -> bool:
    """A command that only reads records never creates a database: say so."""
    from pathlib import Path
    if Path(config.store.database).is_file():
        return True
    print(f"gatehouse: no database at {config.store.database} (nothing recorded there yet; "
          "check --config, [paths] state_dir or --db)", file=sys.stderr)
    return False


async def _replay(config: Config, game_id: int, delay: float, charset: str, out: BinaryIO) -> int:
    from server.screens.replay import replay_frames
    from server.services.store import Store
    store = await Store(config.store.database).open()
    try:
        game = await store.get_game(game_id) if 0 < game_id < 2**63 else None
        if game is None:
            print(f"There is no game {game_id}.", file=sys.stderr)
            return 1
        moves = await store.moves(game_id)
    finally:
        await store.close()
    from doors import registry
    if game.door not in registry():
        print(f"gatehouse: game {game_id} is of the door {game.door!r}, which this Gatehouse does "
              f"not have (doors: {', '.join(registry())})", file=sys.stderr)
        return 1
    try:
        if game.damaged == "options":
            raise ValueError("its options in the database cannot be read")
        for data in replay_frames(game, moves, charset):
            out.write(data)
            out.flush()
            await asyncio.sleep(delay)      # (CTRL-C stops it here)
    except (ValueError, KeyError, IndexError, TypeError) as exc:    # a record the rules cannot read
        print(f"\ngatehouse: game {game_id} cannot be replayed: its record is damaged ({exc})",
              file=sys.stderr)
        return 1
    return 0


def _backup(config: Config, target: str) -> int:
    from server.services.store_backup import backup, counts, integrity_check
    if not _existing_database(config):
        return 1
    backup(config.store.database, target)
    found = integrity_check(target)
    users, games, moves = counts(target)
    if found != ["ok"]:
        print(f"gatehouse: the copy {target} failed its check: {'; '.join(found)}", file=sys.stderr)
        return 1
    print(f"Backed up {config.store.database} to {target}: {users} accounts, {games} games, "
          f"{moves} moves; integrity check ok.")
    return 0


def _check(config: Config) -> int:
    from server.services.store_backup import integrity_check
    if not _existing_database(config):
        return 1
    found = integrity_check(config.store.database)
    if found == ["ok"]:
        print(f"{config.store.database}: integrity check ok.")
        return 0
    print(f"{config.store.database}: the database is damaged ({len(found)} problems; restore it "
          "from a backup):", file=sys.stderr)
    for line in found:
        print(f"  {line}", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    """Run one command. A closed pipe (``| head``) or CTRL-C ends it quietly
    with the shell's usual status (141, 130), never a traceback."""
    try:
        return _main(argv)
    except BrokenPipeError:
        _quiet_stdout()
        return 128 + signal.SIGPIPE
    except KeyboardInterrupt:
        _quiet_stdout()
        return 128 + signal.SIGINT


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last
    flush of what the closed pipe did not take raises nothing."""
    import os
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _main(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="gatehouse", description="Gatehouse telnet door server")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server")
    serve.add_argument("--host", help="address to listen on for telnet ([server] host; default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="telnet port ([server] port; default 2323)")
    serve.add_argument("--forfeit-minutes", type=float,
                       help="minutes a player who left a game has to come back before forfeiting "
                            "([server] forfeit_minutes; default 10)")
    serve.add_argument("--idle-minutes", type=float,
                       help="minutes without a key before a caller is logged off "
                            "([server] idle_minutes; default 15)")
    serve.add_argument("--web-port", type=int, help="also serve the browser seat on this port")
    games = sub.add_parser("games", help="list recorded games")
    games.add_argument("--status", choices=["active", "finished"])
    games.add_argument("--limit", type=int, default=50)
    rep = sub.add_parser("replay", help="replay a recorded game on this terminal")
    rep.add_argument("game_id", type=int)
    rep.add_argument("--delay", type=float, default=0.7, help="seconds between moves")
    rep.add_argument("--charset", choices=["utf8", "cp437"], default="utf8")
    bulletin = sub.add_parser("bulletin", help="write the hall of fame and games in progress "
                                               "for the host BBS to show (to standard output)")
    bulletin.add_argument("--door", help="one door only (its key, as in gatehouse games)")
    bulletin.add_argument("--bbs", metavar="TAG", help="only the callers of the BBS with this tag "
                                                       "(a hub serving many BBSes)")
    bulletin.add_argument("--format", choices=["ans", "asc", "utf8"], default="ans",
                          help="ans: CP437 ANSI with SAUCE; asc: plain ASCII; utf8: UTF-8 text")
    bulletin.add_argument("--output", metavar="FILE",
                          help="write FILE (replaced at once) instead of standard output")
    door = sub.add_parser("door", help="door mode: run by a BBS with a DOOR32.SYS drop file")
    door.add_argument("dropfile", help="path of DOOR32.SYS")
    door.add_argument("--stdio", action="store_true",
                      help="the caller is on standard input/output (ENiGMA, Mystic on Linux)")
    door.add_argument("--charset", choices=["cp437", "utf8"],
                      help="the caller's character set, locked for the call "
                           "(default: [door] charset, else CP437 as DOOR32.SYS means)")
    sysop = sub.add_parser("sysop", help="attach the sysop console to the running server")
    sysop.add_argument("--socket", help="the server's sysop socket (default: [sysop] socket, "
                                        "sysop.sock in the state directory)")
    back = sub.add_parser("backup", help="copy the database to FILE, safely while the server runs")
    back.add_argument("file", help="the copy to write (replaced at once; mode 0600)")
    check = sub.add_parser("check", help="check the database (PRAGMA integrity_check)")
    from server.cli_users import add_user_parser
    user = add_user_parser(sub)
    for p in (serve, games, rep, bulletin, door, sysop, back, check, *user.actions):
        p.add_argument("--config", help="path of gatehouse.toml (default: ./gatehouse.toml if it exists)")
        p.add_argument("--db", help="sqlite database file ([store] database, gatehouse.db in the "
                                    "state directory)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.command in ("serve", "user") else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        config = _config(args)
    except ConfigError as exc:
        print(f"gatehouse: {exc}", file=sys.stderr)
        return 2
    from server.startup import exposed_secrets
    warning = exposed_secrets(settings_file(getattr(args, "config", None)), config)
    if warning and args.command in ("serve", "door"):
        logging.getLogger("gatehouse").warning("%s", warning)
    from server.services.store import StoreError
    from server.startup import StartupError
    try:
        return _run(args, config)
    except (StartupError, StoreError) as exc:
        print(f"gatehouse: {exc}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, config: Config) -> int:
    if args.command == "serve":
        try:
            asyncio.run(_serve(config))
        except OSError as exc:
            print(f"gatehouse: cannot listen on {config.server.host}:{config.server.port}: {exc}", file=sys.stderr)
            return 1
        return 0
    if args.command == "games":
        if not _existing_database(config):
            return 1
        from server.cli_records import games_command
        asyncio.run(games_command(config, args.status, max(0, min(args.limit, 1_000_000))))
        return 0
    if args.command == "bulletin":
        from server.cli_records import bulletin_command
        return asyncio.run(bulletin_command(config, args.door, args.format, sys.stdout.buffer,
                                            args.output, args.bbs))
    if args.command == "door":
        from server.net.door_bridge import main as door_main
        from server.services.bbs_accounts import secret_for
        return door_main(args.dropfile, config.door.server_host, config.door.rlogin_port,
                         tag=config.rlogin.tag or None,
                         max_age_minutes=config.door.max_drop_age_minutes, stdio=args.stdio,
                         secret=secret_for(config.rlogin.secrets, config.door.server_host),
                         charset=args.charset or config.door.charset or None,
                         time_left=config.door.honour_time_left, name_field=config.rlogin.name_field)
    if args.command == "user":
        if not _existing_database(config):
            return 1
        from server.cli_users import user_command
        return asyncio.run(user_command(config, args))
    if args.command == "sysop":
        from server.net.sysop_client import main as sysop_main
        return sysop_main(config.sysop.socket)
    if args.command == "backup":
        return _backup(config, args.file)
    if args.command == "check":
        return _check(config)
    if args.command == "replay":
        if not _existing_database(config):
            return 1
        return asyncio.run(_replay(config, args.game_id, args.delay, args.charset, sys.stdout.buffer))
    return 2


if __name__ == "__main__":
    sys.exit(main())
