"""The Discord emulator, driven by a tiny real discord.py bot defined here.

These tests double as examples of the emulator's test-side API: users run slash commands,
click and select through the gateway, and tests ask what each user can see.
"""

from __future__ import annotations

import asyncio
import io
import re
import struct
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context, interaction_response_params

from bot.playground.emulator import (
    ApiError,
    Emulator,
    InteractionFailed,
    InvalidInteraction,
    RateLimit,
    text_of,
)
from bot.playground.emulator.validation import (
    validate_commands,
    validate_flags_edit,
    validate_message,
)

# -- the bot under test -------------------------------------------------------------------------


@dataclass
class Seen:
    """What the bot observed, for assertions on the bot's side."""

    clicks: list[tuple[str, int]] = field(default_factory=list)
    errors: list[discord.HTTPException] = field(default_factory=list)
    release: asyncio.Event = field(default_factory=asyncio.Event)


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"count:(?P<n>[0-9]+)"):
    """A persistent button whose state lives in its custom_id, so it survives restarts."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}", custom_id=f"count:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, TinyBot)
        bot.seen.clicks.append((bot.label, self.n))
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"Table ({self.n + 1})", view=view)


class HandView(discord.ui.View):
    """An in-memory view (not persistent): a button and a multi-select."""

    @discord.ui.button(label="Draw", custom_id="hand:draw")
    async def draw(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="You drew a card", view=self)

    @discord.ui.select(
        custom_id="hand:pick",
        placeholder="Pick cards",
        max_values=2,
        options=[
            discord.SelectOption(label="Red 3", value="r3"),
            discord.SelectOption(label="Blue 7", value="b7", description="a blue card"),
            discord.SelectOption(label="Green 1", value="g1"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"Picked {', '.join(select.values)}")


class NameModal(discord.ui.Modal, title="Who are you?"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hello {self.name.value}", ephemeral=True)


def board(text: str) -> discord.ui.LayoutView:
    """A Components V2 layout with a section button."""

    async def play(interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(view=board("Played"))

    button: discord.ui.Button[discord.ui.LayoutView] = discord.ui.Button(
        label="Play", custom_id="layout:play"
    )
    button.callback = play  # type: ignore[method-assign]
    view = discord.ui.LayoutView(timeout=60)
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay(f"Board: {text}"),
            discord.ui.Section(discord.ui.TextDisplay("Your turn"), accessory=button),
        )
    )
    return view


def png(width: int, height: int) -> bytes:
    """A plain grey PNG of this size (the emulator reads the size from its header)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    pixels = zlib.compress(b"".join(b"\x00" + b"\x80" * width for _ in range(height)))
    signature = b"\x89PNG\r\n\x1a\n"
    return signature + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def picture_board(text: str, on_next: Any = None) -> discord.ui.LayoutView:
    """A V2 layout showing the uploaded board.png in a media gallery, with a button."""
    button: discord.ui.Button[discord.ui.LayoutView] = discord.ui.Button(
        label="Next", custom_id="board:next"
    )
    if on_next is not None:
        button.callback = on_next  # type: ignore[method-assign]
    gallery = discord.ui.MediaGallery(
        discord.MediaGalleryItem("attachment://board.png", description=f"Picture of {text}")
    )
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay(f"Board: {text}"), gallery, discord.ui.ActionRow(button)
        )
    )
    return view


def board_file(width: int) -> discord.File:
    return discord.File(io.BytesIO(png(width, 10)), filename="board.png", description="a board")


class TinyBot(commands.Bot):
    """A minimal bot exercising the interaction paths a game bot uses."""

    def __init__(self, label: str, seen: Seen, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
            **options,
        )
        self.label = label
        self.seen = seen

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        self.add_command(hello)
        self.tree.add_command(build_game_group(self.seen))
        self.tree.add_command(setup_command)
        self.tree.add_command(build_board_group(self.seen))
        await self.tree.sync()


class ShardedTinyBot(TinyBot, commands.AutoShardedBot):
    """The same bot over discord.py's AutoShardedClient (`shard_count`, `shard_ids`)."""


@commands.command()
async def hello(ctx: commands.Context[TinyBot]) -> None:
    await ctx.send(f"hi {ctx.author.name}")


