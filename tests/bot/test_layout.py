"""The neutral layout model, its Components V2 builder, and The Game's table picture.

The builder's output is checked with the emulator's own validator (Discord's limits), and the
worked example at the end sends The Game's real table renderer through the emulator and reads
it back through `text_of`, comparing with the catalog rather than English wording.
"""

from __future__ import annotations

import inspect
import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.context import Context
from bot.games.thegame.picture import FILENAME, table_picture
from bot.games.thegame.pieces import pile_line
from bot.games.thegame.ui import TheGameUI
from bot.i18n import t
from bot.play import ControlButton, ControlSelect
from bot.playground.emulator import Emulator, text_of
from bot.playground.emulator.models import walk_components
from bot.playground.emulator.validation import validate_message
from bot.ui.layout import (
    LOBBY,
    Button,
    Controls,
    Keep,
    Layout,
    Option,
    Picture,
    Priority,
    Section,
    Select,
    Separator,
    Style,
    Text,
    Token,
    Tokens,
    base_action,
    plain,
)
from bot.ui.v2 import MAX_COMPONENTS, MAX_TEXT, V2Message, build, shorten
from games.engine import Event, Seat, Session, SessionRecord, Status
from games.thegame import RULES
from games.thegame.models import Phase, SignalKind, TheGameConfig, TheGameState
from tests.test_layers import imported_modules

ROOT = Path(__file__).resolve().parents[2]
SID = "0123abcd"
V2 = 1 << 15


def png(colour: tuple[int, int, int] = (1, 2, 3)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 3), colour).save(out, "PNG")
    return out.getvalue()


def layout(*blocks: Any, **fields: Any) -> Layout:
    return Layout(**({"title": "Table", "session": SID, "version": 7} | fields), blocks=blocks)


def components(message: V2Message) -> list[dict[str, Any]]:
    return list(walk_components(message.components))


def discord_accepts(message: V2Message) -> None:
    """The emulator's validator (Discord's limits) accepts the built message as sent."""
    names = {p.filename for p in message.pictures}
    validate_message(
        {"flags": V2, "components": message.components}, attachments=len(names), uploads=names
    )


def texts(message: V2Message) -> str:
    return "\n".join(c["content"] for c in components(message) if c["type"] == 10)


def custom_ids(message: V2Message) -> list[str]:
    return [c["custom_id"] for c in components(message) if "custom_id" in c]


# The model -----------------------------------------------------------------------------------


def test_the_layout_model_does_not_import_discord() -> None:
    assert not {m for m in imported_modules(ROOT / "bot/ui/layout.py") if "discord" in m}


def test_a_button_needs_a_label_or_an_emoji() -> None:
    with pytest.raises(ValueError, match="label or an emoji"):
        Button("end")
    assert Button("end", emoji="🛑").emoji == "🛑"


def test_a_layout_with_controls_needs_its_session() -> None:
    with pytest.raises(ValueError, match="session"):
        Layout("Table", blocks=(Controls((Button("end", "End"),)),))
    assert Layout("Rules", blocks=(Text("Play all the cards"),)).session is None


def test_tokens_render_as_short_code_spans() -> None:
    row = Tokens((Token("12"), Token("22", emoji="🔵", strong=True)), label="Hand:")
    assert row.render() == "Hand: `12` 🔵**`22`**"
    assert Tokens((), empty="—").render() == "—"


def test_plain_drops_markdown_for_alt_text() -> None:
    assert plain("⬆️ **Up 1**: `37` ~~x~~ __y__") == "⬆️ Up 1: 37 x y"
    assert plain("### Title\n> quote") == "Title\nquote"


def test_base_action_removes_only_the_split_suffix() -> None:
    assert base_action("x.pick-p3") == "x.pick"
    assert base_action("play.12.3") == "play.12.3"


# Building: what a small layout becomes -------------------------------------------------------


