"""English catalog of Angels & Demons Rummy. Keys must match ja.py exactly."""

from bot.i18n.plural import Plural

CATALOG: dict[str, str | Plural] = {
    # Commands
    "cmd.rummy.name": "rummy",
    "cmd.rummy.desc": "Angels & Demons Rummy: make your goal form before the others (2–4 players)",
    "cmd.rummy.new.desc": "Open a lobby for Angels & Demons Rummy in this channel",
    "cmd.rummy.rules.desc": "Read the rules of Angels & Demons Rummy",
    "cmd.rummy.advanced.name": "advanced",
    "cmd.rummy.advanced": "Advanced rules: red card conditions, Item victory, goals on a discard cost",
    "cmd.rummy.claim_seconds.name": "claim_seconds",
    "cmd.rummy.claim_seconds": "Seconds the players who can claim a discard have to answer (5–300; default 20)",
    "cmd.rummy.match_games.name": "match_games",
    "cmd.rummy.match_games": "Short games in the match (1–50; default: 6 for 2–3 players, 8 for 4)",
    # Errors (detail codes of the rules; those every game shares are in the shared catalog)
    "rummy.error.illegal_move.not_in_field": "That card is not in the field.",
    "rummy.error.illegal_move.not_goal_form": "Your hand is not a goal form (1 small set + 2 big sets).",
    "rummy.error.illegal_move.no_open_set": "A goal needs at least one open set.",
    "rummy.error.illegal_move.ready_cannot_open": "A Ready player cannot open a set.",
    "rummy.error.illegal_move.ready_cannot_gain": "A Ready player cannot gain a discard.",
    "rummy.error.illegal_move.not_a_big_set": "Those cards do not make a big set.",
    "rummy.error.illegal_move.must_discard_taken": "You are Ready: discard the card you just took.",
    "rummy.error.illegal_move.already_ready": "You have already declared Ready.",
    "rummy.error.illegal_move.ready_needs_open_set": "Ready needs at least one open set.",
    "rummy.error.illegal_move.not_ready_form": "Ready only when the 7 cards left are one card from the goal form.",
    "rummy.error.illegal_move.not_ready": "Only a Ready player can goal on another player's discard.",
    "rummy.error.illegal_move.own_discard_completes": "Your own discard row holds a card that would complete your goal: no goal on a discard.",
    "rummy.error.illegal_move.window_closed": "That claim window has closed.",
    "rummy.error.illegal_move.already_answered": "You have already answered this claim window.",
    "rummy.error.illegal_move.not_asked": "You cannot goal or gain with this discard: you have nothing to answer.",
    "rummy.error.illegal_move.not_offered_discard": "{card} is not one of the cards offered to discard.",
    "rummy.error.bad_option.advanced": "The advanced rules option must be on or off.",
    "rummy.error.bad_option.claim_seconds": "The claim window lasts 5 to 300 seconds.",
    "rummy.error.bad_option.match_games": "A match has 1 to 50 short games.",
    "rummy.error.bad_option.target": "The points that end a match must be 1 to 999.",
    # Names
    "rummy.name": "Angels & Demons Rummy",
    "rummy.item.sword": "sword",
    "rummy.item.shield": "shield",
    "rummy.item.potion": "potion",
    "rummy.item.ring": "ring",
    "rummy.ready": "Ready",
    "rummy.seconds": "in {n} s",
    "rummy.option.advanced": "😈 Advanced rules",
    "rummy.option.claim_seconds": Plural(
        "📣 Claim window: {count} second",
        "📣 Claim window: {count} seconds",
    ),
    "rummy.option.match_games": Plural(
        "Match: {count} short game",
        "Match: {count} short games",
    ),
    "rummy.option.match_default": "Match: 6 short games (2–3 players) or 8 (4 players)",
    # Public table
    "rummy.table.title": "{name} — short game {game}/{games}",
    "rummy.table.to_take": "**{name}** takes a field card.",
    "rummy.table.to_act": "**{name}** opens a big set or discards.",
    "rummy.table.to_act_ready": "**{name}** (Ready) goals or discards the card just taken.",
    "rummy.table.window": "**Claim window** on {card}, discarded by **{name}** — closes {when}.",
    "rummy.table.answer": "Answer the claim window",
    "rummy.table.ended": "**Short game {game} is over.** {name} deals short game {next} from their hand.",
    "rummy.table.field": Plural(
        "**Field** {cards} · Deck: **{count}** card",
        "**Field** {cards} · Deck: **{count}** cards",
    ),
    "rummy.table.hand_size": Plural(
        "{count} card in hand",
        "{count} cards in hand",
    ),
    "rummy.table.score": Plural(
        "**{count}** point",
        "**{count}** points",
    ),
    "rummy.table.opened": "open: {sets}",
    "rummy.table.row": "discards: {cards}",
    "rummy.table.legend": "{human} Human · {angel} Angel · {demon} Demon · {items} Items · {red} red card · {ready} Ready",
    "rummy.table.target": Plural(
        "first to {count} point wins",
        "first to {count} points wins",
    ),
    "rummy.result.title": "Result",
    "rummy.result.short_title": "Short game {game}",
    "rummy.result.goal_take": "🏆 **{name}** goals after taking {card}!",
    "rummy.result.goal_discard": "🏆 **{name}** goals with {card} from {from_name}'s discard!",
    "rummy.result.hand": "Hand: {sets}",
    "rummy.result.opened": "Open sets: {sets} → **{points}**",
    "rummy.result.red": "Red cards: {cards} → **{points}**",
    "rummy.result.red_none": "Red cards: none → **0**",
    "rummy.result.red_plain": "{card} +{points}",
    "rummy.result.red_condition": "{card} ({condition}) {mark} +{points}",
    "rummy.result.flip": "{card} +{points}",
    "rummy.result.bonus": "Bonus checks: {flips} → **{points}**",
    "rummy.result.bonus_none": "Bonus checks: none (the deck is empty) → **0**",
    "rummy.result.total": Plural(
        "**{name}** scores **{count}** point.",
        "**{name}** scores **{count}** points.",
    ),
    "rummy.result.loss": Plural(
        "{name} loses {count} point: the goal was on their discard.",
        "{name} loses {count} points: the goal was on their discard.",
    ),
    "rummy.result.deck_out": "Short game {game}: the deck ran out — no score.",
    "rummy.result.item_victory": "🗡️ **{name}** has 3 open sets of Item cards only and wins the match at once!",
    "rummy.result.item_sets": "Open sets: {sets}",
    "rummy.result.summary": "Short game {game}: 🏆 {name} +{points} (sets {sets} · red {red} · bonus {bonus})",
    "rummy.result.match_win": "🏆 **{names}** wins the match with {points} after {games}.",
    "rummy.result.match_shared": "🏆 **{names}** share the win with {points} after {games}.",
    "rummy.short_games": Plural("{count} short game", "{count} short games"),
    "rummy.result.match_item": "🗡️ **{names}** wins the match by an Item victory in short game {games}.",
    "rummy.result.standing": Plural(
        "{name}: {count} point",
        "{name}: {count} points",
    ),
    "rummy.condition.ends": "1/7: every set uses a 1, a 7 or an Item",
    "rummy.condition.no_ends": "2/6: no set uses a 1, a 7 or an Item",
    "rummy.condition.three_open": "3/5: 3 or more open sets",
    "rummy.condition.one_attribute": "4: one attribute plus Items only",
    "rummy.condition.item": "Item: no condition",
    # Private hand
    "rummy.hand.title": "Your hand — Angels & Demons Rummy",
    "rummy.hand.cards": "**Your hand** ({n}): {cards}",
    "rummy.hand.opened": "Your open sets: {sets}",
    "rummy.hand.row": "your discards: {cards}",
    "rummy.hand.open_count": "open sets: {n}",
    "rummy.hand.waiting": "Waiting for {name}.",
    "rummy.hand.your_take": "**Your turn** — take a field card.",
    "rummy.hand.take": "Take {card}",
    "rummy.hand.your_act": "**Your turn** — open a big set (then draw 2), or choose a card to discard.",
    "rummy.hand.your_act_goal": "**Your turn** — your hand is a goal form: **goal**, or open a big set, or discard.",
    "rummy.hand.your_act_ready": "**Your turn** — you are Ready: discard the card you took, {card}.",
    "rummy.hand.your_act_ready_goal": "**Your turn** — you are Ready and {card} completes your goal: **goal**, or discard it.",
    "rummy.hand.goal": "Goal!",
    "rummy.hand.open": "Open {cards}",
    "rummy.hand.choose_discard": "Choose a card to discard…",
    "rummy.hand.ready_possible": "Ready possible",
    "rummy.hand.chosen": "Discard {card}?",
    "rummy.hand.discard": "Discard {card}",
    "rummy.hand.discard_ready": "Discard {card} and declare Ready",
    "rummy.hand.window": "**Claim window**: **{name}** discarded {card}, and you can claim it. Claim it or pass — closes {when}.",
    "rummy.hand.window_own": "**Claim window** on your discard {card}: whoever can claim it is answering — closes {when}.",
    "rummy.hand.window_answered": "**Claim window**: you answered **{answer}**. It closes {when} at the latest.",
    "rummy.hand.window_not_asked": "**Claim window** on {card}, discarded by **{name}**: you cannot goal or gain with it, so you have nothing to answer. Play goes on when it closes, {when} at the latest.",
    "rummy.hand.pass": "Pass",
    "rummy.hand.claim_goal": "Goal with it!",
    "rummy.hand.gain": "Gain with {cards}",
    "rummy.hand.next_button": "Deal short game {next}",
    "rummy.hand.start_next": "You start short game {next}: deal it when everyone has read the score.",
    "rummy.hand.waiting_next": "Waiting for {name} to deal short game {next}.",
    "rummy.answer.pass": "Pass",
    "rummy.answer.goal": "Goal",
    "rummy.answer.gain": "Gain with {cards}",
    # Events
    "rummy.event.dealt": Plural(
        "Short game {game}: {count} card each; field {cards}; deck {deck}.",
        "Short game {game}: {count} cards each; field {cards}; deck {deck}.",
    ),
    "rummy.event.first_player": "{seat} starts short game {game}.",
    "rummy.event.field": "The field was empty: {cards} turned up.",
    "rummy.event.took": "{seat} took {cards}.",
    "rummy.event.opened": "{seat} opened {cards}.",
    "rummy.event.drew": Plural(
        "{seat} drew {count} card.",
        "{seat} drew {count} cards.",
    ),
    "rummy.event.discarded": "{seat} discarded {cards}.",
    "rummy.event.ready": "🎯 {seat} declared Ready!",
    "rummy.event.window_closed": "⏰ Time is up: the claim window closed.",
    "rummy.event.gained": "🤲 {seat} gained {to_seat}'s discard and opened {cards}.",
    "rummy.event.goal_take": "🏆 {seat} goals!",
    "rummy.event.goal_discard": "🏆 {seat} goals on {to_seat}'s discard!",
    "rummy.event.bonus": "Bonus check: {cards} → +{points}.",
    "rummy.event.bonus_empty": "No bonus check: the deck is empty.",
    "rummy.event.scored": Plural(
        "{seat} scores {count} point ({score} in all).",
        "{seat} scores {count} points ({score} in all).",
    ),
    "rummy.event.lost_points": Plural(
        "{seat} loses {count} point ({score} in all).",
        "{seat} loses {count} points ({score} in all).",
    ),
    "rummy.event.deck_out": "The deck ran out: short game {game} ends with no score.",
    "rummy.event.item_victory": "🗡️ {seat} has 3 open Item sets and wins the match!",
    "rummy.event.match_over": "The match is over. Winner: {names}.",
    "rummy.event.you_drew": "You drew {cards}.",
    "rummy.event.you_answered": "You answered: {answer}.",
    "rummy.event.claim_lost": "Your claim lost to a claim with priority.",
    # Rules
    "rummy.action.take": "take {card} from the field",
    "rummy.action.goal": "call goal",
    "rummy.action.goal_claim": "call goal with the discard {card}",
    "rummy.action.open": "open {cards} as a big set and draw 2",
    "rummy.action.discard": "discard {card}",
    "rummy.action.discard_ready": "discard {card} and declare Ready",
    "rummy.action.pass": "pass",
    "rummy.action.gain": "gain the discard {card} with {cards} and draw 2",
    "rummy.action.next": "deal short game {next}",
    "rummy.reason.wins_most_samples": Plural(
        "{move} Tried once on deals of the cards you cannot see, up to your next turn, it left your hand best placed (rating {score}/100).",
        "{move} Tried {count} times on deals of the cards you cannot see, up to your next turn, it left your hand best placed (rating {score}/100).",
    ),
    "rummy.reason.heuristic": "it leaves your hand closest to a goal, with the most unseen cards that help and the least risk of feeding the others.",
    "rummy.reason.completes_goal": "this field card completes your goal form: take it and goal now, rather than waiting for someone's discard.",
    "rummy.rules.intro": (
        "**Goal** — make the goal form and goal first: the 8 cards in your hand make exactly 1 "
        "small set (2 cards) and 2 big sets (3 cards), and you have at least one set open. A "
        "goal scores points; after a set number of short games, or once someone reaches the "
        "target, the most points win.\n"
        "**Your turn** — (1) take a field card; you may goal now. (2) Open a big set from your "
        "hand and draw 2, or discard a card into your row (one card short of the goal form, "
        "you may declare Ready as you discard).\n"
        "**Claims** — a discard may complete a Ready player's goal; otherwise someone may gain "
        "it: open it with 2 hand cards as a big set.\n"
        "**The end of a short game** — someone goals, or the deck runs out (no score)."
    ),
    "rummy.rules.setup": (
        "**Cards** (100) — Human, Angel, Demon: titles 1–7, four of each (one red, three "
        "black); Items ((R) sword, shield, potion, ring): four of each (one red). Red and "
        "black of one title are the same card for sets and bonus checks.\n"
        "**Sets** — small: 2 of one attribute and title. Big: a group (3 of one attribute and "
        "title) or a run (3 consecutive numbers of one attribute; no 7–1 wrap; no Items).\n"
        "**Goal form** — (R) always the 8 cards in hand: exactly 1 small + 2 big sets; open "
        "sets are extra.\n"
        "**Short game** — 7 cards each; players + 1 cards face up as the field. The first "
        "player is random in the first short game (the host may choose when starting), then "
        "the next one to the left. The next short game is dealt by its first player.\n"
        "**Match** — 6 short games (2–3 players) or 8 (4), or until someone has 24 / 18 / 12 "
        "points (2 / 3 / 4 players); both are table options."
    ),
    "rummy.rules.turn": (
        "**1. Take** — take one field card into your hand (an empty field is refilled first: "
        "players + 1 cards). You may goal now.\n"
        "**2. Open or discard** — open one big set from your hand face up and draw 2 (no "
        "discard this turn), or discard one card face up into your row.\n"
        "**Ready** — when you discard and your 7 cards are one card from the goal form, you "
        "may declare Ready. (R) Only with an open set, and while the missing card still "
        "exists. Ready, you may not open or gain, and must discard the card you took unless it "
        "completes your goal.\n"
        "**Claim window** — (R) after every discard, the players who can goal or gain with "
        "that card are asked at once; a player who cannot claim is not asked. The window "
        "closes when all of them have answered or at the time limit (default 20 s; AI seats "
        "decide at once); when nobody can claim, none opens. The table shows that a window is "
        "open and its time left, not who is asked. Priority, not speed: a Ready player's Goal "
        "beats any Gain, then the nearest after the discarder. Gain: open the card with 2 hand "
        "cards as a big set and draw 2 (not when Ready). Only the winning claim is shown; a "
        "claimed card leaves the discarder's row. The turn then passes to the discarder's "
        "left, even after a Gain.\n"
        "**Goal** — needs the goal form, at least 1 open set and, on another's discard, Ready. "
        "(R) A goal comes only right after a take, or on another's discard when Ready.\n"
        "**Playing here** — your hand offers only legal moves: Take buttons, Goal, Open "
        "buttons, then a card to discard (with Ready where it applies). In a claim window you "
        "answer privately: a claim, or Pass."
    ),
    "rummy.rules.scoring": (
        "**Score** — a goal scores 1 per open set and 1 per red card in your open sets and "
        "hand. Then the bonus check: turn up the deck's top card; 1 per card of your open sets "
        "and hand with its attribute and title. (R) Check again while it scores; none once the "
        "deck is empty.\n"
        "**Deck-out** — if the deck cannot refill the field or give the 2 cards after an open "
        "or a gain, the short game ends with no score (emptying it exactly is fine; it still "
        "counts as a short game).\n"
        "**Match end** — after the set number of short games, or as soon as someone reaches "
        "the target. The most points win; (R) a tie is a shared win.\n"
        "**Advanced rules** — red cards score by condition, Item victory, and a goal on a "
        "discard costs the discarder: see Variants."
    ),
    "rummy.rules.options": (
        "**Advanced rules** (a table option):\n"
        "· Red cards score by their condition instead of 1 each; all sets = your open sets + "
        "the three sets of your hand's goal form (the bot splits your hand the best way). 1/7: "
        "2 if every set uses a 1, a 7 or an Item. 2/6: 2 if no set uses one. 3/5: 2 with 3 or "
        "more open sets. 4: 5 if all sets use one attribute plus Items only. (R) Red Items: 1, "
        "no condition. Each red card scores its own.\n"
        "· (R) Item victory: 3 or more open sets made only of Items win the match at once "
        "(checked as a set is opened, before drawing).\n"
        "· No goal on another's discard while your own row holds a card that would complete "
        "your goal (cards others took from it do not count).\n"
        "· A goal on another's discard costs the discarder the points scored, bonus included "
        "(not below 0)."
    ),
    "rummy.rules.rulings": (
        "(R) **The name** — the rulebook has no title; “Angels & Demons Rummy” is this bot's "
        "working name.\n"
        "(R) **Item titles** — the 16 Items are 4 picture titles, sword, shield, potion and "
        "ring, four of each (three black, one red).\n"
        "(R) **Claim window** — after every discard, the players who can goal or gain with "
        "that card are asked at once (buttons on the table, plus a private prompt); a player "
        "who cannot claim is not asked and has nothing to answer. The window closes when all "
        "of them have answered or after the time limit (default 20 s; an AI decides at once); "
        "when nobody can claim, no window opens. The table shows that a window is open and its "
        "time left, not who is asked. Priority as in the rulebook: a Ready player's goal "
        "first, then a gain; the nearest after the discarder first.\n"
        "(R) **Goal form** — always the 8 cards in hand; open sets are extra. After an open or "
        "a gain the hand holds 7, so the rulebook's “you may goal now” after those steps "
        "cannot apply: a goal comes only right after a take, or on another's discard when "
        "Ready.\n"
        "(R) **Ready** — only for a player with at least one open set (a Ready player may not "
        "open or gain, and a goal needs an open set, so they could never goal), and only while "
        "the missing card still exists; the bot does not offer it otherwise.\n"
        "(R) **Bonus check** — always check again while a check scores; none once the deck is "
        "empty.\n"
        "(R) **Tie** — players tied for the most points at the end of the match share the win.\n"
        "(R) **Red Items** (advanced) — 1 point each, no condition.\n"
        "(R) **Item victory** (advanced) — whoever has 3 or more open sets made only of Items "
        "wins the whole match at once, checked whenever a set is opened (before drawing)."
    ),
}