@app_commands.command(name="setup", description="Admin only")
@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
async def setup_command(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("configured", ephemeral=True)


def build_game_group(seen: Seen) -> app_commands.Group:
    game = app_commands.Group(name="thegame", description="Play The Game")

    @game.command(name="new", description="Start a game")
    @app_commands.describe(players="Number of players")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="Classic", value="classic"),
            app_commands.Choice(name="Fast", value="fast"),
        ]
    )
    async def new(
        interaction: discord.Interaction,
        players: app_commands.Range[int, 1, 5],
        mode: str = "classic",
    ) -> None:
        text = f"Secret hand of {interaction.user.name}: {players} players, {mode}"
        await interaction.response.send_message(
            f"{text} [{interaction.locale.value}]", view=HandView(), ephemeral=True
        )

    @game.command(name="table", description="Post the public table")
    async def table(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        await interaction.response.send_message("Table (0)", view=view)

    @game.command(name="dm", description="DM me my hand")
    async def dm(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("Your private hand: 7 8 9")
        except discord.Forbidden as exc:
            seen.errors.append(exc)
            await interaction.response.send_message("Your DMs are closed", ephemeral=True)
            return
        await interaction.response.send_message("Sent you a DM", ephemeral=True)

    @game.command(name="slow", description="Defer, then follow up")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("Done thinking")
        await interaction.followup.send("One more thing", ephemeral=True)

    @game.command(name="edit", description="Post then edit a channel message")
    async def edit(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        msg = await interaction.channel.send("Round 1")
        await msg.edit(content="Round 2")

    @game.command(name="twice", description="Answer twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        # discord.py refuses a second response locally; call the API directly like a buggy bot.
        params = interaction_response_params(type=4, data={"content": "second"})
        try:
            await async_context.get().create_interaction_response(
                interaction.id, interaction.token, session=interaction._session, params=params
            )
        except discord.HTTPException as exc:
            seen.errors.append(exc)

    @game.command(name="late", description="Answer after the window")
    async def late(interaction: discord.Interaction) -> None:
        await seen.release.wait()
        try:
            await interaction.response.send_message("too late")
        except discord.HTTPException as exc:
            seen.errors.append(exc)

    @game.command(name="big", description="Send too many select options")
    async def big(interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        options = [discord.SelectOption(label=f"Card {i}", value=str(i)) for i in range(26)]
        view.add_item(discord.ui.Select(custom_id="big", options=options))
        try:
            await interaction.response.send_message("pick", view=view)
        except discord.HTTPException as exc:
            seen.errors.append(exc)
            await interaction.response.send_message("too many cards to show", ephemeral=True)

    @game.command(name="spam", description="Post and edit quickly in the channel")
    async def spam(interaction: discord.Interaction, count: int) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        msg = await interaction.channel.send("0")
        for i in range(1, count):
            msg = await msg.edit(content=str(i))
        await interaction.followup.send("done")

    @game.command(name="ask", description="Open a modal")
    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @game.command(name="join", description="Join a session")
    async def join(interaction: discord.Interaction, session: str) -> None:
        await interaction.response.send_message(f"Joined {session}", ephemeral=True)

    @join.autocomplete("session")
    async def join_sessions(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = ["alpha", "alpine", "beta"]
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

    @game.command(name="layout", description="Post a Components V2 board")
    async def layout(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=board("3 cards"))

    @game.command(name="poke", description="Poke someone")
    async def poke(interaction: discord.Interaction, who: discord.Member) -> None:
        await interaction.response.send_message(f"{who.display_name} was poked")

    @game.command(name="private", description="An ephemeral message with a button")
    async def private(interaction: discord.Interaction) -> None:
        async def edit(click: discord.Interaction) -> None:
            assert click.message is not None
            try:  # the bot token cannot reach an ephemeral message...
                await click.message.edit(content="edited with the bot token")
            except discord.NotFound as exc:
                seen.errors.append(exc)
            # ...only the interaction can.
            await click.response.edit_message(content="edited through the interaction")

        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Edit", custom_id="private:edit"
        )
        button.callback = edit  # type: ignore[method-assign, assignment]
        view = discord.ui.View()
        view.add_item(button)
        await interaction.response.send_message("private", view=view, ephemeral=True)

    @game.command(name="later", description="Defer, wait, then follow up")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await seen.release.wait()
        try:
            await interaction.followup.send("finally")
        except discord.HTTPException as exc:
            seen.errors.append(exc)

    @game.command(name="scores", description="Upload a file")
    async def scores(interaction: discord.Interaction) -> None:
        data = discord.File(io.BytesIO(b"alice 3\nbob 1\n"), filename="scores.txt")
        await interaction.response.send_message("Scores attached", file=data)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(file=discord.File(io.BytesIO(b"x"), filename="log.txt"))

    @game.command(name="last", description="Quote the last channel messages")
    async def last(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        texts = [m.content async for m in interaction.channel.history(limit=2)]
        await interaction.response.send_message(" | ".join(texts), ephemeral=True)

    return game


def build_board_group(seen: Seen) -> app_commands.Group:
    """Components V2 messages with uploaded pictures."""
    board = app_commands.Group(name="board", description="Components V2 boards")

    async def next_board(interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            view=picture_board("second"), attachments=[board_file(30)]
        )

    @board.command(name="show", description="Post a board with a picture")
    async def show(interaction: discord.Interaction) -> None:
        view = picture_board("first", on_next=next_board)
        await interaction.response.send_message(view=view, files=[board_file(20)])

    @board.command(name="unsent", description="Reference a picture without uploading it")
    async def unsent(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message(view=picture_board("nothing"))
        except discord.HTTPException as exc:
            seen.errors.append(exc)
            await interaction.response.send_message("no picture", ephemeral=True)

    @board.command(name="upgrade", description="Edit a classic message into a V2 one")
    async def upgrade(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send("Round 1", embed=discord.Embed(title="Old"))
        clear: dict[str, Any] = {"content": None, "embeds": []}
        for kwargs in (
            {"view": picture_board("old content kept"), "attachments": [board_file(20)]},
            {**clear, "view": picture_board("no upload"), "attachments": []},
            {**clear, "view": picture_board("v2"), "attachments": [board_file(5)]},
            {"content": "plain again"},
        ):
            try:
                message = await message.edit(**kwargs)
            except discord.HTTPException as exc:
                seen.errors.append(exc)
        params = handle_message_parameters(content="plain", flags=discord.MessageFlags())
        http = interaction.client.http
        try:
            await http.edit_message(message.channel.id, message.id, params=params)
        except discord.HTTPException as exc:
            seen.errors.append(exc)
        await interaction.followup.send("done")

    @board.command(name="later", description="Defer, then follow up with a board")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(view=picture_board("later"), files=[board_file(8)])

    return board


# -- fixtures -------------------------------------------------------------------------------------


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator.running() as emulator:
        yield emulator


@pytest.fixture
def seen() -> Seen:
    return Seen()


@pytest.fixture
async def bot(emu: Emulator, seen: Seen) -> AsyncIterator[TinyBot]:
    async with emu.run_bot(TinyBot("first", seen)) as client:
        yield client


# -- tests ----------------------------------------------------------------------------------------


async def test_slash_reply_is_ephemeral_and_only_the_invoker_sees_it(
    emu: Emulator, bot: TinyBot
) -> None:
    alice = emu.add_user("alice", locale="ja")
    bob = emu.add_user("bob")

    res = await alice.slash(emu.general, "thegame new", players=3, mode="fast")

    assert res.type == 4 and res.ephemeral
    assert res.message is not None
    assert "Secret hand of alice: 3 players, fast [ja]" in res.text
    assert "Blue 7" in res.text and "a blue card" in res.text and "Pick cards" in res.text
    assert alice.can_see(res.message) and not bob.can_see(res.message)
    assert res.message in alice.ephemerals()
    assert not any("Secret" in m.text for m in bob.visible_messages())
    assert emu.channel_messages(emu.general) == []
    assert emu.errors == [] and emu.unknown_routes == []


async def test_click_updates_the_message_and_select_checks_values(
    emu: Emulator, bot: TinyBot
) -> None:
    alice = emu.add_user("alice")
    bob = emu.add_user("bob")
    hand = (await alice.slash(emu.general, "thegame new", players=2)).message
    assert hand is not None

    clicked = await alice.click(hand, "hand:draw")
    assert clicked.type == 7 and clicked.message is hand
    assert hand.content == "You drew a card" and hand.edits == 1 and hand.ephemeral

    picked = await alice.select(hand, "hand:pick", ["r3", "b7"])
    assert picked.type == 7 and hand.content == "Picked r3, b7"

    with pytest.raises(InvalidInteraction, match="cannot see"):
        await bob.click(hand, "hand:draw")
    with pytest.raises(InvalidInteraction, match="not an option"):
        await alice.select(hand, "hand:pick", ["zz"])
    with pytest.raises(InvalidInteraction, match="between 1 and 2"):
        await alice.select(hand, "hand:pick", ["r3", "b7", "g1"])
    with pytest.raises(InvalidInteraction, match="no component"):
        await alice.click(hand, "hand:nope")


async def test_slash_options_are_checked_against_the_registered_schema(
    emu: Emulator, bot: TinyBot
) -> None:
    alice = emu.add_user("alice")
    admin = emu.add_user("root", admin=True)
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("thegame new", {"players": 3, "colour": "red"}, "no option 'colour'"),
        ("thegame new", {"players": "3"}, "expects a number"),
        ("thegame new", {}, "required option 'players'"),
        ("thegame new", {"players": 9}, r"within \[1, 5\]"),
        ("thegame new", {"players": 2, "mode": "turbo"}, "choices"),
        ("thegame", {}, "needs a subcommand"),
        ("thegame old", {}, "no subcommand 'old'"),
        ("nogame", {}, "unknown slash command"),
        ("setup", {}, "cannot see /setup"),
    ]
    for command, options, error in cases:
        with pytest.raises(InvalidInteraction, match=error):
            await alice.slash(emu.general, command, **options)
    assert (await admin.slash(emu.general, "setup")).text == "configured"


async def test_slash_in_a_dm(emu: Emulator, bot: TinyBot) -> None:
    alice = emu.add_user("alice", admin=True)

    res = await alice.slash(alice.dm, "thegame new", players=1)

    assert res.message is not None and res.message.channel is alice.dm
    assert "Secret hand of alice" in res.text
    with pytest.raises(InvalidInteraction, match="not available in DMs"):
        await alice.slash(alice.dm, "setup")


async def test_dm_is_visible_only_to_its_recipient(emu: Emulator, bot: TinyBot) -> None:
    alice = emu.add_user("alice")
    bob = emu.add_user("bob")

    res = await alice.slash(emu.general, "thegame dm")

    assert res.text == "Sent you a DM"
    [dm] = alice.dms()
    assert dm.content == "Your private hand: 7 8 9" and dm.author is emu.bot
    assert dm in alice.visible_messages() and not bob.can_see(dm)
    assert all("private hand" not in text_of(m) for m in bob.visible_messages())


async def test_closed_dms_raise_forbidden_50007_in_the_bot(
    emu: Emulator, bot: TinyBot, seen: Seen
) -> None:
    carol = emu.add_user("carol", dms_open=False)

    res = await carol.slash(emu.general, "thegame dm")

    assert res.text == "Your DMs are closed" and res.ephemeral
    [error] = seen.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert carol.dms() == []


async def test_deferred_response_then_followups(emu: Emulator, bot: TinyBot) -> None:
    alice = emu.add_user("alice")

    res = await alice.slash(emu.general, "thegame slow")

    assert res.type == 5 and res.deferred and res.ephemeral
    message = await res.wait_until_loaded()
    assert message.content == "Done thinking"  # the first follow-up resolves the "thinking" state
    [extra] = await res.wait_for_followups(1)
    assert extra.content == "One more thing" and extra.ephemeral
    assert [m.content for m in alice.ephemerals()] == ["Done thinking", "One more thing"]


async def test_channel_message_edit_keeps_history(emu: Emulator, bot: TinyBot) -> None:
    alice = emu.add_user("alice")

    await alice.slash(emu.general, "thegame edit")

    message = await emu.wait_for(lambda: emu.last_message(emu.general))
    await emu.wait_for(lambda: message.content == "Round 2")
    assert message.edits == 1 and message.history[0]["content"] == "Round 1"
    assert alice.can_see(message)


async def test_second_initial_response_is_rejected(emu: Emulator, bot: TinyBot, seen: Seen) -> None:
    alice = emu.add_user("alice")

    res = await alice.slash(emu.general, "thegame twice")

    assert res.text == "first"
    await emu.wait_for(lambda: seen.errors)
    assert seen.errors[0].code == 40060 and seen.errors[0].status == 400
    assert [call.code for call in res.errors] == [40060]


async def test_late_first_response_is_rejected(emu: Emulator, bot: TinyBot, seen: Seen) -> None:
    emu.interaction_deadline = 0.1
    alice = emu.add_user("alice")

    with pytest.raises(InteractionFailed, match="did not acknowledge"):
        await alice.slash(emu.general, "thegame late")
    seen.release.set()

    await emu.wait_for(lambda: seen.errors)
    assert isinstance(seen.errors[0], discord.NotFound) and seen.errors[0].code == 10062


async def test_over_limit_components_are_rejected(emu: Emulator, bot: TinyBot, seen: Seen) -> None:
    alice = emu.add_user("alice")

    res = await alice.slash(emu.general, "thegame big")

    [error] = seen.errors
    assert error.status == 400 and error.code == 50035 and "options" in str(error)
    # The rejected call did not use up the interaction: the bot could still answer.
    assert res.text == "too many cards to show"


async def test_rate_limit_429_is_retried_by_discord_py(emu: Emulator, bot: TinyBot) -> None:
    # Tight window, and no X-RateLimit headers so discord.py cannot pre-empt: it must hit 429s.
    emu.rate_limit = RateLimit(count=2, per=0.2)
    emu.rate_limit_headers = False
    alice = emu.add_user("alice")

    res = await alice.slash(emu.general, "thegame spam", count=5)

    await res.wait_until_loaded()
    message = emu.last_message(emu.general)
    assert message is not None and message.content == "4" and message.edits == 4
    assert emu.rate_limit_hits, "expected discord.py to be rate limited"
    assert emu.errors == []


async def test_rate_limit_headers_let_discord_py_avoid_429(emu: Emulator, bot: TinyBot) -> None:
    emu.rate_limit = RateLimit(count=2, per=0.2)
    alice = emu.add_user("alice")

    res = await alice.slash(emu.general, "thegame spam", count=4)

    await res.wait_until_loaded()
    assert emu.rate_limit_hits == []


async def test_dynamic_item_survives_a_restart(emu: Emulator, seen: Seen) -> None:
    emu.interaction_deadline = 0.3  # keeps the failing click below short
    alice = emu.add_user("alice")
    async with emu.run_bot(TinyBot("first", seen)):
        table = (await alice.slash(emu.general, "thegame table")).message
        hand = (await alice.slash(emu.general, "thegame new", players=1)).message
        assert table is not None and hand is not None
        await alice.click(table, "count:0")
    assert seen.clicks == [("first", 0)]

    async with emu.run_bot(TinyBot("second", seen)):
        res = await alice.click(table, "count:1")
        assert res.type == 7 and table.content == "Table (2)"
        assert table.component("count:2") is not None
        # The in-memory view died with the first process: Discord shows "interaction failed".
        with pytest.raises(InteractionFailed):
            await alice.click(hand, "hand:draw")
    assert seen.clicks == [("first", 0), ("second", 1)]
    assert emu.gateway.connections == 2


async def test_gateway_resume_after_reconnect_request(emu: Emulator, bot: TinyBot) -> None:
    alice = emu.add_user("alice")
    await emu.request_reconnect()
    await emu.wait_for(lambda: emu.gateway.resumes == 1 and emu.gateway.connected)

    res = await alice.slash(emu.general, "thegame table")

    assert res.message is not None and res.message.content == "Table (0)"
    assert emu.gateway.connections == 1


async def test_interaction_without_bot_fails(emu: Emulator, seen: Seen) -> None:
    alice = emu.add_user("alice")
    async with emu.run_bot(TinyBot("first", seen)):
        pass  # registers the commands, then the bot goes away
    with pytest.raises(InteractionFailed, match="no bot"):
        await alice.slash(emu.general, "thegame new", players=1)


async def test_modal_round_trip(emu: Emulator, bot: TinyBot) -> None:
    alice = emu.add_user("alice")

    opened = await alice.slash(emu.general, "thegame ask")
    assert opened.type == 9 and opened.modal is not None and opened.modal["title"] == "Who are you?"

    with pytest.raises(InvalidInteraction, match="characters"):
        await alice.submit_modal(opened, {"Name": "x" * 21})  # fields by label or custom_id
    submitted = await alice.submit_modal(opened, {"Name": "Alice"})
    assert submitted.text == "Hello Alice" and submitted.ephemeral


async def test_autocomplete(emu: Emulator, bot: TinyBot) -> None:
    alice = emu.add_user("alice")

    choices = await alice.autocomplete(emu.general, "thegame join", "session", "al")

    assert [c["value"] for c in choices] == ["alpha", "alpine"]
    assert (await alice.slash(emu.general, "thegame join", session="beta")).text == "Joined beta"


async def test_components_v2_layout(emu: Emulator, bot: TinyBot) -> None:
    alice = emu.add_user("alice")

    res = await alice.slash(emu.general, "thegame layout")

    assert res.message is not None and res.message.components_v2 and res.message.content == ""
    assert "Board: 3 cards" in res.text and "Your turn" in res.text and "Play" in res.text
    await alice.click(res.message, "layout:play")
    assert "Board: Played" in res.message.text


async def test_user_option_is_resolved_to_a_member(emu: Emulator, bot: TinyBot) -> None:
    alice = emu.add_user("alice")
    bob = emu.add_user("bob")

    res = await alice.slash(emu.general, "thegame poke", who=bob)

    assert res.text == "bob was poked" and not res.ephemeral
    assert res.message is not None and bob.can_see(res.message)
    with pytest.raises(InvalidInteraction, match="USER"):
        await alice.slash(emu.general, "thegame poke", who="bob")


async def test_ephemeral_message_is_only_editable_through_the_interaction(
    emu: Emulator, bot: TinyBot, seen: Seen
) -> None:
    alice = emu.add_user("alice")
    private = (await alice.slash(emu.general, "thegame private")).message
    assert private is not None

    await alice.click(private, "private:edit")

    [error] = seen.errors
    assert isinstance(error, discord.NotFound) and error.code == 10008
    assert private.content == "edited through the interaction" and private.edits == 1


async def test_expired_token_rejects_followups(emu: Emulator, bot: TinyBot, seen: Seen) -> None:
    alice = emu.add_user("alice")
    res = await alice.slash(emu.general, "thegame later")
    assert res.deferred and res.message is not None and res.message.loading

    emu.expire_token(res)
    seen.release.set()

    await emu.wait_for(lambda: seen.errors)
    assert seen.errors[0].status == 401 and seen.errors[0].code == 50027
    assert res.message.loading  # the "thinking" message was never resolved


async def test_prefix_command_and_history(emu: Emulator, bot: TinyBot) -> None:
    alice = emu.add_user("alice")
    assert bot.user is not None

    await alice.send(emu.general, f"{bot.user.mention} hello")
    reply = await emu.wait_for(
        lambda: next((m for m in emu.channel_messages(emu.general) if m.author is emu.bot), None)
    )
    assert reply.content == "hi alice"

    res = await alice.slash(emu.general, "thegame last")
    assert res.text == f"hi alice | {bot.user.mention} hello"

    await alice.send(alice.dm, "hello")  # not a command: the prefix is a mention
    await alice.send(alice.dm, f"{bot.user.mention} hello")
    await emu.wait_for(lambda: any(m.author is emu.bot for m in alice.dms()))
    assert [m.content for m in alice.dms()] == ["hello", f"{bot.user.mention} hello", "hi alice"]


async def test_members_intent_bot_gets_member_chunks(emu: Emulator) -> None:
    alice = emu.add_user("alice")
    intents = discord.Intents.default()
    intents.members = True  # without presences, discord.py chunks the guild over the gateway
    client = discord.Client(intents=intents)
    async with emu.run_bot(client):
        guild = client.get_guild(emu.guild.id)
        assert guild is not None and guild.chunked
        assert emu.gateway.active is not None
        assert any(e["t"] == "GUILD_MEMBERS_CHUNK" for e in emu.gateway.active.buffer)
        member = guild.get_member(alice.id)
        assert member is not None and member.name == "alice"
        bob = emu.add_user("bob", admin=True)
        await emu.wait_for(lambda: guild.get_member(bob.id))
        assert guild.get_member(bob.id).guild_permissions.manage_guild  # type: ignore[union-attr]


def _button(custom_id: str, label: str = "ok") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def _select(custom_id: str, n: int, **extra: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": str(i)} for i in range(n)]
    return {"type": 3, "custom_id": custom_id, "options": options, **extra}


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _text(i: int) -> dict[str, Any]:
    return {"type": 10, "content": f"line {i}"}


def _long_text(n: int) -> dict[str, Any]:
    return {"type": 10, "content": "x" * n}


def _container(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(components)}


def _thumbnail(url: str) -> dict[str, Any]:
    return {"type": 11, "media": {"url": url}}


def _section(texts: int, accessory: dict[str, Any] | None = None) -> dict[str, Any]:
    accessory = accessory or _button("acc")
    return {"type": 9, "components": [_text(i) for i in range(texts)], "accessory": accessory}


def _gallery(items: int, url: str = "https://example.com/p.png") -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": url}} for _ in range(items)]}


def _file(url: str) -> dict[str, Any]:
    return {"type": 13, "file": {"url": url}}


V2 = 1 << 15
LIMIT_CASES: list[tuple[str, dict[str, Any]]] = [
    ("content", {"content": "x" * 2001}),
    ("embeds", {"embeds": [{"title": "t"}] * 11}),
    ("description", {"embeds": [{"description": "x" * 4097}]}),
    ("6000", {"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]}),
    ("components", {"components": [_row(_button(f"b{i}")) for i in range(6)]}),
    ("components.0.components", {"components": [_row(*(_button(f"b{i}") for i in range(6)))]}),
    ("width", {"components": [_row(_button("b"), _select("s", 2))]}),
    ("options", {"components": [_row(_select("s", 26))]}),
    ("min_values", {"components": [_row(_select("s", 3, min_values=26))]}),
    ("max_values", {"components": [_row(_select("s", 3, max_values=4))]}),
    ("custom_id", {"components": [_row(_button("x" * 101))]}),
    ("duplicated", {"components": [_row(_button("a"), _button("a"))]}),
    ("label", {"components": [_row(_button("a", "x" * 81))]}),
    ("40 total", {"flags": V2, "components": [_text(i) for i in range(41)]}),
    ("'content' field", {"flags": V2, "content": "hi", "components": [_text(0)]}),
    ("must be one of", {"components": [_text(0)]}),  # a V2 component without the V2 flag
    ("must be one of", {"components": [_container(_text(0))]}),
    ("'embeds' field", {"flags": V2, "embeds": [{"title": "t"}], "components": [_text(0)]}),
    ("(41)", {"flags": V2, "components": [_container(*(_text(i) for i in range(40)))]}),
    (
        "(41)",
        {
            "flags": V2,
            "components": [_container(_row(*(_button(f"b{i}") for i in range(5))))]
            + [_text(i) for i in range(34)],
        },
    ),
    ("4000", {"flags": V2, "components": [_long_text(2001), _long_text(2000)]}),
    ("more than once", {"flags": V2, "components": [_text(0) | {"id": 7}, _text(1) | {"id": 7}]}),
    ("between 1 and 3", {"flags": V2, "components": [_section(0)]}),
    ("between 1 and 3", {"flags": V2, "components": [_section(4)]}),
    ("accessory", {"flags": V2, "components": [{"type": 9, "components": [_text(0)]}]}),
    ("between 1 and 10", {"flags": V2, "components": [_gallery(0)]}),
    ("between 1 and 10", {"flags": V2, "components": [_gallery(11)]}),
    ("uploaded", {"flags": V2, "components": [_gallery(1, "attachment://a.png")]}),
    ("uploaded", {"flags": V2, "components": [_section(1, _thumbnail("attachment://a.png"))]}),
    ("Invalid media URL", {"flags": V2, "components": [_file("https://example.com/a.txt")]}),
]


@pytest.mark.parametrize(("error", "body"), LIMIT_CASES, ids=[c[0] for c in LIMIT_CASES])
def test_message_limits_answer_50035(error: str, body: dict[str, Any]) -> None:
    with pytest.raises(ApiError) as info:
        validate_message(body)
    assert info.value.status == 400 and info.value.code == 50035
    assert error in str(info.value)  # e.g. "components.0.components: Must be 5 or fewer..."


def test_message_limits_allow_the_maxima() -> None:
    validate_message(
        {
            "content": "x" * 2000,
            "embeds": [{"description": "x" * 4096}, {"description": "x" * 1904}],
            "components": [_row(*(_button(f"b{r}{i}") for i in range(5))) for r in range(4)]
            + [_row(_select("s", 25, min_values=0, max_values=25))],
        }
    )
    validate_message({"flags": V2, "components": [_text(i) for i in range(40)]})
    validate_message({"flags": V2, "components": [_container(*(_text(i) for i in range(39)))]})
    validate_message({"flags": V2, "components": [_long_text(2000), _long_text(2000)]})
    validate_message({"flags": V2, "components": [_text(0) | {"id": 7}, _text(1) | {"id": 8}]})
    validate_message({"flags": V2, "components": [_section(1), _section(3, _button("acc2"))]})
    validate_message({"flags": V2, "components": [_gallery(1), _gallery(10)]})
    validate_message(
        {
            "flags": V2,
            "components": [
                _gallery(1, "attachment://a.png"),
                _section(1, _thumbnail("attachment://a.png")),
                _file("attachment://a.png"),
            ],
        },
        attachments=1,
        uploads={"a.png"},
    )
    with pytest.raises(ApiError, match="empty"):
        validate_message({"content": ""})


def test_command_definitions_are_validated() -> None:
    good = {"name": "thegame", "description": "Play", "type": 1, "options": []}
    validate_commands([good])
    bad_cases = [
        {**good, "name": "TheGame"},
        {**good, "description": ""},
        {**good, "name_localizations": {"jp": "ゲーム"}},
        {
            **good,
            "options": [
                {"type": 3, "name": "a", "description": "a", "required": False},
                {"type": 3, "name": "b", "description": "b", "required": True},
            ],
        },
    ]
    for bad in bad_cases:
        with pytest.raises(ApiError):
            validate_commands([bad])


async def test_file_uploads_become_attachments(emu: Emulator, bot: TinyBot) -> None:
    alice = emu.add_user("alice")

    res = await alice.slash(emu.general, "thegame scores")

    assert res.message is not None and res.text == "Scores attached"
    assert [a["filename"] for a in res.message.attachments] == ["scores.txt"]
    log = await emu.wait_for(lambda: emu.channel_messages(emu.general)[1:])
    assert log[0].content == "" and log[0].attachments[0]["filename"] == "log.txt"


def test_an_edit_cannot_remove_the_components_v2_flag() -> None:
    validate_flags_edit(V2, {"flags": V2 | 4})  # keeping it, with another flag
    validate_flags_edit(V2, {"content": "x"})  # no flags given: the message keeps its own
    validate_flags_edit(0, {"flags": V2})  # a classic message may become V2
    with pytest.raises(ApiError, match="cannot be removed"):
        validate_flags_edit(V2, {"flags": 0})


async def test_v2_picture_is_uploaded_shown_in_the_gallery_and_replaced_on_edit(
    emu: Emulator, bot: TinyBot
) -> None:
    alice = emu.add_user("alice")

    res = await alice.slash(emu.general, "board show")

    message = res.message
    assert message is not None and message.components_v2 and message.content == ""
    [attachment] = message.attachments
    assert attachment["filename"] == "board.png" and attachment["description"] == "a board"
    assert (attachment["width"], attachment["height"]) == (20, 10)
    assert message.file("board.png") == png(20, 10)
    [gallery] = [c for c in message.all_components() if c["type"] == 12]
    assert gallery["items"][0]["media"]["url"] == attachment["url"]  # resolved like Discord
    assert "Board: first" in res.text and "Picture of first" in res.text
    async with aiohttp.ClientSession() as http, http.get(attachment["url"]) as served:
        assert await served.read() == png(20, 10)

    await alice.click(message, "board:next")

    [replaced] = message.attachments
    assert replaced["id"] != attachment["id"] and replaced["width"] == 30
    assert message.file("board.png") == png(30, 10)
    assert "Picture of second" in message.text


async def test_v2_reference_to_a_file_not_uploaded_is_rejected(
    emu: Emulator, bot: TinyBot, seen: Seen
) -> None:
    alice = emu.add_user("alice")

    res = await alice.slash(emu.general, "board unsent")

    assert res.text == "no picture"
    [error] = seen.errors
    assert error.status == 400 and error.code == 50035 and "attachment://board.png" in str(error)


async def test_classic_message_edited_into_v2_must_clear_content_and_keep_the_flag(
    emu: Emulator, bot: TinyBot, seen: Seen
) -> None:
    emu.rate_limit = RateLimit(5, 0.2)  # five edits in a row: keep the limit, not the wait
    alice = emu.add_user("alice")

    res = await alice.slash(emu.general, "board upgrade")
    await res.wait_until_loaded()

    message = emu.channel_messages(emu.general)[0]
    assert message.components_v2 and message.content == "" and message.embeds == []
    assert [a["width"] for a in message.attachments] == [5] and "Board: v2" in message.text
    assert [e.code for e in seen.errors] == [50035] * 4
    kept_content, no_upload, content_again, flag_removed = map(str, seen.errors)
    assert "'content' field" in kept_content and "'content' field" in content_again
    assert "attachment://board.png" in no_upload
    assert "cannot be removed" in flag_removed


async def test_followup_resolving_a_deferral_can_be_v2_with_a_picture(
    emu: Emulator, bot: TinyBot
) -> None:
    alice = emu.add_user("alice")

    res = await alice.slash(emu.general, "board later")
    message = await res.wait_until_loaded()

    assert message.components_v2 and message.ephemeral and not message.loading
    assert message.file("board.png") == png(8, 10) and "Board: later" in message.text


def test_text_of_reads_a_v2_message_through_its_layout() -> None:
    message = {
        "flags": V2,
        "components": [
            _container(
                {"type": 10, "content": "### The Game"},
                {
                    "type": 9,
                    "components": [{"type": 10, "content": "Up 1: 37"}],
                    "accessory": _button("g:1", "Signal"),
                },
                _section(
                    1, {"type": 11, "media": {"url": "https://x/a.png"}, "description": "dice"}
                ),
                {
                    "type": 12,
                    "items": [{"media": {"url": "https://x/t.png"}, "description": "piles"}],
                },
                _row(_select("s:1", 2, placeholder="Pick a card")),
            )
        ],
    }

    lines = text_of(message).splitlines()

    assert lines == [
        "### The Game",
        "Up 1: 37",
        "Signal",
        "line 0",
        "dice",
        "piles",
        "Pick a card",
        "o0",
        "o1",
    ]


# -- sharding ---------------------------------------------------------------------------------


def shard_guilds(emu: Emulator) -> tuple[Any, Any]:
    """Two guilds, on shards 0 and 1 of two."""
    return emu.add_guild("Zero", shard=(0, 2)), emu.add_guild("One", shard=(1, 2))


async def test_a_sharded_bot_gets_each_guild_on_its_own_shard(emu: Emulator, seen: Seen) -> None:
    zero, one = shard_guilds(emu)
    alice = emu.add_user("alice")
    async with emu.run_bot(ShardedTinyBot("both", seen, shard_count=2)) as bot:
        assert bot.shard_count == 2 and set(bot.shards) == {0, 1}
        assert {g.id: g.shard_id for g in bot.guilds} == {
            g.id: (g.id >> 22) % 2 for g in emu.guilds
        }
        assert (zero.id >> 22) % 2 == 0 and (one.id >> 22) % 2 == 1
        assert emu.gateway.connections == 2
        assert {s.shard for s in emu.gateway.shards.values()} == {(0, 2), (1, 2)}
        for session in emu.gateway.shards.values():
            ready = next(e["d"] for e in session.buffer if e["t"] == "READY")
            assert ready["shard"] == list(session.shard)
            assert {int(g["id"]) for g in ready["guilds"]} == {
                g.id for g in emu.guilds if (g.id >> 22) % 2 == session.shard[0]
            }
        table = (await alice.slash(one.channels[0], "thegame table")).message
        assert table is not None
        await alice.click(table, "count:0")
        assert seen.clicks == [("both", 0)]


async def test_shard_processes_each_serve_their_own_guilds(emu: Emulator) -> None:
    zero, one = shard_guilds(emu)
    alice = emu.add_user("alice")
    seen = Seen()
    first, second = (
        ShardedTinyBot(n, seen, shard_count=2, shard_ids=[i]) for i, n in enumerate("ab")
    )
    async with emu.run_bot(first), emu.run_bot(second):
        assert {g.id for g in first.guilds} == {g.id for g in emu.guilds if (g.id >> 22) % 2 == 0}
        assert {g.id for g in second.guilds} == {g.id for g in emu.guilds if (g.id >> 22) % 2 == 1}
        for guild in (one, zero):
            table = (await alice.slash(guild.channels[0], "thegame table")).message
            assert table is not None
            await alice.click(table, "count:0")
        dm = (await alice.slash(alice.dm, "thegame table")).message
        assert dm is not None
        await alice.click(dm, "count:0")
    assert seen.clicks == [("b", 0), ("a", 0), ("a", 0)]  # direct messages: shard 0


async def test_an_identify_for_a_shard_beyond_the_count_is_refused(emu: Emulator) -> None:
    async with aiohttp.ClientSession() as http, http.ws_connect(emu.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": {"token": emu.bot_token, "intents": 0, "shard": [2, 2]}})
        closed = await ws.receive()
        assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4010