def test_small_layout_is_one_container_with_title_first_and_nothing_summarised() -> None:
    message = build(
        layout(
            Text("▶ alice — must play 2", Priority.ESSENTIAL),
            Section(("**Up 1**", Tokens((Token("37"),))), accessory=Button("hand", "Hand")),
            Separator(),
            Controls((Button("end", "End", style=Style.DANGER),)),
            accent=0x5865F2,
        )
    )
    [container] = message.components
    assert container["type"] == 17 and container["accent_color"] == 0x5865F2
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [10, 10, 9, 14, 1]
    assert container["components"][0]["content"] == "### Table"
    assert "**Up 1**\n`37`" in texts(message)
    assert message.notes == ()
    discord_accepts(message)


def test_controls_get_the_session_version_and_action_in_their_custom_id() -> None:
    message = build(
        layout(
            Controls(
                (
                    Button("join", "Join", version=LOBBY),
                    Button("end", "End"),
                    Select("pick", (Option("12", "12"),)),
                )
            )
        )
    )
    assert custom_ids(message) == [f"g:{SID}:L:join", f"g:{SID}:7:end", f"s:{SID}:7:pick"]


def test_built_controls_are_the_persistent_dynamic_items() -> None:
    """A click on a sent control reaches the DynamicItem registered for its kind."""
    message = build(layout(Controls((Button("end", "End"), Select("pick", (Option("1", "1"),))))))
    kinds = {2: ControlButton, 3: ControlSelect}
    controls = [c for c in components(message) if c["type"] in kinds]
    assert sorted(c["type"] for c in controls) == [2, 3]
    for control in controls:
        template = kinds[control["type"]].__discord_ui_compiled_template__
        assert template.fullmatch(control["custom_id"]), control


def test_buttons_share_rows_of_five_and_each_select_has_a_row() -> None:
    buttons = tuple(Button(f"b{i}", str(i)) for i in range(7))
    select = Select("pick", (Option("1", "one"),))
    message = build(layout(Controls((*buttons[:3], select, *buttons[3:]))))
    rows = [c for c in components(message) if c["type"] == 1]
    assert [[x["type"] for x in row["components"]] for row in rows] == [[2, 2, 2], [3], [2] * 4]


def test_a_long_select_is_split_into_selects_of_25_options() -> None:
    options = tuple(Option(str(i), f"Card {i}") for i in range(60))
    message = build(layout(Controls((Select("pick", options, max_values=30),))))
    selects = [c for c in components(message) if c["type"] == 3]
    assert [len(s["options"]) for s in selects] == [25, 25, 10]
    assert custom_ids(message) == [f"s:{SID}:7:pick", f"s:{SID}:7:pick-p2", f"s:{SID}:7:pick-p3"]
    assert [s["max_values"] for s in selects] == [25, 25, 10]
    values = [o["value"] for s in selects for o in s["options"]]
    assert values == [str(i) for i in range(60)]
    discord_accepts(message)


def test_overlong_and_repeated_controls_and_options_are_left_out() -> None:
    message = build(
        layout(
            Controls(
                (
                    Button("end", "End"),
                    Button("end", "End again"),
                    Button("x" * 90, "Too long"),
                    Select("pick", (Option("1", "a"), Option("1", "b"), Option("v" * 101, "c"))),
                )
            )
        )
    )
    assert custom_ids(message) == [f"g:{SID}:7:end", f"s:{SID}:7:pick"]
    [select] = [c for c in components(message) if c["type"] == 3]
    assert [o["label"] for o in select["options"]] == ["a"]
    assert len(message.notes) == 4
    discord_accepts(message)


def test_long_labels_are_shortened_with_an_ellipsis() -> None:
    message = build(layout(Controls((Button("end", "e" * 120),))))
    [button] = [c for c in components(message) if c["type"] == 2]
    assert len(button["label"]) == 80 and button["label"].endswith("…")


