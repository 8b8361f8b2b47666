"""Keys typed ahead in a Stratego setup (a fast typist, a paste, a slow
line that delivers many keys at once) are each judged on the board the key
before made: nothing placed is thrown away, and ENTER after the fortieth
piece asks to confirm."""
from .harness import ENTER, RIGHT, game_state, moves_of, wait_until
from .test_stratego import RED, stratego_challenge_accepted


async def test_forty_pieces_and_enter_in_one_packet_ask_to_confirm(app):
    red, blue, _game_id = await stratego_challenge_accepted(app)
    red.send("A")
    await red.expect("cursor steps on")
    red.send(RED + ENTER)
    text = await red.expect("Ready? y/n")
    assert "Place all 40 pieces first" not in text
    await red.close()
    await blue.close()


async def test_pieces_placed_then_a_random_fill_typed_ahead_keep_their_squares(app):
    red, blue, game_id = await stratego_challenge_accepted(app)
    red.send("1" + RIGHT + "2" + RIGHT + "F" + "R")            # Marshal A4, General B4, Flag C4, fill
    await wait_until(lambda: sum(1 for p, _ in moves_of(app, game_id) if p == 0) >= 4, what="the fill stored")
    await red.expect("40/40")
    state = game_state(app, game_id)
    assert [state.board[square].rank for square in (30, 31, 32)] == ["1", "2", "F"]
    await red.close()
    await blue.close()
