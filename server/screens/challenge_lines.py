"""What each side of a challenge is told when it ends: one line, shown by
the lobby and the console on their message row, and by any other screen
(help, the new-game screen, a game) on the session's notice line."""
from __future__ import annotations

from server.services.board import Challenge, ChallengeState

__all__ = ["ended_line"]


def ended_line(challenge: Challenge, handle: str) -> str | None:
    """The line that tells ``handle`` (either side) how ``challenge`` ended,
    or None when there is nothing to say to them (it is open, or they ended
    it themselves)."""
    ch, me = challenge, handle.casefold()
    mine, theirs = ch.challenger.casefold() == me, ch.target.casefold() == me
    if ch.state == ChallengeState.ACCEPTED and mine and ch.by_turns:
        return f"{ch.target} accepted your challenge by turns: see your games (t)."
    if ch.state == ChallengeState.DECLINED and mine:
        return f"{ch.target} declined your challenge."
    if ch.state == ChallengeState.WITHDRAWN and theirs:
        return f"{ch.challenger} withdrew the challenge to {ch.headline()}."
    if ch.state == ChallengeState.WITHDRAWN and mine:        # the target left
        return f"{ch.target} left: your challenge to {ch.headline()} is off."
    if ch.state == ChallengeState.EXPIRED and (mine or theirs):
        return f"Your challenge {'to ' + ch.target if mine else 'from ' + ch.challenger} expired."
    return None