def test_pictures_become_a_gallery_or_a_thumbnail_sent_as_files() -> None:
    message = build(
        layout(
            Picture(png(), "table.png", "four piles"),
            Section(("Alice",), accessory=Picture(png((9, 9, 9)), "alice.png", "Alice's dice")),
        )
    )
    kinds = {c["type"]: c for c in components(message)}
    assert kinds[12]["items"][0]["media"]["url"] == "attachment://table.png"
    assert kinds[12]["items"][0]["description"] == "four piles"
    assert kinds[11]["media"]["url"] == "attachment://alice.png"
    files = message.send_kwargs()["files"]
    assert [(f.filename, f.description) for f in files] == [
        ("table.png", "four piles"),
        ("alice.png", "Alice's dice"),
    ]
    discord_accepts(message)


def every_kind_of_block(accent: int | None) -> Layout:
    long = "x" * 120
    return layout(
        Text("▶ alice — must play 2", Priority.ESSENTIAL),
        Section(("a line", "another"), accessory=Button("acc", long, "🔄", Style.PRIMARY)),
        Section(("beside a thumbnail",), accessory=Picture(png(), "alice.png", "her dice")),
        Separator(visible=False, large=True),
        Text("after a gap"),
        Separator(),
        Picture(png((9, 9, 9)), "table.png", "four piles"),
        Controls(
            (
                Button("b1", "One"),
                Button("b2", emoji="<:blue:123456789012345678>", style=Style.DANGER),
                Button("b3", "Three", disabled=True, version=LOBBY),
                Select(
                    "pick",
                    (
                        Option("1", "one", emoji="🔵", default=True, description=long),
                        Option("2", long),
                    ),
                    placeholder="choose",
                    min_values=0,
                    max_values=2,
                    disabled=True,
                ),
                Select("solo", tuple(Option(str(i), f"card {i}") for i in range(30))),
            )
        ),
        accent=accent,
    )


@pytest.mark.parametrize("accent", [0x5865F2, None, 0])
def test_the_payload_sent_is_the_built_components_and_discord_accepts_it(
    accent: int | None,
) -> None:
    message = build(every_kind_of_block(accent))
    discord_accepts(message)
    sent = message.edit_kwargs()["view"]
    assert sent.to_components() == message.components and sent.has_components_v2()
    assert not sent.is_dispatchable()  # nothing for discord.py to store: DynamicItems dispatch


def test_the_game_screens_are_payloads_discord_accepts() -> None:
    state = on_fire_state()
    record = SessionRecord(
        id=SID,
        game_id="thegame",
        rules_version=1,
        guild_id=1,
        channel_id=2,
        host_id=3,
        locale="en",
        options={},
        seed=0,
        status=Status.ACTIVE,
        version=7,
        seats=(Seat(user_id=3, name="alice"), Seat(user_id=4, name="bob")),
    )
    ctx = Context.of(Session(record=record, rules=RULES, state=state), "en")
    ctx.picture = table_picture(RULES.view(state, None))
    hand = UI.hand(ctx, 1, str(state.hands[1][0]))  # bob to move, a card picked
    assert any(isinstance(block, Controls) for block in hand.blocks)
    for message in (build(UI.table(ctx)), build(hand)):
        discord_accepts(message)


def test_send_and_edit_kwargs() -> None:
    plain = build(layout(Text("hello")))
    assert set(plain.send_kwargs()) == {"view"}
    edit = plain.edit_kwargs()
    assert edit["content"] is None and edit["embeds"] == [] and edit["attachments"] == []
    assert isinstance(edit["view"], discord.ui.LayoutView)
    pictured = build(layout(Picture(png(), "table.png", "piles")))
    assert [f.filename for f in pictured.edit_kwargs()["attachments"]] == ["table.png"]


def test_the_size_is_counted_the_way_discord_counts_it() -> None:
    message = build(
        layout(
            Section(("a",), accessory=Button("a", "A")),
            Controls((Button("b", "B"), Button("c", "C"), Select("s", (Option("1", "1"),)))),
            Picture(png(), "p.png", "p"),
        )
    )
    counted, text = message.size
    assert counted == len(components(message))
    assert text == sum(len(c["content"]) for c in components(message) if c["type"] == 10)


# Summarising ---------------------------------------------------------------------------------


