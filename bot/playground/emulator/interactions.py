"""What a test gets back from `user.slash/click/select`: the interaction and the bot's answer.

An `InteractionResult` is also the emulator's own record of the interaction: its token, the
3-second window for the initial response, the 15-minute token lifetime and the messages the
token may edit.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import WAIT_CEILING, EmulatorTimeout, InteractionFailed
from .models import EmuChannel, EmuMessage, EmuUser, text_of

if TYPE_CHECKING:
    from .emulator import Emulator

# Interaction types.
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback (response) types.
PONG = 1
CHANNEL_MESSAGE_WITH_SOURCE = 4
DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
APPLICATION_COMMAND_AUTOCOMPLETE_RESULT = 8
MODAL = 9

RESPONSE_NAMES = {
    4: "CHANNEL_MESSAGE_WITH_SOURCE",
    5: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    6: "DEFERRED_UPDATE_MESSAGE",
    7: "UPDATE_MESSAGE",
    8: "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    9: "MODAL",
}


@dataclass(frozen=True)
class ApiCall:
    """One REST call the bot made (kept for assertions and error messages)."""

    method: str
    path: str
    status: int
    code: int | None = None
    message: str | None = None
    body: Any = None
    at: float = field(default=0.0, compare=False)
    """When it was answered (the emulator's clock: the event loop's)."""

    def __str__(self) -> str:
        tail = f" {self.code} {self.message}" if self.code is not None else ""
        return f"{self.method} {self.path} -> {self.status}{tail}"


@dataclass(eq=False, repr=False)
class InteractionResult:
    """One interaction a test user started, and everything the bot did with it.

    - `type`: the initial response type (4 message, 5 deferred, 6 deferred update, 7 update,
      8 autocomplete, 9 modal) or None while unanswered.
    - `message`: the message the response created (4/5) or updated (6/7); live object.
    - `ephemeral`: whether that message is only visible to the user.
    - `followups`: messages sent through the interaction webhook afterwards.
    - `modal`: the modal payload for type 9. `errors`: rejected calls the bot made with this token.
    """

    id: int
    token: str
    kind: int
    user: EmuUser
    channel: EmuChannel
    data: dict[str, Any]
    created_at: float
    deadline: float
    expires_at: float
    source_message: EmuMessage | None = None
    parent: InteractionResult | None = None
    command_name: str | None = None
    type: int | None = None
    message: EmuMessage | None = None
    followups: list[EmuMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    errors: list[ApiCall] = field(default_factory=list)
    response_payload: dict[str, Any] | None = None
    window_closed: bool = False
    created_wall: float = field(default_factory=time.time, repr=False)
    _emu: Emulator | None = field(default=None, repr=False)
    _answered: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def __repr__(self) -> str:
        return f"<InteractionResult {self.describe()} id={self.id} type={self.type_name}>"

    # -- state --------------------------------------------------------------------------------

    @property
    def responded(self) -> bool:
        return self.type is not None

    @property
    def type_name(self) -> str | None:
        return RESPONSE_NAMES.get(self.type) if self.type is not None else None

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def deferred(self) -> bool:
        return self.type in (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, DEFERRED_UPDATE_MESSAGE)

    @property
    def text(self) -> str:
        """Text of the response message (see `text_of`); empty if there is none."""
        return text_of(self.message) if self.message is not None else ""

    @property
    def original(self) -> EmuMessage | None:
        """The message `@original` refers to for this token."""
        if self.type in (CHANNEL_MESSAGE_WITH_SOURCE, DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE):
            return self.message
        if self.type in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            return self.source_message
        return None

    def owns(self, message: EmuMessage) -> bool:
        """Whether this token may edit/delete `message` through the webhook routes."""
        if message is self.original or message in self.followups:
            return True
        return self.kind in (MESSAGE_COMPONENT, MODAL_SUBMIT) and message is self.source_message

    def metadata_for(self, message: EmuMessage) -> dict[str, Any]:
        """`interaction_metadata` for a message this interaction produced."""
        out: dict[str, Any] = {
            "id": str(self.id),
            "type": self.kind,
            "user": self.user.payload(),
            "authorizing_integration_owners": (
                {"0": str(self.channel.guild.id)}
                if self.channel.guild
                else {"1": str(self.user.id)}
            ),
        }
        if self.command_name:
            out["name"] = self.command_name
        if self.source_message is not None:
            out["interacted_message_id"] = str(self.source_message.id)
        original = self.original
        if original is not None and message is not original:
            out["original_response_message_id"] = str(original.id)
        return out

    # -- waiting ------------------------------------------------------------------------------

    def _mark_answered(self) -> None:
        self._answered.set()

    def _close_window(self) -> None:
        if not self.responded:
            self.window_closed = True
            self._answered.set()

    def _describe_failure(self, reason: str) -> str:
        lines = [f"interaction {self.describe()} failed: {reason}"]
        if self.errors:
            lines.append("the bot's calls for this interaction were rejected:")
            lines.extend(f"  {call}" for call in self.errors)
        if self._emu is not None:
            logged = [r for r in self._emu.bot_errors.records if r.created >= self.created_wall]
            if logged:
                lines.append("the bot logged errors meanwhile:")
                lines.append(type(self._emu.bot_errors)(logged).format_all())
        return "\n".join(lines)

    def describe(self) -> str:
        what = {2: "slash", 3: "component", 4: "autocomplete", 5: "modal submit"}.get(self.kind)
        name = self.command_name or self.data.get("custom_id", "")
        return f"{what} {name!r} by {self.user.name}"

    async def wait(self, timeout: float | None = None) -> InteractionResult:
        """Wait for the initial response; raise `InteractionFailed` if the window closes first.

        Waits at most until the emulator's response window (default 3 s) closes, or `timeout`.
        """
        loop = asyncio.get_running_loop()
        limit = self.deadline - loop.time() + 0.05 if timeout is None else timeout
        try:
            await asyncio.wait_for(self._answered.wait(), max(limit, 0.0))
        except TimeoutError:
            raise InteractionFailed(self._describe_failure("no response (timeout)")) from None
        if not self.responded:
            raise InteractionFailed(
                self._describe_failure(
                    "the bot did not acknowledge it within "
                    f"{self.deadline - self.created_at:.2f} s ('This interaction failed')"
                )
            )
        return self

    async def wait_for_followups(
        self, count: int = 1, timeout: float = WAIT_CEILING
    ) -> list[EmuMessage]:
        """Wait until at least `count` follow-ups exist; returns them."""
        assert self._emu is not None
        await self._emu.wait_for(lambda: len(self.followups) >= count, timeout=timeout)
        return list(self.followups)

    async def wait_until_loaded(self, timeout: float = WAIT_CEILING) -> EmuMessage:
        """For a deferred response: wait until the "thinking" message has been filled."""
        assert self._emu is not None

        def done() -> bool:
            return self.message is not None and not self.message.loading

        try:
            await self._emu.wait_for(done, timeout=timeout)
        except EmulatorTimeout:
            raise EmulatorTimeout(
                self._describe_failure("the deferred message was never filled")
            ) from None
        assert self.message is not None
        return self.message
