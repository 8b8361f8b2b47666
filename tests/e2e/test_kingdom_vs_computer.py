"""Kingdom from a telnet caller: the board editor from the door menu, and a
game against the computer played by arrow keys and Enter to its end."""
import random
from pathlib import Path

from doors.kingdom.position import Move

from .harness import ENTER, ESC, Caller, arrows_between, challenge_computer, door_digit, session_of, wait_until


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
    match = await challenge_computer(caller, app, "Kai", "Kingdom", option_keys="\x1b[B" * 2 + "\x1b[D")
    assert match.seats[1].level == 2
    await caller.expect("Your move")
    ui = session_of(app, "Kai").screens[-1].ui
    rng = random.Random(5)
    while not match.ended:
        await wait_until(lambda: match.ended or 0 in match.state.to_move(), timeout=30, what="my turn")
        if match.ended:
            break
        simple = [m for m in match.state.legal_actions(0)
                  if isinstance(m, Move) and m.frm >= 0 and m.mid < 0 and not m.promo]
        before = len(match.state.history)
        if not simple:                   # only jumps, promotions or a pass are left: pass, as a person may
            caller.send("xx")
            await wait_until(lambda before=before: len(match.state.history) > before, what="passed")
            continue
        move = rng.choice(simple)
        caller.send(arrows_between(ui.cur, move.frm, 19) + ENTER)
        await wait_until(lambda move=move: ui.selected == move.frm, what=f"selected {move}")
        caller.send(arrows_between(move.frm, move.to, 19) + ENTER)
        await wait_until(lambda before=before, move=move: len(match.state.history) > before or ui.mid == move.to,
                         what=f"played {move}")
        if ui.mid == move.to:            # a knight: ENTER again to stop after one jump
            caller.send(ENTER)
        await wait_until(lambda before=before: len(match.state.history) > before, what=f"played {move}")
        assert len(match.state.history) < 400
    text = await caller.expect("GAME OVER", timeout=10)
    assert "Computer (2) wins" in text or "Kai wins" in text or "Draw" in text
    await caller.close()