def test_adjacent_texts_are_merged_before_anything_is_dropped() -> None:
    blocks = [Text(f"line {i}") for i in range(60)]
    message = build(layout(*blocks))
    assert message.size[0] <= MAX_COMPONENTS
    assert all(f"line {i}" in texts(message) for i in range(60))
    assert not any(note.startswith("dropped") for note in message.notes)


def test_too_many_components_drop_the_lowest_priority_last_blocks_first() -> None:
    def row(name: str, priority: Priority) -> Section:
        return Section((name,), accessory=Button(name, name), priority=priority)

    high = [row(f"high{i}", Priority.HIGH) for i in range(4)]
    normal = [row(f"normal{i}", Priority.NORMAL) for i in range(10)]
    low = [row(f"low{i}", Priority.LOW) for i in range(6)]
    essential = Text("alice to move", Priority.ESSENTIAL)
    message = build(layout(*low[:3], essential, *high, *normal, *low[3:]))

    shown = texts(message)
    assert message.size[0] <= MAX_COMPONENTS
    assert "alice to move" in shown and all(f"high{i}" in shown for i in range(4))
    assert not any(f"low{i}" in shown for i in range(6))
    kept = [i for i in range(10) if f"normal{i}" in shown]
    assert kept == list(range(8))  # the last ones went first, only as many as needed
    discord_accepts(message)


def test_too_much_text_drops_low_priority_text_before_shortening_essential_text() -> None:
    essential = Text("e" * 3000, Priority.ESSENTIAL)
    message = build(layout(essential, Text("n" * 900), Text("l" * 2000, Priority.LOW)))
    shown = texts(message)
    assert "e" * 3000 in shown and "n" * 900 in shown and "lll" not in shown
    assert message.size[1] <= MAX_TEXT


def test_essential_text_too_long_is_shortened_at_its_keep_end() -> None:
    log = "\n".join(f"event {i}" for i in range(1000))
    message = build(layout(Text(log, Priority.ESSENTIAL, keep=Keep.TAIL), Text("legend")))
    shown = texts(message)
    assert message.size[1] <= MAX_TEXT
    assert shown.rstrip().endswith("event 999") and "…\nevent" in shown
    assert "legend" not in shown and "event 0\n" not in shown


def test_separators_do_not_survive_at_an_edge_or_doubled_after_drops() -> None:
    blocks = [Separator(), Text("a", Priority.ESSENTIAL), Separator(), Separator(), Text("b")]
    message = build(layout(*blocks, Separator()))
    [container] = message.components
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [10, 10, 14, 10]


def test_shorten_keeps_whole_lines_when_it_can() -> None:
    text = "first line\nsecond line\nthird line"
    assert shorten(text, 24) == "first line\nsecond line\n…"
    assert shorten(text, 24, Keep.TAIL) == "…\nsecond line\nthird line"
    assert shorten("abcdefgh", 5) == "abcd…" and shorten("abcdefgh", 5, Keep.TAIL) == "…efgh"


