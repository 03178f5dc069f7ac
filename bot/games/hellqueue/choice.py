"""A Hell Queue Club turn picked in steps, as the panel's controls carry it.

Each step is a `Pick` that only redraws the panel, the choice so far carried in the controls'
custom_ids (stateless, so it survives a restart): `f{face}` a face group chosen, `r{face}.{dice}`
a Reroll of that group with the dice chosen so far, `m.{dice}` the same in the `reroll` phase
(a Reroll begun before a restart: the face group already rests).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.games.hellqueue.pieces import NONE, dice_text, sleep_text
from games.hellqueue.models import Action, Dice, Mark, Reroll, RollMarked, View

KINDS: dict[str, tuple[str, str]] = {
    "l": ("active", "large"),
    "s": ("active", "small"),
    "b": ("active", "black"),
    "z": ("sleep", "small"),
}
"""One letter per kind of die a Reroll may choose (where it lies, its size)."""
IN_REROLL = "m"
"""The face of the reroll controls in the `reroll` phase (the face group is already resting)."""


def encode_dice(dice: Sequence[tuple[str, int]]) -> str:
    """Dice chosen for a Reroll as `{kind}{face}` pairs (`l5z1z1`), sorted."""
    return "".join(f"{kind}{face}" for kind, face in sorted(dice))


def decode_dice(code: str) -> list[tuple[str, int]]:
    """The dice of `encode_dice`; ValueError on anything else."""
    if len(code) % 2:
        raise ValueError(f"not a dice code: {code!r}")
    dice = []
    for i in range(0, len(code), 2):
        kind, face = code[i], int(code[i + 1])
        if kind not in KINDS or not 1 <= face <= 6:
            raise ValueError(f"not a die: {code[i : i + 2]!r}")
        dice.append((kind, face))
    return dice


def rerollable(view: View, seat: int, face: int | None) -> Counter[tuple[str, int]]:
    """The dice a Reroll may choose: the seat's active card (without the face group `face`,
    which rests) and sleep card; in the `reroll` phase what is left of them."""
    player = view.players[seat]
    active = player.active if face is None else player.active.without(face)
    dice: Counter[tuple[str, int]] = Counter()
    for kind, faces in (("l", active.large), ("s", active.small), ("b", active.black)):
        dice.update((kind, f) for f in faces)
    dice.update(("z", f) for f in player.sleep)
    return dice


def reroll_actions(face: int | None, dice: Sequence[tuple[str, int]]) -> tuple[Action, ...]:
    """One click's actions: the Reroll (unless begun already), a Mark per kind, the roll."""
    actions: list[Action] = [] if face is None else [Reroll(face=face)]
    for (kind, die_face), count in sorted(Counter(dice).items()):
        where, size = KINDS[kind]
        mark = {"where": where, "size": size, "face": die_face, "count": count}
        actions.append(Mark.model_validate(mark))
    actions.append(RollMarked())
    return tuple(actions)


class Choice:
    """A turn being picked in the panel, as far as it goes (everything validated)."""

    def __init__(self, view: View, seat: int, pick: str | None) -> None:
        self.face: int | None = None
        self.rerolling = False
        self.dice: list[tuple[str, int]] = []
        text = pick or ""
        faces = view.players[seat].active.faces()
        if view.phase == "reroll":
            self.rerolling = True
            body = text[2:] if text.startswith(f"{IN_REROLL}.") else ""
        elif len(text) >= 2 and text[0] in "fr" and text[1].isdigit() and int(text[1]) in faces:
            self.face = int(text[1])
            self.rerolling = text[0] == "r"
            body = text[3:] if self.rerolling else ""
        else:
            return
        try:
            wanted = decode_dice(body)
        except ValueError:
            wanted = []
        left = rerollable(view, seat, self.face)
        for die in sorted(wanted):
            if left[die] > 0:
                left[die] -= 1
                self.dice.append(die)

    @property
    def tag(self) -> str:
        return IN_REROLL if self.face is None else str(self.face)

    def chosen_text(self) -> str:
        """The dice chosen to reroll so far."""
        dice = Dice()
        sleeping: list[int] = []
        for kind, face in self.dice:
            if kind == "z":
                sleeping.append(face)
            else:
                dice = dice.plus(Dice.model_validate({KINDS[kind][1]: (face,)}))
        parts = [p for p in (dice_text(dice), sleep_text(sleeping)) if p]
        return " + ".join(parts) or NONE
