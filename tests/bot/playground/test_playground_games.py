"""Games played by clicks in the playground's page, in a real browser: the page shows what the
bot posts, live, and every click goes through the emulator as the user whose view it is."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Page, expect

from bot.games.rummy.controls import discard_choices
from bot.i18n import t
from bot.playground.playground import Playground
from bot.ui.layout import LOBBY
from games.engine import Session, Status
from games.rummy import RULES as RUMMY
from games.rummy.models import Gain, Goal
from games.thegame import RULES as THEGAME
from games.thegame.models import EndTurn, Play
from tests.botkit import session_in
from tests.browser import (
    chromium,
    control,
    latest_with,
    open_page,
    page_errors,
    pick,
    playground,
    run_command,
    switch_user,
)

SHORT_GAME_SEED = 1
"""A deal on which the hastiest play ends The Game after three turns: alice, bob, alice."""
CLAIM_SEED = 20
"""A Rummy deal on which alice's first discard is one bob can claim."""


async def start_in_page(
    page: Page, pg: Playground, command: str, joiners: tuple[str, ...] = (), **options: object
) -> Session:
    """Open a lobby with the page's form as its user, seat `joiners` from their own view (in
    the same tab), and start with the host first."""
    host = await page.evaluate("document.body.dataset.user")
    await run_command(page, command, **options)
    for name in joiners:
        await switch_user(page, name)
        await control(latest_with(page, ":join", ephemeral=False), ":join").click()
        await expect(latest_with(page, ":join", ephemeral=False)).to_contain_text(name)
    await switch_user(page, host)
    await control(latest_with(page, ":start", ephemeral=False), ":start").click()
    await pick(latest_with(page, ":first", ephemeral=True), ":first", "0")
    await latest_with(page, ":hand", ephemeral=False).wait_for()
    return await session_in(pg.bot, pg.emu)


async def open_own_hand(page: Page, marker: str) -> None:
    """Show the page's user their hand from the table (an ephemeral reply), once."""
    hands = page.locator("#messages > li.message.ephemeral").filter(
        has=page.locator(f"[data-custom-id*='{marker}']")
    )
    before = await hands.count()
    await control(latest_with(page, ":hand", ephemeral=False), ":hand").click()
    await expect(hands).to_have_count(before + 1)


def hastiest(session: Session) -> Play | EndTurn:
    """The move that ends The Game soonest: end the turn when allowed, else the biggest jump."""
    legal = THEGAME.legal_actions(session.state, session.state.turn)
    end = next((a for a in legal if isinstance(a, EndTurn)), None)
    if end is not None:
        return end
    plays = [a for a in legal if isinstance(a, Play)]
    return max(plays, key=lambda a: abs(a.card - (1 if a.pile < 2 else 100)))


async def test_two_players_play_a_whole_game_of_the_game_by_clicks(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, chromium() as browser:
        pg.bot.service._seed_source = lambda: SHORT_GAME_SEED
        page = await open_page(browser, pg, "alice")
        session = await start_in_page(page, pg, "thegame new", joiners=("bob",))
        users = {0: "alice", 1: "bob"}
        for name in users.values():
            await switch_user(page, name)
            await open_own_hand(page, ":refresh")
        played: set[str] = set()
        while session.record.status is Status.ACTIVE:
            name = users[session.state.turn]
            if await page.evaluate("document.body.dataset.user") != name:
                await switch_user(page, name)
            version = session.record.version
            hand = latest_with(page, f":{version}:x.", ephemeral=True)
            match hastiest(session):
                case Play(card=card, pile=pile):
                    await pick(hand, ":x.pick", str(card))
                    await control(hand, f":x.play.{card}.{pile}").click()
                    played.add(name)
                case EndTurn():
                    await control(hand, ":x.end").click()
            await pg.emu.wait_for(lambda v=version: session.record.version > v, timeout=60)
        assert played == {"alice", "bob"}
        outcome = THEGAME.outcome(session.state)
        assert outcome is not None
        result = t("en", f"thegame.result.{outcome.result}", count=outcome.details["cards_left"])
        for name in users.values():
            await switch_user(page, name)
            table = latest_with(page, ":rematch", ephemeral=False)
            await expect(table).to_contain_text(result)
        assert page_errors(page) == []


def rummy_control(session: Session, seat: int) -> tuple[str, bool]:
    """The custom_id ending of the move the test makes for `seat`, and whether it is a claim:
    claim whenever the rules allow, else pass; on a turn take the first field card and
    discard the first card offered; deal the next short game when one ends."""
    state = session.state
    view = RUMMY.view(state, seat)
    legal = RUMMY.legal_actions(state, seat)
    if state.phase == "window":
        tag = f"{view.game_no}.{state.window.card}"
        for action in legal:
            if isinstance(action, Goal):
                return f":x.wg.{tag}", True
            if isinstance(action, Gain):
                a, b = action.cards
                return f":x.wn.{tag}.{a}.{b}", True
        return f":x.wp.{tag}", False
    if state.phase == "take":
        return f":x.tk.{state.field[0]}", False
    if state.phase == "act":
        return f":x.ds.{discard_choices(view)[0]}", False
    return ":x.nx", False


async def test_a_rummy_claim_window_is_answered_in_the_page(tmp_path: Path) -> None:
    """Two people play by clicks until one of them is asked a claim they can make, and claim it
    in the page (a prompt that offers only a pass is passed; the seeded deal asks bob on
    alice's first discard, the ceiling leaves room for far more)."""
    async with playground(tmp_path) as pg, chromium() as browser:
        pg.bot.service._seed_source = lambda: CLAIM_SEED
        page = await open_page(browser, pg, "alice")
        session = await start_in_page(page, pg, "rummy new", joiners=("bob",), claim_seconds=300)
        users = {0: "alice", 1: "bob"}
        for name in users.values():
            await switch_user(page, name)
            await open_own_hand(page, ":refresh")
        for _ in range(60):
            state, version = session.state, session.record.version
            seat = min(RUMMY.to_move(state).seats)
            ending, claim = rummy_control(session, seat)
            if await page.evaluate("document.body.dataset.user") != users[seat]:
                await switch_user(page, users[seat])
            # While a claim window is open the screens carry no version (see RummyUI).
            marker = LOBBY if state.phase == "window" else version
            hand = latest_with(page, f":{marker}:x.", ephemeral=True)
            if ending.startswith(":x.ds.") and not await control(hand, ending).count():
                await pick(hand, ":x.dc", ending.rsplit(".", 1)[1])
            await control(hand, ending).click()
            await pg.emu.wait_for(lambda v=version: session.record.version > v, timeout=60)
            if claim:
                break
        else:
            raise AssertionError("no claim prompt appeared to a player who could claim")
        card = state.window.card
        after = session.state
        assert any(card in group for group in after.opened[seat]) or (
            after.result is not None and after.result.seat == seat
        )
        await expect(control(page, ending)).to_have_count(0)
        assert page_errors(page) == []
