"""Level 5 against a pool of outside bots, one table.

Plays our level against each program of a pool through the UCC 2012
referee (``bench/stratego_vs_peers.py`` plays each game, so its options and
``--repeatable`` apply) and prints one table: per opponent the games, won,
drawn, lost, and how each lost game ended. The pool is a folder of
executables, one per bot, named after it (``--pool``), and, with
``--scripted``, the scripted opponents of ``bench/stratego_scripted.py``
(each built to break one assumption of ours).

Building the pool (nothing of their code is committed; everything in
``/tmp/peers``). The referee and ``peternlewis`` as in
``bench/stratego_vs_peers.py``'s docstring (the seeded ``peternlewis``
for repeatable runs). Then, in the fetched repo's ``agents`` folder:

- ``ramen`` (C), ``basic_cpp`` (C++): ``make`` (delete the shipped
  binaries and objects first). ``ramen`` keeps a file per opponent name in
  its folder, named from our program's whole path, which names the game
  and the ``--logs`` folder: it learns nothing across games as long as
  each run has a ``--logs`` folder of its own. A run again into the same
  folder meets what the last one taught it, and a file left by a stopped
  game can make ``ramen`` fail its first move (the referee's "Unintelligable
  response", scored as won): delete ``*.ramen`` there first.
- ``basic_java``: ``make`` (javac); run as ``java BasicAI`` in its folder.
  It moves a lost piece within a few turns (an illegal move): a sure win.
- ``asmodeus``, ``vixen``, ``hunter``, ``celsius1.1`` (the issue's
  ``celsius``), ``basic_python``: Python 2 (pyenv's 2.7 here), run in
  their own folder, ``random`` seeded from ``$PEER_SEED`` so that a
  ``--repeatable`` run replays them.

Each bot gets a two-line wrapper in ``/tmp/peers/bin/NAME``, for example::

    #!/bin/sh
    cd /tmp/peers/se/agents/vixen && exec python2.7 -u -c 'import os, random, \\
      sys; random.seed(int(os.environ.get("PEER_SEED", "0"))); \\
      sys.argv = ["vixen.py"]; execfile("vixen.py")'

Run (long; niced, in the background)::

    nice -n 19 python bench/stratego_pool.py --referee /tmp/peers/se/manager/stratego \\
        --pool /tmp/peers/bin --scripted --games 4 --jobs 2 --repeatable --logs /tmp/peers/logs

``--only a,b`` plays those opponents only. The logs (the referee's, one per
game, ``NAME-GAME.log``) are what ``bench/stratego_material.py`` reads.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from stratego_scripted import SCRIPTS  # noqa: E402
from stratego_vs_peers import play_game  # noqa: E402


def opponents(args: argparse.Namespace, tmp: str) -> dict[str, str]:
    """Name -> program of every opponent of the run."""
    out: dict[str, str] = {}
    if args.pool:
        for name in sorted(os.listdir(args.pool)):
            path = os.path.join(args.pool, name)
            if os.access(path, os.X_OK) and not os.path.isdir(path):
                out[name] = path
    if args.scripted:
        for name in SCRIPTS:
            path = os.path.join(tmp, f"scripted-{name}.sh")
            with open(path, "w") as fh:
                fh.write(f"#!/bin/sh\nexec {sys.executable} -u {os.path.join(HERE, 'stratego_scripted.py')}"
                         f" {name} {args.scripted_level}\n")
            os.chmod(path, 0o755)
            out[f"scripted {name}"] = path
    if args.only:
        wanted = set(args.only.split(","))
        out = {k: v for k, v in out.items() if k in wanted or k.removeprefix("scripted ") in wanted}
    return out


def one(args: argparse.Namespace, name: str, path: str, game: int) -> tuple[str, int, str, str, float]:
    folder = os.path.join(args.logs, name.replace(" ", "-"))
    os.makedirs(folder, exist_ok=True)
    game_args = argparse.Namespace(**{**vars(args), "peer": path})
    result, how, wall = play_game(game_args, game, folder)
    return name, game, result, how, wall


def table(rows: dict[str, list[tuple[str, str]]]) -> list[str]:
    """The pool table, as markdown: games, won, drawn, lost, how lost."""
    out = ["| opponent | games | won | drawn | lost | how lost (or drawn) |", "|---|---|---|---|---|---|"]
    for name, games in rows.items():
        n = {k: sum(1 for r, _ in games if r == k) for k in ("win", "draw", "loss")}
        how: dict[str, int] = {}
        for r, h in games:
            if r != "win":
                key = h if r == "loss" else f"drawn: {h}"
                how[key] = how.get(key, 0) + 1
        text = ", ".join(f"{k} {v}" for k, v in sorted(how.items())) or "-"
        out.append(f"| {name} | {len(games)} | {n['win']} | {n['draw']} | {n['loss']} | {text} |")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--referee", default=os.environ.get("STRATEGO_REFEREE"))
    ap.add_argument("--pool", help="folder of the pool's programs, one per bot")
    ap.add_argument("--scripted", action="store_true", help="add the scripted opponents")
    ap.add_argument("--scripted-level", type=int, default=3,
                    help="the level under each scripted opponent's trick (4: a harder test)")
    ap.add_argument("--only", help="comma-separated opponent names")
    ap.add_argument("--games", type=int, default=4, help="games per opponent")
    ap.add_argument("--first", type=int, default=0, help="first game number (the seed's games FIRST..)")
    ap.add_argument("--jobs", type=int, default=1, choices=(1, 2))
    ap.add_argument("--logs", default=None, help="folder for the referee's logs (kept)")
    ap.add_argument("--level", type=int, default=5)
    ap.add_argument("--seed", type=int, default=random.randrange(1 << 20))
    ap.add_argument("--timeout", type=float, default=60.0, help="referee's per-move timeout, s")
    ap.add_argument("--max-turns", type=int, default=2000)
    ap.add_argument("--game-timeout", type=float, default=3600.0)
    ap.add_argument("--repeatable", action="store_true")
    args = ap.parse_args(argv)
    if not args.referee:
        ap.error("--referee is needed (see the docstring to build it)")
    args.logs = args.logs or os.path.join("/tmp", f"stratego_pool_{os.getpid()}")
    os.makedirs(args.logs, exist_ok=True)
    todo = opponents(args, args.logs)
    rows: dict[str, list[tuple[str, str]]] = {name: [] for name in todo}
    start = time.perf_counter()
    jobs = [(name, path, g) for g in range(args.first, args.first + args.games) for name, path in todo.items()]
    with ThreadPoolExecutor(args.jobs) as pool:
        for name, game, result, how, wall in pool.map(lambda j: one(args, *j), jobs):
            rows[name].append((result, how))
            print(f"# {name} game {game}: {result} by {how}, {wall:.0f} s", flush=True)
    for line in table(rows):
        print(line)
    print(f"pool wall time: {time.perf_counter() - start:.0f} s")
    print(f"# seed {args.seed}, logs in {args.logs}")


if __name__ == "__main__":
    main()
