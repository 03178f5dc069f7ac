"""English catalog of Hell Queue Club. Keys must match ja.py exactly."""

from bot.i18n.plural import Plural

CATALOG: dict[str, str | Plural] = {
    # Commands
    "cmd.hellqueue.name": "hellqueue",
    "cmd.hellqueue.desc": "Hell Queue Club: queue your oni dice for pretty stones (3–4 players)",
    "cmd.hellqueue.new.desc": "Open a lobby for Hell Queue Club in this channel",
    "cmd.hellqueue.rules.desc": "Read the rules of Hell Queue Club",
    # Errors (detail codes of the rules; those every game shares are in the shared catalog)
    "hellqueue.error.illegal_move.no_such_face": "You have no dice showing {face} on your active card.",
    "hellqueue.error.illegal_move.no_card": "There is no distribution card there.",
    "hellqueue.error.illegal_move.card_overflow": "That card cannot take that many dice: the total would pass its number.",
    "hellqueue.error.illegal_move.bad_black_source": "That black die cannot be taken.",
    "hellqueue.error.illegal_move.bad_wake": "You cannot wake the dice showing {face} with that group.",
    "hellqueue.error.illegal_move.bad_die": "That die is not on that card.",
    "hellqueue.error.illegal_move.no_such_die": "Those dice are not on your cards.",
    "hellqueue.error.illegal_move.nothing_to_recall": "There is nothing to recall.",
    "hellqueue.error.illegal_move.stone_gone": "That stone is no longer on the card.",
    # Names
    "hellqueue.name": "Hell Queue Club",
    "hellqueue.colour.red": "red",
    "hellqueue.colour.blue": "blue",
    "hellqueue.colour.yellow": "yellow",
    "hellqueue.colour.green": "green",
    "hellqueue.stone.red": "red",
    "hellqueue.stone.blue": "blue",
    "hellqueue.stone.yellow": "yellow",
    "hellqueue.stone.green": "green",
    "hellqueue.stone.aqua": "aqua",
    "hellqueue.stone.white": "white",
    "hellqueue.size.large": "Large",
    "hellqueue.size.small": "Small",
    "hellqueue.size.black": "Black",
    "hellqueue.where.active": "active card",
    "hellqueue.where.sleep": "sleep card",
    # Public table
    "hellqueue.table.to_move": "▶ {marker} **{name}** to move",
    "hellqueue.table.rerolling": "▶ {marker} **{name}** is choosing dice to reroll",
    "hellqueue.table.picking": "▶ {marker} **{name}** picks a stone from the **{number}** card",
    "hellqueue.table.still_to_pick": "Picks left: {names}",
    "hellqueue.table.card": "**{number}** — {total}/{number} · {stones} · deck {deck}",
    "hellqueue.table.card_done": "~~{number}~~ — deck used up",
    "hellqueue.table.no_dice": "no dice yet",
    "hellqueue.table.player": "{marker} **{name}** — ⭐ {score} · {stones}",
    "hellqueue.table.area": "active {active} · sleep {sleep} · rest {rest}",
    "hellqueue.table.supply": "Supply: black dice ⚫{black} · rest area ⚫{rest_black} · stones {stones}",
    "hellqueue.table.legend": "5️⃣ large die · `5` small die · ⚫5️⃣ black die · 🔴🔵🟡🟢 owners · stones 🟥 red 🟦 blue 🟨 yellow 🟩 green 💠 aqua ⬜ white · ⭐ best score now",
    "hellqueue.result.title": "Result",
    "hellqueue.result.win": Plural(
        "🏆 {names} wins with {count} point.",
        "🏆 {names} wins with {count} points.",
    ),
    "hellqueue.result.shared": Plural(
        "🏆 {names} share the win with {count} point.",
        "🏆 {names} share the win with {count} points.",
    ),
    "hellqueue.result.line": Plural(
        "{marker} {name}: {count} point · dice left: {dice}",
        "{marker} {name}: {count} points · dice left: {dice}",
    ),
    # Private panel
    "hellqueue.hand.title": "Your dice — Hell Queue Club",
    "hellqueue.hand.your_turn": "**Your turn** — choose a face group from your active card.",
    "hellqueue.hand.your_turn_empty": "**Your turn** — your active card is empty.",
    "hellqueue.hand.no_action": "No action is possible.",
    "hellqueue.hand.face_chosen": "Face group **{face}**: {dice} — choose what to do with it.",
    "hellqueue.hand.reroll_prompt": "Reroll: the {dice} go to the rest area. Choose the dice to reroll (any of yours on the sleep and active cards, black dice too), then press Reroll.",
    "hellqueue.hand.reroll_phase": "**Your turn** — choose the dice to reroll, then press Reroll.",
    "hellqueue.hand.reroll_chosen": "To reroll: {dice}",
    "hellqueue.hand.your_pick": "**Your pick** — take a stone from the **{number}** card ({n} to take).",
    "hellqueue.hand.waiting": "Waiting for {name}.",
    "hellqueue.hand.waiting_pick": "Waiting for {name} to pick a stone.",
    "hellqueue.hand.over": "The game is over.",
    "hellqueue.hand.you": "{marker} You · ⭐ {score} · {stones}",
    "hellqueue.hand.active": "Active card: {dice}",
    "hellqueue.hand.sleep": "Sleep card: {dice}",
    "hellqueue.hand.rest": "Rest area: yours {n} · black ⚫{black}",
    "hellqueue.hand.card": "**{number}** — {total}/{number} (room {room}) · {stones} · {owners}",
    "hellqueue.hand.choose_face": "Choose a face group",
    "hellqueue.hand.face_option": "Face {face} · {count}",
    "hellqueue.hand.face_option_desc": "large {large} · small {small} · black {black}",
    "hellqueue.hand.queue": "Queue → {number} ({total}→{after})",
    "hellqueue.hand.queue_pays": "Queue → {number} ({total}→{after}: payout!)",
    "hellqueue.hand.queue_steal": "Queue → {number}, take ⚫{face} from {name}",
    "hellqueue.hand.queue_rest": "Queue → {number}, take ⚫ from the rest area",
    "hellqueue.hand.awaken": "Awaken → wake {wake} ×{n}",
    "hellqueue.hand.awaken_none": "Awaken → wakes nothing",
    "hellqueue.hand.reroll": "Reroll…",
    "hellqueue.hand.recall": "Recall ×{n}",
    "hellqueue.hand.back": "Back",
    "hellqueue.hand.choose_dice": "Dice to reroll (none is fine)",
    "hellqueue.hand.die_option": "{size} {face}",
    "hellqueue.hand.reroll_go": "Reroll ×{n}",
    "hellqueue.hand.pick_stone": "{name} (+{gain})",
    # Events
    "hellqueue.event.revealed": "The **{number}** card turns up: {stones}",
    "hellqueue.event.deck_done": "The {number} deck is used up.",
    "hellqueue.event.first_player": "{seat} plays first.",
    "hellqueue.event.queued": "{seat} queued {dice} under the **{number}** ({total}/{number}).",
    "hellqueue.event.black_taken.supply": "{seat} takes a black die from the supply.",
    "hellqueue.event.black_taken.rest": "{seat} takes a black die from the rest area.",
    "hellqueue.event.black_stolen": "{to_seat} takes ⚫{face} from {seat}.",
    "hellqueue.event.no_black": "No black die is left for {seat}.",
    "hellqueue.event.rolled_black": "{seat}'s black die shows {dice}.",
    "hellqueue.event.rolled_reroll": "{seat} rerolled: {dice}",
    "hellqueue.event.rolled_recall": "{seat}'s recalled dice: {dice}",
    "hellqueue.event.rolled_none": "nothing",
    "hellqueue.event.awakened": "{seat} rested {dice} and woke {woken} × {wake}.",
    "hellqueue.event.awakened_none": "{seat} rested {dice} and woke nothing (no sleeping {wake}).",
    "hellqueue.event.reroll_rested": "{seat} rested {dice} to reroll.",
    "hellqueue.event.reroll_chosen": Plural(
        "{seat} chose {count} die to reroll.",
        "{seat} chose {count} dice to reroll.",
    ),
    "hellqueue.event.recalled.rest": "{seat} recalls from the rest area: {count}.",
    "hellqueue.event.recalled.black": "{seat} recalls the black dice from the rest area: {count}.",
    "hellqueue.event.recalled.cards": "{seat} recalls from the distribution cards: {count}.",
    "hellqueue.event.payout": "💰 The **{number}** card is full: payout!",
    "hellqueue.event.roll_off": "{seat} rolls off under the {number}: {sum}.",
    "hellqueue.event.placed": "{place}. {seat}: dice {dice} · large {large} · sum {sum} → stones {stones}",
    "hellqueue.event.picked": "{seat} takes {stone}.",
    "hellqueue.event.returned": "Stones back to the supply: {count}.",
    "hellqueue.event.scored": Plural(
        "{seat}: {count} point · dice left: {dice_left}.",
        "{seat}: {count} points · dice left: {dice_left}.",
    ),
    "hellqueue.event.winner": "🏆 {seat} wins!",
    "hellqueue.event.shared_win": "🏆 {seat} shares the win!",
    # Rules
    "hellqueue.action.queue": "queue {dice} under the {number} card ({total} → {after})",
    "hellqueue.action.queue_steal": "queue {dice} under the {number} card ({total} → {after}), taking ⚫{face} from {name}",
    "hellqueue.action.awaken": "rest {dice} and wake the sleeping {wake}s (×{n})",
    "hellqueue.action.awaken_none": "rest {dice} and wake nothing",
    "hellqueue.action.reroll": "rest {dice} and reroll dice of your choice",
    "hellqueue.action.mark": "choose {n} × {size} {face} on your {where} to reroll",
    "hellqueue.action.roll": Plural(
        "roll the die you chose",
        "roll the {count} dice you chose",
    ),
    "hellqueue.action.roll_none": "reroll nothing",
    "hellqueue.action.recall": "recall your dice (×{n})",
    "hellqueue.action.pick": "take a {stone} stone (+{gain})",
    "hellqueue.reason.wins_most_samples": Plural(
        "{move} Tried once on deals of what you cannot see, up to your next turn, it left you best placed (rating {score}/100).",
        "{move} Tried {count} times on deals of what you cannot see, up to your next turn, it left you best placed (rating {score}/100).",
    ),
    "hellqueue.reason.heuristic": "it tried each move on the table as you see it and this one leaves you best placed against the others.",
    "hellqueue.rules.intro": (
        "**Goal** — queue your oni (dice) under the distribution cards to collect pretty "
        "stones; the best collection wins. 3–4 players.\n"
        "**Your turn** — one action. You always place from your active card all your dice "
        "showing one face: **Queue** them under a card (the dice there may not pass its "
        "number); **Awaken**: put them in the rest area and wake sleeping dice; **Reroll**: "
        "put them in the rest area and reroll dice of your choice. Or **Recall** your dice "
        "from the rest area.\n"
        "**Payout** — a card whose dice reach its number exactly pays out its stones at once, "
        "most dice first.\n"
        "**The end** — when two of the three decks are used up. Stones score in groups of one "
        "colour or of all different colours; the highest total wins."
    ),
    "hellqueue.rules.setup": (
        "**Your area** — one colour each (red, blue, yellow, green, by seat): 5 large and 10 "
        "small dice, a sleep card and an active card. All 15 are rolled at the start: large "
        "dice on the active card, small dice on the sleep card.\n"
        "**The table** — three face-down decks of distribution cards: five 8, four 10, three "
        "12; each deck's top card lies face up with its stones. Beside them the 5 black dice "
        "and the stones (red, blue, yellow, green, aqua, white; 10 each), and the rest area.\n"
        "**Stones on the cards** — (R) 8: RRW · BBR · YYB · GGY · AAG — 10: WWAR · WWGB · AAYR "
        "· AWBY — 12: RBYGAW · RRGGBW · YYBGAW (R = red, B = blue, Y = yellow, G = green, A = "
        "aqua, W = white).\n"
        "**First player** — (R) the host picks it, or the bot picks one at random; then the "
        "turn passes from seat to seat."
    ),
    "hellqueue.rules.turn": (
        "**Placing dice** — each turn is exactly one action. You always place from your active "
        "card one face only, all your dice showing it together (large, small and black alike).\n"
        "**1. Queue** — place a face group under one card if the dice under it (everyone's) "
        "stay at or under its number. The first dice under an empty card bring a black die: "
        "from the supply; if it is empty, from the rest area or an opponent's active card (you "
        "choose). Roll it onto your active card: it is yours from your next turn. (R) With no "
        "black die anywhere, none comes.\n"
        "**2. Awaken** — place a face group in the rest area; your sleeping dice showing that "
        "face move to your active card. If you placed 2 or more dice, you may wake any one "
        "face group of your sleep card instead. (R) Waking nothing is allowed.\n"
        "**3. Reroll** — place a face group in the rest area, then choose any of your dice on "
        "the sleep and active cards (black included; you may split a face group) and reroll "
        "them once: large and black to the active card, small to the sleep card. (R) Choosing "
        "none is allowed. Here you choose them in one multi-select.\n"
        "**4. Recall** — take back all your dice from the rest area and every black die there, "
        "and reroll them (large and black to active, small to sleep). With none of yours there "
        "but black dice, take only the black dice. With neither and an empty active card, take "
        "back all your dice (black ones too) from every card and reroll them."
    ),
    "hellqueue.rules.scoring": (
        "**Payout** — a card whose dice reach its number exactly pays out at once. Rank: most "
        "dice; tie: more large dice (black counts as large); tie: higher sum; still tied: the "
        "tied players reroll their dice there until it breaks. (R) Only when the stones depend "
        "on it.\n"
        "**Stones** — per place: 12: 3/2/1, 10: 2/1/1, 8: 2/1/–; 4th gets nothing. In rank "
        "order each picks stones from the card one at a time. (R) The bot asks you; an AI "
        "picks itself; when one colour is left it is taken for you. Stones left go back to the "
        "supply, the dice there go to the rest area, and the deck's next card turns up.\n"
        "**End** — when two of the three decks are used up.\n"
        "**Scoring** — split your stones into groups, each all one colour or all different "
        "colours; the bot finds the best split. A group of 1–6 scores 1/3/6/10/15/21 "
        "(different colours) or 1/3/6/12/20/30 (one colour). (R) 7 or more of one colour score "
        "n × (n − 1): 42, 56, …\n"
        "**Winner** — the highest total. Tie: more dice left on your active and sleep cards; "
        "(R) black dice on your active card count. (R) Still tied: a shared win."
    ),
    "hellqueue.rules.rulings": (
        "(R) **Players and first player** — 3–4 players, the published count. The rulebook's "
        "first player (whoever was at Jigokudani hot spring most recently) is the host's pick "
        "here, or the bot's random pick.\n"
        "(R) **Stones on the cards** — the card faces are not in the rulebook; each card "
        "carries exactly what its places take. 8: RRW · BBR · YYB · GGY · AAG — 10: WWAR · "
        "WWGB · AAYR · AWBY — 12: RBYGAW · RRGGBW · YYBGAW (R = red, B = blue, Y = yellow, G = "
        "green, A = aqua, W = white).\n"
        "(R) **Picking stones** — in rank order the bot asks each player which stone to take, "
        "one at a time; an AI picks itself; when only one colour is left it is taken for you.\n"
        "(R) **7 or more of one colour** — score n × (n − 1): 42, 56, … (the rulebook's table "
        "stops at 6).\n"
        "(R) **Tie: dice left** — black dice on your active card count.\n"
        "(R) **Still tied** — a shared win (the rulebook settles it by tiger-striped "
        "underwear).\n"
        "(R) **Edge cases** — an Awaken that wakes nothing is legal; the first dice under an "
        "empty card bring no black die when none is left anywhere (supply, rest area, "
        "opponents' active cards); a Reroll may choose no dice; tied players reroll under a "
        "card only when the stones depend on it."
    ),
}
