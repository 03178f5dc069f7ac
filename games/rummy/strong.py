"""Angels & Demons Rummy at the STRONG level: NORMAL's heuristic, more thorough, with the
rule it lacks (what the bench measures strongest; issue 27).

- A seat with an open set takes a field card that completes its goal form, and goals.
  NORMAL's take scores an 8-card goal form like any hand one card from it, and a Ready
  NORMAL seat takes the card safest to discard, so it goals almost only on discards. This
  alone lifts a seat from 25 % to about 40 % of the 4-player matches against NORMAL.
- Every field card gets the full look (NORMAL shortlists 2 by deficiency alone), opens and
  gains are judged on more samples of the 2 cards drawn, and with 2 players Ready waits
  for at least 3 unseen cards (one opponent's discards rarely bring a thin wait).
- Advanced: a discard a Ready player may goal on costs the short game and our points, so
  STRONG reads each kind's chance of completing that goal from the view
  (`Params.read_waits`, `WAIT_LOGIT`: a kind that went by the player, an Item, a 1 or a 7
  are safer) where NORMAL gives every kind outside the player's row 12 %, and weighs that
  goal more (`DANGER_GOAL`). Two players, where our discards are nearly a Ready NORMAL's
  only goals: 56.7 % to 62.1 % of the same 1,200 matches (the weight alone, 3 with no
  reading, had made 53.0 % into 56.7 %).

Not a search: Rummy's shared search (games.engine.search through the real rules, playing
to the seat's next take) lost to NORMAL, and fixing its rollouts, value and worlds did not
make one round of play out judge better than the heuristic it ends on; a whole short game
played out (about 25 ms) leaves too few playouts a second to tell moves apart. So the rules
made about 2.5 times cheaper a move (issue 23) buy STRONG nothing: its time is its own reading of
the view. Judging every open of a decision on one shared set of draws (taken without
replacement, at the same cost) did not help either: 42.8 % of 4-player basic matches on the
same 800 seeds against 43.5 %.

Against three NORMAL seats (bench/rummy_ai.py --opponents normal) it wins 43 % of 4-player
basic matches and 41 % advanced (40.2 % before the reading, same 800 matches; even 25 %);
against one, 62 % basic and 62 % advanced (even 50 %). A few ms a decision, p99 under
200 ms on a loaded machine.
"""

from __future__ import annotations

import random
from dataclasses import replace

from games.engine.contract import AiDecision
from games.rummy.ai import PARAMS, Params, decide
from games.rummy.cards import KINDS
from games.rummy.models import Config, Take, View
from games.rummy.scoring import score_goal
from games.rummy.sets import is_goal_form

THOROUGH = replace(PARAMS, take_shortlist=KINDS, draw_samples=16, read_waits=True)
"""NORMAL's weights, every field card fully looked at, 16 samples of a draw, and (advanced)
each kind's chance of completing a Ready player's goal read from the view."""
READY_MIN_OUTS = {2: 3}
"""Unseen cards a Ready declaration waits for at least, by player count (else NORMAL's)."""
DANGER_GOAL = {(2, True): 4.5, (4, True): 1.5}
"""What a Ready player's goal on our discard costs, in cards, by (players, advanced) (else
NORMAL's). Advanced, each such goal costs us its points as well as the short game; with two
players a Ready NORMAL takes the card safest to discard, so our discards are nearly its only
goals (4.5 beat 3 and 6 on the same 400 matches)."""


def params_for(config: Config) -> Params:
    """STRONG's weights at a table of `config`."""
    return replace(
        THOROUGH,
        ready_min_outs=READY_MIN_OUTS.get(config.players, PARAMS.ready_min_outs),
        danger_goal=DANGER_GOAL.get((config.players, config.advanced), PARAMS.danger_goal),
    )


def strong_decision(view: View, rng: random.Random) -> AiDecision:
    """STRONG's action for `view`'s seat, with its reason."""
    completing = _completing(view)
    if completing is not None:
        return AiDecision(action=completing, reason="completes_goal")
    return AiDecision(action=decide(view, rng, params_for(view.config)), reason="heuristic")


def _completing(view: View) -> Take | None:
    """At a take, the field card completing the seat's goal form, the best scoring, if the
    seat has an open set (a goal needs one)."""
    if view.phase != "take" or view.seat is None or not view.opened[view.seat]:
        return None
    hand, opened = view.hand or (), view.opened[view.seat]
    best: tuple[int, Take] | None = None
    for action in view.legal:
        if isinstance(action, Take) and is_goal_form((*hand, action.card)):
            points = score_goal((*hand, action.card), opened, view.config.advanced).points
            if best is None or points > best[0]:
                best = (points, action)
    return None if best is None else best[1]
