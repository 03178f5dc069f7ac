"""English catalog of The Game. Keys must match ja.py exactly."""

from bot.i18n.plural import Plural

CATALOG: dict[str, str | Plural] = {
    "cmd.thegame.name": "thegame",
    "cmd.thegame.desc": "The Game: a cooperative card game for 1–5 players",
    "cmd.thegame.new.desc": "Open a lobby for The Game in this channel",
    "cmd.thegame.rules.desc": "Read the rules of The Game",
    "cmd.thegame.on_fire.name": "on_fire",
    "cmd.thegame.on_fire": "On Fire: blue cards must be covered by the end of the next turn",
    "cmd.thegame.min_three.name": "min_three",
    "cmd.thegame.min_three": "Advanced: play at least 3 cards a turn while the draw pile lasts",
    "cmd.thegame.smaller_hand.name": "smaller_hand",
    "cmd.thegame.smaller_hand": "Advanced: one card fewer in hand",
    "thegame.error.illegal_move.cannot_place": "{card} does not fit on that pile.",
    "thegame.error.illegal_move.minimum_not_met": Plural(
        "You must play at least {count} card this turn.",
        "You must play at least {count} cards this turn.",
    ),
    "thegame.error.illegal_move.signal_unchanged": "That signal is already set that way.",
    "thegame.name": "The Game",
    "thegame.option.on_fire": "🔥 On Fire",
    "thegame.option.min_three": "Minimum 3 cards per turn",
    "thegame.option.smaller_hand": "One card fewer in hand",
    "thegame.pile.0": "Up 1",
    "thegame.pile.1": "Up 2",
    "thegame.pile.2": "Down 1",
    "thegame.pile.3": "Down 2",
    "thegame.table.pile": Plural(
        "{arrow} **{name}**: **{top}** ({count} card)",
        "{arrow} **{name}**: **{top}** ({count} cards)",
    ),
    "thegame.table.counts": "Cards",
    "thegame.table.counts_value": "Draw pile: **{draw}** · Not yet placed: **{left}**",
    "thegame.table.players": "Players",
    "thegame.table.seat": Plural(
        "{name} — {count} card",
        "{name} — {count} cards",
    ),
    "thegame.table.must_play": "must play {n} more",
    "thegame.table.may_end": "may end the turn",
    "thegame.table.on_fire": "🔥 On Fire",
    "thegame.table.burn_warning": "Blue {card} on {pile} must be covered this turn!",
    "thegame.table.legend": "🚫 please don't play here · ⚠️ please no big jump here",
    "thegame.result.title": "Result",
    "thegame.result.perfect": "Perfect win! All 98 cards placed.",
    "thegame.result.win": Plural(
        "Win — {count} card left.",
        "Win — {count} cards left.",
    ),
    "thegame.result.loss": Plural(
        "Loss — {count} card left.",
        "Loss — {count} cards left.",
    ),
    "thegame.result.burned": Plural(
        "Burned — a blue card stayed on top. Loss with {count} card left.",
        "Burned — a blue card stayed on top. Loss with {count} cards left.",
    ),
    "thegame.signal.option": "{pile}: {action} “{signal}”",
    "thegame.signal.no_play": "please don't play here",
    "thegame.signal.no_jump": "please no big jump here",
    "thegame.signal.set": "ask",
    "thegame.signal.clear": "clear",
    "thegame.signal.placeholder": "Pile signals (no numbers, just wishes)",
    "thegame.hand.title": "Your hand",
    "thegame.hand.empty": "Your hand is empty.",
    "thegame.hand.your_turn": "**Your turn** — play at least {n} more.",
    "thegame.hand.may_end": "**Your turn** — you may play more or end your turn.",
    "thegame.hand.waiting": "Waiting for {name}.",
    "thegame.hand.choose_card": "Choose a card to play",
    "thegame.hand.play_on": "{card} on {pile} ({top})",
    "thegame.hand.end_turn": "End turn",
    "thegame.event.dealt": "Cards dealt: {size} each.",
    "thegame.event.first_player": "{seat} plays first.",
    "thegame.event.played": "{seat} played {card} on {pile}.",
    "thegame.event.turn_ended": "{seat} ended the turn and drew {drew}.",
    "thegame.event.skipped": "{seat} has no cards left and is skipped.",
    "thegame.event.signal_on": "{seat} asks: {signal} ({pile}).",
    "thegame.event.signal_off": "{seat} cleared “{signal}” on {pile}.",
    "thegame.event.stuck": "{seat} cannot play enough cards — the game ends.",
    "thegame.event.burned": "🔥 Blue {card} on {pile} was not covered!",
    "thegame.event.you_drew": "You drew {cards}.",
    "thegame.stats.left": Plural(
        "{count} card left",
        "{count} cards left",
    ),
    "thegame.stats.perfect": Plural(
        "{count} perfect win",
        "{count} perfect wins",
    ),
    "thegame.hand.empty_other": "no cards",
    "thegame.action.play": "play {card} on {pile} (now {top})",
    "thegame.action.end": "end your turn and draw back up",
    "thegame.action.signal_on": "ask “{signal}” on {pile}",
    "thegame.action.signal_off": "clear “{signal}” on {pile}",
    "thegame.reason.only_move": "it is the only card you can play.",
    "thegame.reason.minimum_met": "you have played your minimum; the cards you keep are worth more later.",
    "thegame.reason.asks_no_play": "you hold a card for that pile, so the others should keep it free.",
    "thegame.reason.clears_signal": "that wish no longer holds.",
    "thegame.reason.covers_fire": "it covers the blue card that would burn at the end of this turn.",
    "thegame.reason.trick_minus_ten": "exactly 10 lower turns the pile back (the ±10 trick).",
    "thegame.reason.trick_plus_ten": "exactly 10 higher turns the pile back (the ±10 trick).",
    "thegame.reason.next_number": "it skips no number.",
    "thegame.reason.smallest_jump": "it skips the fewest numbers the table still needs.",
    "thegame.rules.intro": (
        "**Goal** — together, place as many of the 98 cards (2–99) as you can on four piles: "
        "two go up from 1, two go down from 100.\n"
        "**Your turn** — play cards from your hand one at a time onto any piles: at least 2 "
        "while the draw pile has cards, at least 1 once it is empty, more if you like. On an "
        "up pile play a higher card or exactly 10 lower; on a down pile a lower card or "
        "exactly 10 higher. Then draw back up to your hand size.\n"
        "**Talking** — never reveal numbers; ask with the pile signals instead.\n"
        "**The end** — the game ends when the player to move cannot play their minimum. Count "
        "the cards left (draw pile + all hands): 0 is a perfect win, 1–9 a win, 10 or more a "
        "loss, for everyone together."
    ),
    "thegame.rules.setup": (
        "**Cards** — 98 cards, 2 to 99, once each. Four piles: the two up piles start at 1, "
        "the two down piles at 100.\n"
        "**Hands** — 1 player 8 cards, 2 players 7, 3–5 players 6 (one fewer at the advanced "
        "level). Only you see your hand.\n"
        "**Draw pile** — the rest of the cards, face down.\n"
        "**First player** — (R) the host picks it when starting the game (random by default); "
        "then the turn passes from seat to seat."
    ),
    "thegame.rules.turn": (
        "**Playing** — play cards one at a time, each onto any pile; several onto one pile is "
        "fine. At least 2 cards while the draw pile has cards, at least 1 once it is empty (3 "
        "at the advanced level, (R) still 1 once it is empty). You may play more, even your "
        "whole hand.\n"
        "**Up piles** — a card higher than the top card, or exactly 10 lower (the ±10 trick: "
        "on 47 you may play 37).\n"
        "**Down piles** — a card lower than the top card, or exactly 10 higher (on 65 you may "
        "play 75).\n"
        "**No take-backs** — a played card stays played.\n"
        "**End of your turn** — once you have played your minimum, end your turn: you draw "
        "back up to your hand size (as many as the draw pile still has) and the next player "
        "goes on. A player whose hand is empty is skipped.\n"
        "**Talking** — never reveal numbers or hint at one (“I can do something big here” "
        "already says too much). (R) Instead each pile has two signals that anyone can set or "
        "clear and the table shows: “please don't play here” and “please no big jump here”. AI "
        "seats respect them and may ask for a pile where they hold a card for it.\n"
        "**Playing here** — in your hand, choose a card, then one of the piles it may go on; "
        "End turn when you are done. The pile signals are a select there too."
    ),
    "thegame.rules.scoring": (
        "**The end** — (R) the game ends as soon as the player to move cannot reach their "
        "minimum, at the start of their turn or part-way through it: the bot sees this itself. "
        "Placing all 98 cards ends it too.\n"
        "**Result** — count the cards not placed: the draw pile plus every hand. 0: a perfect "
        "win. 1–9: a win. 10 or more: a loss. Everyone shares the result.\n"
        "**On Fire** — a blue card left uncovered burns everyone: a loss, whatever the count "
        "(see Variants).\n"
        "**Records** — each server and channel keep their best result and their perfect wins; "
        "the finished table shows them. Won? Aim for a perfect win, then try the advanced "
        "levels."
    ),
    "thegame.rules.options": (
        "**On Fire** — the cards 22 33 44 55 66 77 are blue; they follow the normal placement "
        "rules. (R) At the end of every turn, if a pile shows on top a blue card placed in an "
        "earlier turn, everyone loses at once (burned). So a blue card must be covered by a "
        "normal card by the end of the next turn taken (in solo, your own next turn). If the "
        "game ends because someone is stuck, the count decides as usual.\n"
        "**Advanced levels** — chosen when opening the table, alone or together: play at least "
        "3 cards a turn while the draw pile has cards ((R) still 1 once it is empty); one card "
        "fewer in hand (7 / 6 / 5)."
    ),
    "thegame.rules.rulings": (
        "(R) **The end** — the rulebook ends the game when the player to move cannot play "
        "their minimum; the bot checks it itself: when that player has no card that fits any "
        "pile and has not yet played their minimum, the game is over.\n"
        "(R) **First player** — the rulebook lets the players agree; here the host picks when "
        "starting the game, random by default.\n"
        "(R) **Talking** — players may not reveal numbers, so the bot never shows anyone "
        "another hand. Instead it offers two signals per pile, “please don't play here” and "
        "“please no big jump here”: anyone can set or clear them, and the table shows them. AI "
        "seats respect them and may set “please don't play here” themselves (it gives no "
        "number away).\n"
        "(R) **On Fire** — checked at the end of every turn: if a pile shows on top a blue "
        "card placed in an earlier turn, everyone loses at once. A blue card placed in one "
        "turn must be covered by the end of the next turn taken (in solo, your own next turn).\n"
        "(R) **Advanced minimum** — 3 cards a turn while the draw pile has cards; still 1 once "
        "it is empty."
    ),
}