_labels = st.text(min_size=0, max_size=150)
_options = st.lists(
    st.builds(Option, value=st.text(min_size=1, max_size=110), label=_labels), max_size=70
)
_controls = st.lists(
    st.one_of(
        st.builds(
            Button,
            action=st.from_regex(r"[a-z]{1,95}", fullmatch=True),
            label=_labels,
            emoji=st.just("🃏"),
        ),
        st.builds(
            Select,
            action=st.from_regex(r"[a-z]{1,12}", fullmatch=True),
            options=_options.map(tuple),
            max_values=st.integers(1, 30),
        ),
    ),
    max_size=12,
)
_blocks = st.lists(
    st.one_of(
        st.builds(Text, text=st.text(max_size=3000), priority=st.sampled_from(Priority)),
        st.builds(
            Section,
            lines=st.lists(st.text(max_size=600), min_size=1, max_size=3).map(tuple),
            accessory=st.one_of(st.none(), st.builds(Button, st.just("acc"), st.just("A"))),
            priority=st.sampled_from(Priority),
        ),
        st.builds(Separator, priority=st.sampled_from(Priority)),
        st.builds(Controls, items=_controls.map(tuple), priority=st.sampled_from(Priority)),
        st.builds(
            Picture,
            png=st.just(png()),
            filename=st.sampled_from(["a.png", "b c.png", "a.png"]),
            alt=st.text(max_size=1100),
            priority=st.sampled_from(Priority),
        ),
    ),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(blocks=_blocks, title=st.text(min_size=1, max_size=300))
def test_any_layout_builds_into_a_message_discord_accepts(blocks: list[Any], title: str) -> None:
    message = build(layout(*blocks, title=title))
    components_, text = message.size
    assert components_ <= MAX_COMPONENTS and text <= MAX_TEXT
    discord_accepts(message)
    assert texts(message).startswith("### ")  # the title always stays


def test_fingerprints_are_stable_and_change_with_what_is_shown() -> None:
    def table(text: str = "alice to move", version: int = 7, colour: int = 1) -> Layout:
        return layout(
            Text(text),
            Picture(png((colour, 2, 3)), "table.png", "piles"),
            Controls((Button("end", "End"),)),
            version=version,
        )

    same = build(table()).fingerprint
    assert build(table()).fingerprint == same
    assert build(table(text="bob to move")).fingerprint != same
    assert build(table(version=8)).fingerprint != same
    assert build(table(colour=200)).fingerprint != same


# The Game's table picture --------------------------------------------------------------------


def on_fire_state(**changes: Any) -> TheGameState:
    """Two players mid-game with On Fire: a blue 55 left uncovered from an earlier turn."""
    state = TheGameState(
        config=TheGameConfig(players=2, on_fire=True),
        phase=Phase.PLAY,
        deck=tuple(range(60, 70)),
        hands=((3, 4, 5, 6, 7, 8, 9), (12, 13, 14, 15, 16, 17, 18)),
        tops=(37, 1, 55, 82),
        counts=(3, 0, 2, 2),
        blue_since=(None, None, 2, None),
        signals=((), (SignalKind.NO_PLAY,), (), (SignalKind.NO_JUMP,)),
        turn=1,
        turn_number=3,
        played_this_turn=1,
    )
    return state.model_copy(update=changes)


def test_table_picture_is_a_png_sized_for_a_phone() -> None:
    data = table_picture(RULES.view(on_fire_state(), None))
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (1000, 420)
    assert len(data) < 200_000


def test_different_piles_give_different_pictures() -> None:
    base = table_picture(RULES.view(on_fire_state(), None))
    changes = [
        {"tops": (38, 1, 55, 82)},  # another top card
        {"signals": ((), (), (), (SignalKind.NO_JUMP,))},  # a signal cleared
        {"blue_since": (None, None, None, None), "turn_number": 2},  # no burn warning
        {"config": TheGameConfig(players=2)},  # 55 is not blue without On Fire
    ]
    pictures = [table_picture(RULES.view(on_fire_state(**c), None)) for c in changes]
    assert len({base, *pictures}) == len(changes) + 1


def test_the_picture_depends_on_the_public_view_only() -> None:
    assert list(inspect.signature(table_picture).parameters) == ["view"]
    state = on_fire_state()
    other_hands = on_fire_state(
        hands=((20, 21, 22, 23, 24, 25, 26), (30, 31, 32, 33, 34, 35, 36)), deck=(70, 71)
    )
    assert table_picture(RULES.view(state, None)) == table_picture(RULES.view(other_hands, None))
    assert table_picture(RULES.view(state, 0)) == table_picture(RULES.view(state, None))


def test_the_same_view_draws_the_same_bytes() -> None:
    from bot.games.thegame import picture

    view = RULES.view(on_fire_state(), None)
    first = table_picture(view)
    picture._draw.cache_clear()
    assert table_picture(view) == first


# Worked example: The Game's public table through the emulator --------------------------------


class TableClient(discord.Client):
    """Just enough bot to post layouts: the controls are the real persistent DynamicItems."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = discord.app_commands.CommandTree(self)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ControlButton, ControlSelect)


@pytest.fixture
async def client() -> AsyncIterator[tuple[Emulator, TableClient]]:
    async with Emulator.running() as emu, emu.run_bot(TableClient()) as bot:
        yield emu, bot


UI = TheGameUI()


def played(seat: int, card: int, pile: int) -> Event:
    return Event(key="thegame.played", params={"seat": seat, "card": card, "pile": pile})


def played_text(name: str, card: int, pile: int) -> str:
    pile_name = t("en", f"thegame.pile.{pile}")
    return t("en", "thegame.event.played", seat=name, card=card, pile=pile_name)


def public_table(state: TheGameState, recent: list[Event], picture: bool = True) -> V2Message:
    """The Game's real table renderer, given what `bot.tables.Tables` gives it."""
    record = SessionRecord(
        id=SID,
        game_id="thegame",
        rules_version=1,
        guild_id=1,
        channel_id=2,
        host_id=3,
        locale="en",
        options={"on_fire": True},
        seed=0,
        status=Status.ACTIVE,
        version=12,
    )
    session = Session(record=record, rules=RULES, config=state.config, state=state)
    ctx = Context(
        session=session,
        lang="en",
        names=["alice", "bob"],
        recent=tuple(recent),
        describe=UI.event_text,
        picture=UI.table_picture(RULES.view(state, None)) if picture else None,
    )
    return build(UI.table(ctx))


async def test_worked_example_the_game_table_is_posted_edited_and_read_back(
    client: tuple[Emulator, TableClient],
) -> None:
    emu, bot = client
    channel = bot.get_channel(emu.general.id)
    assert isinstance(channel, discord.TextChannel)
    state = on_fire_state()
    view = RULES.view(state, None)
    recent = [played(0, 37, 0), played(1, 55, 2)]
    table = public_table(state, recent)

    sent = await channel.send(**table.send_kwargs())

    message = emu.messages[sent.id]
    assert message.components_v2 and message.content == "" and message.embeds == []
    assert message.file(FILENAME) == table_picture(view)
    shown = text_of(message)
    status = t("en", "thegame.table.seat", name="bob", count=7)
    todo = t("en", "thegame.table.must_play", n=view.still_required)
    assert f"▶ **{status}** — {todo}" in shown
    events = [played_text("alice", 37, 0), played_text("bob", 55, 2)]
    assert all(event in shown for event in events)
    burn = t("en", "thegame.table.burn_warning", card=55, pile=t("en", "thegame.pile.2"))
    assert burn in shown
    for index in range(4):
        line = pile_line(view, "en", index)
        assert line in shown and plain(line) in shown  # the pile's section, the picture's alt
    # Phone first: whose turn it is and the latest events come before the piles.
    assert shown.index(status) < shown.index(events[-1]) < shown.index(pile_line(view, "en", 0))
    assert t("en", "table.show_hand") in shown and t("en", "thegame.signal.placeholder") in shown
    assert f"g:{SID}:12:hand" in message.custom_ids()
    assert f"s:{SID}:12:x.sig" in message.custom_ids()

    # The next move: the same message is edited; the picture is replaced, not added.
    later = on_fire_state(tops=(37, 1, 54, 82), counts=(3, 0, 3, 2), played_this_turn=2)
    edited = public_table(later, [*recent, played(1, 54, 2)])
    assert edited.fingerprint != table.fingerprint
    await sent.edit(**edited.edit_kwargs())

    assert message.edits == 1 and len(message.attachments) == 1
    assert message.file(FILENAME) == table_picture(RULES.view(later, None))
    assert played_text("bob", 54, 2) in text_of(message)
    assert emu.errors == []


async def test_worked_example_a_classic_table_is_edited_into_v2_without_the_picture(
    client: tuple[Emulator, TableClient],
) -> None:
    emu, bot = client
    channel = bot.get_channel(emu.general.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("old table", embed=discord.Embed(title="The Game"))

    await sent.edit(**public_table(on_fire_state(), [], picture=False).edit_kwargs())

    message = emu.messages[sent.id]
    assert message.components_v2 and message.content == "" and message.embeds == []
    assert message.attachments == []
    assert pile_line(RULES.view(on_fire_state(), None), "en", 3) in text_of(message)
