"""Kingdom from a telnet caller: the board editor from the door menu, and a
game against the computer played by arrow keys and Enter to its end."""
import random
import re
from pathlib import Path

from doors.kingdom.position import KNIGHT, Move, parse_square

from .harness import (
    ENTER,
    ESC,
    Caller,
    arrows_between,
    door_digit,
    game_state,
    game_status,
    moves_of,
    start_vs_computer,
    wait_until,
)


async def board_editor(caller: Caller) -> None:
    """From the lobby to the Kingdom board editor (p, the door, e)."""
    caller.send("p")
    await caller.expect("Choose a door")
    caller.send("\x1b[B" * (int(door_digit("Kingdom")) - 1) + "e")
    await caller.expect("l  load a board to change it")


async def test_board_editor_is_reachable_from_the_door_menu(app):
    caller = await Caller.connect(app.port)
    await caller.login("Ed")
    caller.send("p")
    await caller.expect("Choose a door")
    index = int(door_digit("Kingdom")) - 1
    caller.send("\x1b[B" * index)
    await caller.expect("e: board editor")
    caller.send("e")
    await caller.expect("Place pieces and rocks")
    caller.send(ESC)
    await caller.expect("Choose a door")
    await caller.close()


async def test_board_editor_loads_a_board_and_saves_the_change_in_the_state_directory(app):
    caller = await Caller.connect(app.port)
    await caller.login("Edna")
    await board_editor(caller)
    caller.send("l")
    await caller.expect("Open which board?")
    caller.send("\x1b[B" + ENTER)                      # default, fortress, skirmish
    await caller.expect("Opened fortress")
    caller.send(" s")                                  # clear the square under the cursor, save
    await caller.expect("Name the board")
    caller.send("fortress" + ENTER)
    await caller.expect("fortress comes with Gatehouse: save the board under another name.")
    caller.send("\x7f" * 8 + "holes" + ENTER)
    await caller.expect("Saved as holes.")
    saved = Path(app.config.paths.state_dir) / "kingdom" / "boards" / "holes.txt"
    assert saved.is_file()
    caller.send(ENTER + "1")                           # Kingdom, against the computer
    await caller.expect("Kingdom against The computer: options")
    caller.send("\x1b[D")                              # the board list wraps: the last is shown
    await caller.expect("< skirmish: ")
    caller.send("\x1b[D")
    await caller.expect("< holes: holes >")
    await caller.close()


async def test_a_caller_cannot_save_over_another_callers_board(app):
    """Edna's saved board is hers: Vandal may open it and save a copy under
    a new name, never save over it."""
    boards = Path(app.config.paths.state_dir) / "kingdom" / "boards"
    edna = await Caller.connect(app.port)
    await edna.login("Edna")
    await board_editor(edna)
    edna.send("s")
    await edna.expect("Name the board")
    edna.send("aaa" + ENTER)
    await edna.expect("Saved as aaa.")
    await edna.close()
    before = (boards / "aaa.txt").read_text()
    assert before.startswith("; made with the Kingdom board editor by Edna\n")
    vandal = await Caller.connect(app.port)
    await vandal.login("Vandal")
    await board_editor(vandal)
    vandal.send("l")
    await vandal.expect("Open which board?")
    vandal.send("\x1b[B" + ENTER)                      # default, aaa, ...
    await vandal.expect("Opened aaa: it is not yours, so save your changes under a new name.")
    vandal.send(" s")
    await vandal.expect("Name the board")              # no name offered
    vandal.send("aaa" + ENTER)
    await vandal.expect("There is already a board called aaa.")
    vandal.send("\x7f" * 3 + "bbb" + ENTER)
    await vandal.expect("Saved as bbb.")
    assert (boards / "aaa.txt").read_text() == before
    assert (boards / "bbb.txt").read_text().startswith("; made with the Kingdom board editor by Vandal\n")
    await vandal.close()


async def test_kingdom_game_against_the_computer_to_the_end(app):
    caller = await Caller.connect(app.port)
    await caller.login("Kai")
    game_id, level = await start_vs_computer(caller, app, "Kai", "Kingdom", option_keys="\x1b[B" * 2 + "\x1b[D")
    assert level == 2
    await caller.expect("Your move")
    rng = random.Random(5)

    def my_turn_or_over() -> bool:
        return game_status(app, game_id) != "active" or 0 in game_state(app, game_id).to_move()

    while game_status(app, game_id) == "active":
        await wait_until(my_turn_or_over, timeout=30, what="my turn")
        if game_status(app, game_id) != "active":
            break
        state = game_state(app, game_id)
        if state.history:                # the screen has had the computer's move
            await caller.expect(f"Last: {state.action_to_str(state.history[-1][1])}", timeout=30)
        await caller.expect("Your move", timeout=30)
        # plain moves of any piece but a knight (whose move may go on with a second jump)
        simple = [m for m in state.legal_actions(0)
                  if isinstance(m, Move) and m.frm >= 0 and m.mid < 0 and not m.promo
                  and state.pos.board[m.frm] & 7 != KNIGHT]
        before = len(state.history)
        if not simple:                   # only jumps, promotions or a pass are left: pass, as a person may
            caller.send("xx")
            await wait_until(lambda before=before: len(moves_of(app, game_id)) > before, what="passed")
            continue
        move = rng.choice(simple)
        found = re.search(r"Cursor ([a-s]\d{1,2})", caller.text())
        assert found is not None, caller.text()
        caller.send(arrows_between(parse_square(found.group(1)), move.frm, 19) + ENTER)
        caller.send(arrows_between(move.frm, move.to, 19) + ENTER)
        await wait_until(lambda before=before: len(moves_of(app, game_id)) > before, what=f"played {move}")
        assert before < 400
    text = await caller.expect("GAME OVER", timeout=30)
    assert "GAME OVER: you lost" in text or "GAME OVER: you won" in text or "GAME OVER: a draw" in text
    await caller.close()
