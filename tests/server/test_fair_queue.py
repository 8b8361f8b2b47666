"""The computer's workers are shared in turn between games: order of
service, not timing."""
from __future__ import annotations

import asyncio

from server.services.thinkers import ComputerPlayers, FairQueue


async def run_in_order(queue: FairQueue, asks: list[str]) -> tuple[list[str], list[int]]:
    """Ask ``asks`` (by game) in this order; the workers finish their
    questions one at a time, the first served first. Returns the games in
    the order served and, per question served, the others started while it
    waited."""
    served: list[int] = []
    gates = [asyncio.Event() for _ in asks]

    async def ask(i: int) -> None:
        await queue.acquire(asks[i])
        served.append(i)
        try:
            await gates[i].wait()
        finally:
            queue.release()

    tasks = []
    for i in range(len(asks)):
        tasks.append(asyncio.create_task(ask(i)))
        await asyncio.sleep(0)                 # asked in this order
    for done in range(len(asks)):
        while len(served) <= done:
            await asyncio.sleep(0)
        gates[served[done]].set()
        await asyncio.sleep(0)
    await asyncio.gather(*tasks)
    return [asks[i] for i in served], list(queue.behind)


async def test_a_game_asking_in_a_burst_takes_turns_with_the_others():
    queue = FairQueue(slots=1)
    served, behind = await run_in_order(queue, ["A", "A", "A", "A", "B", "C", "D"])
    # A's first goes at once and its second was queued before the others came;
    # then every game has one, in the order they came, and A's rest after
    assert served == ["A", "A", "B", "C", "D", "A", "A"]
    assert queue.running == 0 and queue.load() == 0
    # no question waited for more than one question of any other game
    assert list(queue.behind_one) == [0, 0, 1, 1, 1, 1, 1]


async def test_no_question_waits_for_more_than_the_other_games_with_one_waiting():
    queue = FairQueue(slots=2)
    asks = ["A"] * 10 + ["B", "C"]              # one game floods the queue, two others ask once
    served, behind = await run_in_order(queue, asks)
    assert sorted(served) == sorted(asks)
    assert served.index("B") <= 4 and served.index("C") <= 4
    # B and C each waited for at most two others (the two workers' questions from A)
    assert max(behind[served.index("B")], behind[served.index("C")]) <= 2
    # and every question, A's included, waited for at most one of each other game's
    assert len(queue.behind_one) == len(asks) and max(queue.behind_one) == 1


async def test_a_question_given_up_leaves_the_queue_and_its_turn_goes_on():
    queue = FairQueue(slots=1)
    await queue.acquire("A")
    gone = asyncio.create_task(queue.acquire("B"))
    nxt = asyncio.create_task(queue.acquire("C"))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.sleep(0)
    assert queue.waiting == 1
    queue.release()
    await nxt
    assert queue.running == 1 and queue.waiting == 0
    queue.release()


async def test_a_busy_pool_gives_each_question_a_smaller_share_of_its_time():
    computer = ComputerPlayers(workers=2)
    assert computer.time_scale() == 1.0                     # nobody waits: the door's own budget
    for game in "AB":
        await computer.queue.acquire(game)
    assert computer.queue.load() == 2 and computer.time_scale() == 1.0
    waiting = [asyncio.create_task(computer.queue.acquire(game)) for game in "CDEFGH"]
    await asyncio.sleep(0)
    assert computer.queue.load() == 8 and computer.time_scale() == 0.25      # 2 workers / 8
    for task in waiting:
        task.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)
    assert computer.queue.load() == 2 and computer.time_scale() == 1.0
    assert computer.time_scale(waited=0.5) == 0.5           # half of WAIT_SECONDS in the queue: half
    assert computer.time_scale(waited=5.0) == ComputerPlayers.MIN_SCALE     # long: the least, never 0
    await computer.close()


def test_a_busy_pool_tells_each_door_to_think_shorter_in_its_own_terms():
    from doors._ai.worker import _time_cap
    from doors.awari.ai import make_bot as awari_bot
    from doors.kingdom.ai import make_bot as kingdom_bot
    from doors.stratego.ai import TIME_CAP
    from doors.stratego.ai import make_bot as stratego_bot
    assert _time_cap(stratego_bot, 0.5) == {"time_scale": 0.5}
    half, whole = stratego_bot(5, 1, time_scale=0.5), stratego_bot(5, 1)
    assert half.time_cap == TIME_CAP * 0.5                                  # its own cap, halved,
    assert (half.cfg.samples, half.cfg.budget, half.cfg.marginal) == (     # and its search alike
        whole.cfg.samples // 2, whole.cfg.budget // 2, whole.cfg.marginal // 2)
    assert _time_cap(kingdom_bot, 0.5) == {"time_scale": 0.5}
    assert kingdom_bot(5, 1, time_scale=0.5).max_time == kingdom_bot(5, 1).max_time / 2
    assert _time_cap(awari_bot, 0.5) == {}                                  # takes neither: as it is
    assert _time_cap(stratego_bot, None) == {}                              # no queue: as it is


async def test_a_split_question_takes_every_worker_only_when_none_is_busy():
    queue = FairQueue(2)
    assert queue.take_idle("a", 2) == 2 and queue.load() == 2
    later = asyncio.create_task(queue.acquire("b"))
    await asyncio.sleep(0)
    assert not later.done(), "another game's question waits for the split one"
    assert queue.take_idle("c", 2) == 0
    queue.release()
    await later                       # a worker given back serves the waiting game
    queue.release()
    assert queue.take_idle("a", 2) == 0, "b's question is still being thought out"
    queue.release()
    assert queue.load() == 0 and queue.take_idle("a", 3) == 0   # never more than the workers
