"""The `GameUI` defaults for records, stats, history and replays, on a game that overrides none
of them: the toy dice race, a competitive game whose outcome names winners and scores points
(as Hell Queue Club and Angels & Demons Rummy do). A new game of that kind needs no shared code
change and no override to be recorded, counted, listed and replayed."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from toygame import RULES, Vote

from bot.context import Context
from bot.game_ui import ACCENT, LOST, WON, GameUI, places_by_points
from bot.i18n import t
from bot.replay_turns import replay_turn, target, turn_ends
from bot.results import Results
from bot.ui.competitive import CompetitiveUI
from bot.ui.layout import Button, Controls, Layout, Priority, Text, game_verb
from games.engine import CHANCE, Event, Seat, Session, SessionRecord, Status
from games.engine.step import LoggedAction, advance
from storage import GameRecord, HistoryEntry, Storage, StoredSeat, open_storage

GUILD, ALICE = 1, 100


class DiceRaceUI(GameUI):
    """Only what every game must draw: no record, stats, history or replay override."""

    game_id = RULES.game_id

    def option_lines(
        self, options: dict[str, Any], lang: str, players: int | None = None
    ) -> list[str]:
        return []

    def table(self, ctx: Context) -> Layout:
        totals = ctx.session.state.totals
        return Layout("race", (Text(" · ".join(map(str, totals)), Priority.ESSENTIAL),))

    def hand(self, ctx: Context, seat: int, pick: str | None) -> Layout:
        total = ctx.session.state.totals[seat]
        blocks = (
            Text(f"total {total}", Priority.ESSENTIAL),
            Controls((Button(game_verb("vote.1"), "yes"),)),
        )
        return Layout("hand", blocks, session=ctx.sid, version=ctx.version)

    def control(
        self, ctx: Context, seat: int, verb: str, args: list[str], values: Sequence[str]
    ) -> Any:
        return Vote(yes=True)

    def event_text(self, event: Event, ctx: Context) -> str | None:
        return event.key

    def action_text(self, ctx: Context, seat: int, action: Any) -> str:
        return repr(action)


def finished(seed: int = 2) -> tuple[Session, list[LoggedAction]]:
    """A whole dice race of three seats (alice and two AI), as the service logs it."""
    config = RULES.make_config(3, {"target": 8})
    rng = random.Random(seed)
    step = advance(RULES, RULES.setup(config), 0, 0, None, seed)
    state, log = step.state, list(step.logged)
    while not RULES.is_over(state):
        seat = min(RULES.to_move(state).seats)
        action = rng.choice(list(RULES.legal_actions(state, seat)))
        step = advance(RULES, state, len(log), seat, action, seed)
        state, log = step.state, [*log, *step.logged]
    record = SessionRecord(
        id="0badcafe",
        game_id=RULES.game_id,
        rules_version=1,
        guild_id=GUILD,
        channel_id=10,
        host_id=ALICE,
        locale="en",
        options={"target": 8},
        seed=seed,
        status=Status.FINISHED,
        version=len(log),
        seats=(Seat(user_id=ALICE, name="alice"), *[Seat(user_id=None, name="")] * 2),
        config=config.model_dump(mode="json"),
    )
    return Session(record, RULES, config, state), log


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await open_storage(tmp_path / "bot.db")
    yield opened
    await opened.close()


def test_the_default_seat_results_follow_the_winners_and_keep_the_points() -> None:
    session, _ = finished()
    outcome = RULES.outcome(session.state)
    assert outcome is not None
    seats = DiceRaceUI().seat_results(session)
    assert seats is not None and len(seats) == 3
    for seat, result in enumerate(seats):
        assert result.won == (seat in outcome.winners)
        assert result.score == -outcome.scores[seat]  # lower is better: points stored negated
        assert result.result == ("win" if result.won else "loss")


def test_the_default_record_keeps_the_winning_points() -> None:
    session, _ = finished()
    result = DiceRaceUI().result(session)
    assert result is not None and result.won
    assert result.score == -max(session.state.totals)


def test_the_default_words_show_points_and_winners() -> None:
    ui = DiceRaceUI()
    assert ui.score_text("en", -12, 3) == t("en", "stats.points", count=12)
    record = GameRecord(1, GUILD, 10, "dicerace", "0badcafe", "win", -9, 3, {}, 0.0, True)
    seats = tuple(StoredSeat(i, None, "", won=i == 1, score=-(7 + i), result="") for i in range(3))
    text = ui.history_text("en", HistoryEntry(record, seats, None), ["alice", "AI 2", "AI 3"])
    assert t("en", "history.winners", names="AI 2") in text
    assert f"alice {t('en', 'stats.points', count=7)}" in text
    nobody = tuple(StoredSeat(i, None, "", won=False, score=None, result="") for i in range(3))
    empty = HistoryEntry(record, nobody, None)
    assert ui.history_text("en", empty, ["a", "b", "c"]) == t("en", "history.no_winner")


async def test_a_default_game_is_recorded_counted_and_ranked(storage: Storage) -> None:
    ui = DiceRaceUI()
    results = Results(storage.records, storage.ratings, storage.sessions, {ui.game_id: ui})
    session, _ = finished()
    await results.store(session)
    await results.store(session)  # once only
    outcome = RULES.outcome(session.state)
    assert outcome is not None
    [all_counts, three] = await storage.players.totals(GUILD, ALICE, ui.game_id)
    won = 0 in outcome.winners
    assert (three.players, three.games, three.wins) == (3, 1, int(won))
    assert three.best == (-session.state.totals[0], won)
    streaks = await storage.players.streaks(GUILD, ALICE, ui.game_id)
    lines = ui.stats_lines("en", [all_counts, three], streaks)
    assert lines[0] == ui.tally_line("en", three)
    assert t("en", "stats.points", count=session.state.totals[0]) in lines[0]
    assert lines[-1] == t("en", "stats.streaks", current=int(won), best=int(won))
    [entry] = await storage.records.history(GUILD)
    assert [s.score for s in entry.seats] == [-total for total in session.state.totals]
    server = await storage.records.stats(GUILD, ui.game_id)
    board = ui.board_lines("en", server, server, await storage.records.best(GUILD, ui.game_id))
    figures = [t("en", "stats.played", count=1), t("en", "stats.won", count=1)]
    best = t("en", "stats.best", best=t("en", "stats.points", count=max(session.state.totals)))
    figures_text = " · ".join([*figures, best])
    assert board[0] == t("en", "stats.line", label=t("en", "stats.server"), figures=figures_text)
    assert t("en", "stats.points", count=max(session.state.totals)) in board[1]


class CompetitiveRaceUI(CompetitiveUI, DiceRaceUI):
    """The same race with the records of a competitive game won on points."""


def race_won(by_person: bool) -> Session:
    """A finished race that alice (the one person) won or did not, whichever is asked."""
    for seed in range(100):
        session, _ = finished(seed)
        outcome = RULES.outcome(session.state)
        assert outcome is not None
        if (0 in outcome.winners) == by_person:
            return session
    raise AssertionError("no such race in 100 seeds")


@pytest.mark.parametrize("by_person", [True, False])
def test_a_competitive_game_counts_as_won_only_when_a_person_won(by_person: bool) -> None:
    session = race_won(by_person)
    result = CompetitiveRaceUI().result(session)
    assert result is not None
    assert result.won == by_person
    assert result.score == -max(session.state.totals)


@pytest.mark.parametrize("by_person", [True, False])
def test_a_competitive_table_ends_won_only_when_a_person_won(by_person: bool) -> None:
    session = race_won(by_person)
    assert CompetitiveRaceUI().accent(session) == (WON if by_person else LOST)


def test_a_competitive_table_in_play_keeps_the_play_accent() -> None:
    session, _ = finished()
    playing = Session(session.record, RULES, session.config, RULES.setup(session.config))
    assert CompetitiveRaceUI().accent(playing) == ACCENT


def test_a_competitive_game_ranks_its_winners_first_then_by_points() -> None:
    session, _ = finished()
    outcome = RULES.outcome(session.state)
    assert outcome is not None
    standing = CompetitiveRaceUI().standing(session)
    assert standing is not None
    assert standing.places == places_by_points(outcome.scores, outcome.winners)
    assert DiceRaceUI().standing(session) is None  # the plain default rates nothing


def test_a_competitive_servers_wins_are_the_games_a_person_won() -> None:
    assert CompetitiveRaceUI().wins_text("ja", 3) == t("ja", "stats.won_by_player", count=3)


def test_a_replay_turn_is_one_actors_run_of_actions_with_the_chance_it_caused() -> None:
    log = [
        LoggedAction(seq=seq, actor=actor, action={})
        for seq, actor in enumerate([CHANCE, CHANCE, 0, 0, 0, CHANCE, 1, 1, 0, CHANCE, 0], 1)
    ]
    # the deal; 0's three plays and its draw; 1's two; 0's one and its draw; 0 again (solo-like)
    assert turn_ends(log) == (2, 6, 8, 10, 11)


def test_each_replay_turn_shows_the_state_after_its_last_entry() -> None:
    session, log = finished()
    players = [
        i
        for i, entry in enumerate(log)
        if entry.actor != CHANCE and log[i - 1].actor != entry.actor
    ]
    assert len(turn_ends(log)) == len(players) + 1  # the setup, then one turn per run
    setup = replay_turn(session, log, 0)
    assert (setup.number, setup.total, setup.actor) == (0, len(players), None)
    assert [e.key for e in setup.events] == ["toy.roll"] * players[0]  # the rolls before anyone
    caused = 0
    for number, start in enumerate(players, start=1):
        turn = replay_turn(session, log, number)
        end = players[number] if number < len(players) else len(log)
        state = RULES.setup(session.config)
        for entry in log[:end]:  # through the rolls that follow the action
            state = RULES.apply(state, entry.actor, RULES.parse_action(entry.action)).state
        assert (turn.actor, turn.state) == (log[start].actor, state)
        rolls = sum(entry.actor == CHANCE for entry in log[start:end])
        assert [e.key for e in turn.events].count("toy.roll") == rolls
        caused += rolls
    assert caused > 0 and players[0] + caused == sum(e.actor == CHANCE for e in log)
    assert replay_turn(session, log, len(players)).state == session.state
    assert replay_turn(session, log, 10_000).number == len(players)


def test_replay_moves_stay_between_the_setup_and_the_last_turn() -> None:
    assert [target(0, move, 5) for move in "fpnl"] == [0, 0, 1, 5]
    assert [target(5, move, 5) for move in "fpnl"] == [0, 4, 5, 5]
    assert [target(3, move, 5) for move in "fpnl"] == [0, 2, 4, 5]


def test_the_default_replay_hands_are_each_seats_hand_without_its_controls() -> None:
    session, _ = finished()
    ctx = Context.of(session, "en")
    blocks = DiceRaceUI().replay_hands(ctx)
    texts = [b.text for b in blocks if isinstance(b, Text)]
    for seat, name in enumerate(ctx.names):
        assert f"**{name}**" in texts
        assert f"total {session.state.totals[seat]}" in texts
    assert not any(isinstance(b, Controls) for b in blocks)
    assert all(b.priority is not Priority.ESSENTIAL for b in blocks)  # the table goes first


def test_a_game_without_hidden_hands_shows_no_hands_in_a_replay() -> None:
    class OpenRaceUI(DiceRaceUI):
        hidden_hands = False

    session, _ = finished()
    assert OpenRaceUI().replay_hands(Context.of(session, "en")) == ()
