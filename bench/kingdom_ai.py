"""Kingdom AI figures: the top level against a random player, and move times;
or the level ladder.

    python bench/kingdom_ai.py [--games N] [--level L] [--board NAME] [--max-plies N]
    python bench/kingdom_ai.py --ladder N [--rungs 1,2,3,4] [--board NAME] [--max-plies N]

Prints ``name: value unit`` lines. The bot plays N games against a uniformly
random player that never passes, sides alternated (the bot is player 1 in
even games), boards cycled through the shipped ones unless --board is
given. A game still running after --max-plies plies counts as not won.
``moves_cut_by_time_cap`` counts the moves where the bot's time cap, not its
node budget, ended the search (non-zero only on a busy machine; those moves
are not reproducible).

``--ladder N`` plays N games of each level n+1 against level n instead
(``bench/ladder.py``): the games of a pair share the board (cycled pair by
pair unless --board is given) and a random opening (one move each, never a
pass: ``--opening-plies``), seats swapped; player 1 always moves first. A
game still running after --max-plies plies counts as a draw. The bots
search by their node budget alone (their time cap off), so a run repeats
on any load.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import ladder  # noqa: E402

from doors.kingdom import INFO  # noqa: E402
from doors.kingdom.ai import KingdomBot, make_bot  # noqa: E402
from doors.kingdom.boards import list_boards  # noqa: E402
from doors.kingdom.position import PASS  # noqa: E402
from doors.kingdom.rules import KingdomState  # noqa: E402


def play(level: int, board: str, bot_side: int, seed: int, max_plies: int,
         times: list[float], capped: list[int]) -> tuple[int | None, int]:
    state = KingdomState({"board": board})
    bot = make_bot(level, seed)
    rng = random.Random(seed)
    plies = 0
    while not state.is_terminal() and plies < max_plies:
        player = state.current_player()
        if player == bot_side:
            t0 = time.perf_counter()
            action = bot.choose(state.observation(player), player)
            times.append(time.perf_counter() - t0)
            capped[0] += bot.timed_out
        else:
            action = rng.choice([a for a in state.legal_actions() if a != PASS])
        state.apply(player, action)
        plies += 1
    out = state.outcome()
    return (out.winner if out is not None else None), plies


def _no_pass(state: KingdomState) -> list:
    return [a for a in state.legal_actions() if a != PASS]


def budget_only(bot: KingdomBot) -> KingdomBot:
    """``bot`` with its time cap off: its node budget alone ends a move."""
    bot.max_time = None
    return bot


def ladder_game(boards: list[str], max_plies: int, opening_plies: int, plies_all: list[int]):
    """One ladder game: the board and the opening follow the pair."""
    def play_one(hi, lo, hi_seat, g):
        pair = g // 2
        state = KingdomState({"board": boards[pair % len(boards)]})
        ladder.opening(state, opening_plies, ladder.seed(hi, pair, salt=1), _no_pass)
        bots = {hi_seat: budget_only(make_bot(hi, ladder.seed(hi, g))),
                1 - hi_seat: budget_only(make_bot(lo, ladder.seed(hi, g, salt=2)))}
        plies = opening_plies
        while not state.is_terminal() and plies < max_plies:
            p = state.current_player()
            state.apply(p, bots[p].choose(state.observation(p), p))
            plies += 1
        plies_all.append(plies)
        out = state.outcome()
        return out.winner if out is not None else None
    return play_one


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--level", type=int, default=5)
    ap.add_argument("--board", default=None)
    ap.add_argument("--max-plies", type=int, default=1000)
    ap.add_argument("--quick", action="store_true", help="a short run: 2 games")
    ladder.add_arguments(ap)
    args = ap.parse_args()
    if args.quick:
        args.games = 2
    boards = [args.board] if args.board else list_boards()
    if args.ladder:
        low, high = INFO.levels
        game_plies: list[int] = []
        t0 = time.perf_counter()
        print(f"boards: {' '.join(boards)}")
        ladder.run("kingdom", ladder.parse_rungs(args.rungs, low, high), args.ladder,
                   ladder_game(boards, args.max_plies, args.opening_plies, game_plies), INFO.levels,
                   args.minutes)
        print(f"plies_per_game_median: {statistics.median(game_plies or [0]):.0f} plies")
        print(f"games_cut_at_max_plies: {sum(p >= args.max_plies for p in game_plies)} games")
        print(f"wall_time: {time.perf_counter() - t0:.0f} s")
        return
    times: list[float] = []
    capped = [0]
    wins = losses = 0
    plies_all = []
    t0 = time.perf_counter()
    for g in range(args.games):
        side = g % 2
        winner, plies = play(args.level, boards[g % len(boards)], side, 1000 + g,
                             args.max_plies, times, capped)
        wins += winner == side
        losses += winner == 1 - side
        plies_all.append(plies)
        print(f"  game {g + 1}/{args.games}: {wins} won, {losses} lost, "
              f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    n = max(1, args.games)
    times.sort()
    print(f"games: {args.games} games")
    print(f"level_{args.level}_vs_random_win_rate: {100.0 * wins / n:.1f} %")
    print(f"level_{args.level}_vs_random_losses: {losses} games")
    print(f"plies_per_game_median: {statistics.median(plies_all) if plies_all else 0:.0f} plies")
    if times:
        print(f"move_time_median: {statistics.median(times):.3f} s")
        print(f"move_time_worst: {times[-1]:.3f} s")
        print(f"moves_timed: {len(times)} moves")
        print(f"moves_cut_by_time_cap: {capped[0]} moves")
    print(f"wall_time: {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
