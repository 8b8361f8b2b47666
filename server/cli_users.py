"""``gatehouse user list|reset-password|ban|unban|rename``: the sysop's
account tools from the command line, on the database the other commands
find (``--config``/``--db``). They call the same service as the console
(``services.accounts``), which logs every action."""
from __future__ import annotations

import argparse
import getpass
import socket
import sys
import time

from server.config import Config

__all__ = ["add_user_parser", "user_command"]


class UserParsers:
    """``gatehouse user`` and its actions (each takes --config/--db after it)."""

    def __init__(self, user: argparse.ArgumentParser, actions: list[argparse.ArgumentParser]):
        self.user = user
        self.actions = actions


def add_user_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> UserParsers:
    user: argparse.ArgumentParser = sub.add_parser("user", help="the sysop's account tools: list, reset-password, ban, "
                                       "unban, rename")
    actions = user.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list", help="every account, its kind, last call and whether banned")
    reset = actions.add_parser("reset-password", help="set a caller's password")
    reset.add_argument("handle")
    reset.add_argument("--password", help="the new password (default: asked twice, or read "
                                          "from standard input when it is not a terminal)")
    ban = actions.add_parser("ban", help="refuse a caller at login (and disconnect them "
                                         "if the console bans)")
    ban.add_argument("handle")
    ban.add_argument("--address", help="also refuse this address (IPv6: its /64)")
    ban.add_argument("--reason", default="", help="told to the caller")
    unban = actions.add_parser("unban", help="lift a caller's ban (and its address)")
    unban.add_argument("handle")
    rename = actions.add_parser("rename", help="rename an account (not while the server runs: "
                                               "use the console then)")
    rename.add_argument("handle")
    rename.add_argument("new_handle")
    return UserParsers(user, [listing, reset, ban, unban, rename])


def _read_password(given: str | None) -> str:
    if given is not None:
        return given
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    first = getpass.getpass("New password: ")
    if getpass.getpass("Once more: ") != first:
        raise ValueError("The two did not match.")
    return first


def _server_running(config: Config) -> bool:
    """Whether a server answers on the sysop socket (its ratings and seats
    hold handles in memory: a rename goes through its console then)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(1.0)
        probe.connect(config.sysop.socket)
        return True
    except OSError:
        return False
    finally:
        probe.close()


async def user_command(config: Config, args: argparse.Namespace) -> int:
    from server.services.accounts import AccountError, Accounts
    from server.services.nodes import Node
    from server.services.store import Store
    by = f"{getpass.getuser()} (command line)"
    if args.action == "rename" and _server_running(config):
        print("gatehouse: the server is running: rename from the sysop console "
              "(gatehouse sysop, then A)", file=sys.stderr)
        return 1
    try:
        password = _read_password(args.password) if args.action == "reset-password" else ""
    except (ValueError, EOFError) as exc:
        print(f"gatehouse: {exc}", file=sys.stderr)
        return 1
    store = await Store(config.store.database).open()
    accounts: Accounts[Node] = Accounts(store, sysop_name=config.sysop.name)   # (no server: nobody online)
    try:
        if args.action == "list":
            for row in await accounts.list():
                last = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.last_login)) \
                    if row.last_login else "never"
                print(f"{row.handle:<20} {row.kind:<8} last call {last}{'  BANNED' if row.banned else ''}")
            return 0
        if args.action == "reset-password":
            print(await accounts.reset_password(args.handle, password, by))
        elif args.action == "ban":
            print(await accounts.ban(args.handle, by, args.reason, args.address))
        elif args.action == "unban":
            print(await accounts.unban(args.handle, by))
        elif args.action == "rename":
            print(await accounts.rename(args.handle, args.new_handle, by))
        return 0
    except AccountError as exc:
        print(f"gatehouse: {exc}", file=sys.stderr)
        return 1
    finally:
        await store.close()
