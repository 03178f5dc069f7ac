"""English catalog of Exhaust. Keys must match ja.py exactly."""

from bot.i18n.plural import Plural

CATALOG: dict[str, str | Plural] = {
    # Commands
    "cmd.exhaust.name": "exhaust",
    "cmd.exhaust.desc": "Exhaust: cast spells until your magic runs out (1–5 players)",
    "cmd.exhaust.new.desc": "Open a lobby for Exhaust in this channel (alone: solo against the NPC)",
    "cmd.exhaust.rules.desc": "Read the rules of Exhaust",
    "cmd.exhaust.long_game.name": "long_game",
    "cmd.exhaust.long_game": "Long variant: play several games; 2 depletion cards lose the match",
    "cmd.exhaust.npc_size.name": "npc_size",
    "cmd.exhaust.npc_size": "Solo: cards in the NPC pile (5–49; default: your level, 15 at first)",
    # Errors (detail codes of the rules)
    "exhaust.error.illegal_move.no_cards": "Choose at least one card.",
    "exhaust.error.illegal_move.duplicate_card": "A card was chosen twice.",
    "exhaust.error.illegal_move.unknown_card": "That is not a spell card.",
    "exhaust.error.illegal_move.copy_alone": "A copy card cannot be played alone: add a number card.",
    "exhaust.error.illegal_move.copy_target_missing": "Choose which card each copy card copies.",
    "exhaust.error.illegal_move.bad_copy_target": "A copy card can only copy a number card of the same play.",
    "exhaust.error.illegal_move.wrong_count": Plural(
        "This combo takes exactly {count} card.",
        "This combo takes exactly {count} cards.",
    ),
    "exhaust.error.illegal_move.wrong_colour": "That card is not of this Single's colour.",
    "exhaust.error.illegal_move.numbers_differ": "All cards of this combo must show the same number.",
    "exhaust.error.illegal_move.number_too_low": "Too low: this combo needs {need} or higher.",
    "exhaust.error.illegal_move.too_few_cards": "Too few cards: this combo needs at least {need}.",
    "exhaust.error.illegal_move.not_consecutive": "A Straight needs consecutive numbers (no gaps, no doubles, no wrap).",
    "exhaust.error.illegal_move.colours_differ": "A Flush needs cards of one colour.",
    "exhaust.error.illegal_move.no_time_card": "You have no time magic card.",
    "exhaust.error.illegal_move.no_depletion_card": "You have no face-up depletion card to flip.",
    "exhaust.error.illegal_move.bad_combo": "That combo is not on the table.",
    "exhaust.error.bad_option.npc_size": "The NPC pile must have 5 to 49 cards.",
    "exhaust.error.bad_option.long_game": "The long variant option must be on or off.",
    # Names
    "exhaust.name": "Exhaust",
    "exhaust.npc": "🤖 NPC",
    "exhaust.copy": "copy",
    "exhaust.combo.single": "Single",
    "exhaust.combo.pair": "Pair",
    "exhaust.combo.three": "Three",
    "exhaust.combo.four": "Four",
    "exhaust.combo.straight": "Straight",
    "exhaust.combo.flush": "Flush",
    "exhaust.combo.any": "Any",
    "exhaust.need.number": "{n}+",
    "exhaust.need.none": "closed (15 is on top)",
    "exhaust.need.count": Plural(
        "{count}+ card",
        "{count}+ cards",
    ),
    "exhaust.option.long_game": "🪫 Long variant: 2 depletion cards lose the match",
    "exhaust.option.npc_size": Plural(
        "🤖 Alone: solo against the NPC with a pile of {count} card",
        "🤖 Alone: solo against the NPC with a pile of {count} cards",
    ),
    "exhaust.option.solo": Plural(
        "Solo: NPC pile {count} card",
        "Solo: NPC pile {count} cards",
    ),
    # Public table
    "exhaust.table.title_long": "{name} — game {game}",
    "exhaust.table.combo": "**{name}** — {cards} (stack: {plays}) → next: **{need}**",
    "exhaust.table.combo_empty": "**{name}** — empty → next: **{need}**",
    "exhaust.table.piles_title": "Piles",
    "exhaust.table.piles": "Refill pile: **{refill}** · ⏳ Time magic pile: **{time}**",
    "exhaust.table.depletion_pile": "🪫 Depletion pile: **{n}**",
    "exhaust.table.players": "Players",
    "exhaust.table.cards": Plural(
        "{count} card",
        "{count} cards",
    ),
    "exhaust.table.npc": Plural(
        "**{name}** — hand space: {hand} · pile: {count} card",
        "**{name}** — hand space: {hand} · pile: {count} cards",
    ),
    "exhaust.table.next_title": "Next game",
    "exhaust.table.next": "{name} lost game {game} and starts game {next}: they press “Start game {next}” in their hand.",
    "exhaust.table.legend": "🔥 red · 💧 blue · 🌪️ yellow · 🌱 green · 📜 copy · ⏳ time magic · 🪫 depletion",
    "exhaust.depletion.face_up": "{n} face up",
    "exhaust.depletion.flipped": "{n} flipped",
    "exhaust.result.title": "Result",
    "exhaust.result.game": "💀 **{loser}** could not cast a spell and fails. 🎓 Winners: {winners}.",
    "exhaust.result.match": Plural(
        "💀 **{loser}** holds 2 depletion cards and loses the match after {count} game. 🎓 Winners: {winners}.\nDepletion cards: {tally}",
        "💀 **{loser}** holds 2 depletion cards and loses the match after {count} games. 🎓 Winners: {winners}.\nDepletion cards: {tally}",
    ),
    "exhaust.result.solo_win": "🎉 You beat the NPC with a pile of {pile}! Next time: **{next}**.",
    "exhaust.result.solo_loss": "💀 The NPC outlasted you (pile of {pile}). Next time: **{next}**.",
    # Private hand
    "exhaust.hand.title": "Your hand — Exhaust",
    "exhaust.hand.empty": "Your hand is empty.",
    "exhaust.hand.time": "⏳ Time magic: {n}",
    "exhaust.hand.your_turn": "**Your turn** — cast spells on a combo, or use a time card.",
    "exhaust.hand.waiting": "Waiting for {name}.",
    "exhaust.hand.start_next": "**You lost the last game**, so you start game {next}.",
    "exhaust.hand.next_button": "Start game {next}",
    "exhaust.hand.waiting_next": "Waiting for {name} to start game {next}.",
    "exhaust.hand.no_spell": "No combo takes any of your cards: use a time card or flip your depletion card.",
    "exhaust.hand.choose_combo": "1. Choose a combo",
    "exhaust.hand.combo_option": "Top: {top} · next: {need}",
    "exhaust.hand.combo_option_empty": "Empty · next: {need}",
    "exhaust.hand.choose_cards": "2. Choose the cards",
    "exhaust.hand.choose_cards_for": "Choose the cards to cast on **{combo}**.",
    "exhaust.hand.chosen": "Chosen for **{combo}**: {cards}",
    "exhaust.hand.copy_prompt": "3. Choose which card copy card {n} of {of} copies.",
    "exhaust.hand.copy_placeholder": "3. Copy card {n}/{of} copies…",
    "exhaust.hand.ready": "✅ Ready: press Play.",
    "exhaust.hand.play": Plural(
        "Play {count} card",
        "Play {count} cards",
    ),
    "exhaust.hand.use_time": "Use time magic",
    "exhaust.hand.flip": "Flip depletion card",
    "exhaust.hand.clear": "Clear",
    # Events
    "exhaust.event.dealt": Plural(
        "Game {game}: {count} card each; refill pile {refill}.",
        "Game {game}: {count} cards each; refill pile {refill}.",
    ),
    "exhaust.event.dealt_solo": Plural(
        "Game {game}: you get {count} card, the NPC pile {npc_pile}; refill pile {refill}.",
        "Game {game}: you get {count} cards, the NPC pile {npc_pile}; refill pile {refill}.",
    ),
    "exhaust.event.first_player": "{seat} starts game {game}.",
    "exhaust.event.played": "{seat} cast {cards} on {combo}.",
    "exhaust.event.reward_spell": "{seat} draws a card from the refill pile (Pair reward).",
    "exhaust.event.reward_none.spell": "{seat} gets no card: the refill pile is empty.",
    "exhaust.event.reward_none.time": "{seat} gets no time card: the pile is empty.",
    "exhaust.event.reward_time": Plural(
        "{seat} takes {count} time card.",
        "{seat} takes {count} time cards.",
    ),
    "exhaust.event.reward_time_short": Plural(
        "{seat} takes {count} time card — only {count} of {due} was left.",
        "{seat} takes {count} time cards — only {count} of {due} were left.",
    ),
    "exhaust.event.used_time": "{seat} uses a time magic card.",
    "exhaust.event.flipped": "{seat} flips their depletion card face down.",
    "exhaust.event.next_game": "{seat} starts game {game}.",
    "exhaust.event.npc_filled": "The NPC fills its hand space: {cards}.",
    "exhaust.event.npc_drew": "The NPC cannot cast and draws {cards}.",
    "exhaust.event.npc_played": "The NPC casts {cards} on {combo}.",
    "exhaust.event.npc_reward_spell": "The NPC puts a card face down on its pile (Pair reward).",
    "exhaust.event.npc_reward_none.spell": "The NPC gets no card: the refill pile is empty.",
    "exhaust.event.npc_reward_none.time": "The NPC gets no time card: the pile is empty.",
    "exhaust.event.npc_reward_time": Plural(
        "The NPC takes {count} time card.",
        "The NPC takes {count} time cards.",
    ),
    "exhaust.event.npc_reward_time_short": Plural(
        "The NPC takes {count} time card — only {count} of {due} was left.",
        "The NPC takes {count} time cards — only {count} of {due} were left.",
    ),
    "exhaust.event.npc_used_time": "The NPC uses a time magic card.",
    "exhaust.event.npc_lost": "The NPC cannot act any more — it is exhausted!",
    "exhaust.event.loser": "{seat} cannot act and loses game {game}!",
    "exhaust.event.depletion": "{seat} takes a depletion card ({count} now).",
    "exhaust.event.match_loser": "{seat} holds 2 depletion cards and loses the match!",
    "exhaust.event.you_drew": "You drew {cards} from the refill pile.",
    # Rules
    "exhaust.stats.level": "level {n}",
    "exhaust.stats.solo_wins": Plural("{count} solo win", "{count} solo wins"),
    "exhaust.history.solo_win": "🎉 Beat the NPC at level {n}",
    "exhaust.history.solo_loss": "💀 Lost to the NPC at level {n}",
    "exhaust.history.loser": "💀 {name} failed; everyone else survived",
    "exhaust.hand.empty_other": "no cards",
    "exhaust.action.play": "cast {cards} on {combo}",
    "exhaust.action.time": "return a time magic card to the pile",
    "exhaust.action.flip": "flip your depletion card face down",
    "exhaust.action.next": "start game {next}",
    "exhaust.reason.only_move": "it is the only thing you can do.",
    "exhaust.reason.next_game": "you lost the last game, so you start the next one.",
    "exhaust.reason.spends_time_card": "returning a time card keeps every spell card for later.",
    "exhaust.reason.flips_depletion": "flipping it is a one-time pass that keeps every card.",
    "exhaust.reason.blocks_single": "a 15 on Single closes it: nobody can cast there any more.",
    "exhaust.reason.single": "one card on Single is the cheapest play.",
    "exhaust.reason.pair_draws_card": "a Pair draws you a card from the refill pile.",
    "exhaust.reason.earns_time_card": "the play earns you a time magic card.",
    "exhaust.reason.earns_two_time_cards": "a Four earns you two time magic cards.",
    "exhaust.reason.no_reward_left": "it gets cards out of your hand, though its reward pile is empty.",
    "exhaust.rules.intro": (
        "**Goal** — cast spells until your magic runs out: the one player who cannot act "
        "loses, everyone else wins.\n"
        "**Your turn** — exactly one action: **A** play 1 or more spell cards on one combo, "
        "following its rule (Single, Pair, Three and Four need a higher number than the cards "
        "already there; Straight, Flush and Any more cards than the last play there); or **B** "
        "return one of your time cards ⏳ to the pile. Some combos reward you with a card or "
        "time cards.\n"
        "**The end** — if you can do neither, you lose at once and the game is over.\n"
        "**Variants** — a long match of several games, or solo against the NPC."
    ),
    "exhaust.rules.setup": (
        "**Cards** — 64 spell cards: 1–15 in red 🔥, blue 💧, yellow 🌪️ and green 🌱, plus 4 copy "
        "cards 📜. 16 time magic cards ⏳ form a common pile; nobody has any at the start.\n"
        "**Combos** — each with its own stack on the table: Single (1–2 players: one, any "
        "colour; 3 players: red-or-yellow and blue-or-green; 4–5 players: one per colour), "
        "Pair, Three, Four, Straight, Flush and Any.\n"
        "**Deal** — (R) 2–4 players get 15 cards each, 5 players 12. The cards left over form "
        "the face-down refill pile.\n"
        "**First player** — (R) random (the host may pick one when starting); then play goes "
        "round from seat to seat."
    ),
    "exhaust.rules.turn": (
        "**A — play spells** — choose one combo and play cards from your hand on it:\n"
        "· Single: 1 card of its colour. Pair / Three / Four: 2 / 3 / 4 cards of one number.\n"
        "· Straight: 3 or more consecutive numbers, any colours, no wrap. Flush: 3 or more "
        "cards of one colour. Any: 3 or more cards of anything, allowed even when they would "
        "fit another combo.\n"
        "**Beat the stack** — Single, Pair, Three, Four: the number must be higher than every "
        "card already on that combo. Straight, Flush, Any: the first play there has 3 or more "
        "cards; each later play has more cards than the previous play on that combo.\n"
        "**Rewards** — Pair: draw 1 card from the refill pile. Three, Straight, Flush, Any: 1 "
        "time card. Four: 2 time cards. Single: none. An empty pile gives nothing; (R) if 2 "
        "are due and only 1 is left, you take 1.\n"
        "**Copy cards** — never played alone. Each copy becomes an exact duplicate (colour and "
        "number) of one number card in the same play; you choose which. (R) Several copies in "
        "one play are allowed; a copy counts as that card for every rule.\n"
        "**B — time magic** — return one of your time cards to the pile; allowed even when you "
        "could play.\n"
        "**Playing here** — in your hand: choose a combo, then the cards, then for each copy "
        "the card it copies, then Play."
    ),
    "exhaust.rules.options": (
        "**Long variant** — several games. Each game's loser takes a depletion card 🪫; whoever "
        "holds 2 loses the match and all others win. A face-up depletion card gives a third "
        "action: **C** flip it face down (a one-time pass). (R) A flipped card stays flipped "
        "for the rest of the match; the previous game's loser starts the next game.\n"
        "**Solo** — one player against the NPC, with one Single of any colour. You get 15 "
        "cards and start. The NPC pile gets N cards: your level, 15 at first and +1 after each "
        "win (the bot remembers it; `npc_size` overrides it). Before each NPC turn its face-up "
        "hand space is filled up to 5 cards from its pile.\n"
        "**The NPC's turn** — it tries Single > Four > Three > Pair > Straight > Flush > Any "
        "and plays the first that works, lowest numbers first; (R) the minimum count on "
        "Straight, Flush and Any, a copy card only when nothing else can be played, equal "
        "choices picked at random. If it cannot play, it draws one card at a time from its "
        "pile (its hand space may grow past 5) and retries; with its pile empty it spends a "
        "time card; with none, the NPC loses and you win. Its time cards go on the NPC card; a "
        "spell-card reward goes face down on top of its pile. The refill pile is what is left "
        "after dealing both."
    ),
    "exhaust.rules.rulings": (
        "(R) **Rewards** — if 2 time cards are due and only 1 is left in the pile, you take "
        "that 1.\n"
        "(R) **Copy cards** — several copies in one play are allowed; each counts as the card "
        "it copies for every rule.\n"
        "(R) **Deal** — 2–4 players 15 cards each, 5 players 12; the cards left over form the "
        "face-down refill pile that a Pair's reward draws from.\n"
        "(R) **First player** — random (the host may pick one when starting).\n"
        "(R) **Long variant** — a flipped depletion card stays flipped for the rest of the "
        "match; the previous game's loser starts the next game.\n"
        "(R) **The NPC** (solo) — on Straight, Flush and Any it plays the minimum count "
        "needed; it uses a copy card only when nothing else can be played; where the rulebook "
        "lets the player choose between equal options, the bot picks at random."
    ),
    "exhaust.ratings.npc": "🤖 NPC (level {n})",
}
