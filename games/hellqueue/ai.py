"""Placeholder replaced below."""
import random

from games.hellqueue.models import Action, View
from games.hellqueue.moves import legal


def decide(view: View, rng: random.Random) -> Action:
    assert view.seat is not None
    return rng.choice(legal(view, view.seat))
