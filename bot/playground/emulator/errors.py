"""Errors: the ones the emulator answers over HTTP and the ones it raises in tests.

`ApiError` is what a REST handler raises to answer like Discord does (status + JSON body with
`code` and `message`). The `EmulatorError` family is raised on the *test* side, when a test asks a
user to do something the Discord client would not let them do, or when the bot fails to answer.
"""

from __future__ import annotations

from typing import Any

# Discord JSON error codes used by the emulator (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_APPLICATION_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
CANNOT_EDIT_OTHERS_MESSAGE = 50005
EMPTY_MESSAGE = 50006
CANNOT_DM_USER = 50007
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
ALREADY_ACKNOWLEDGED = 40060


class ApiError(Exception):
    """An HTTP error answer, shaped like Discord's `{"code", "message", "errors"?}`."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        body: dict[str, Any] | None = None,
        detail: list[str] | None = None,
    ) -> None:
        lines = [f"{status} {code} {message}", *(detail or [])]
        super().__init__("\n  ".join(lines))
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.detail = list(detail or [])
        self.headers = headers or {}
        self._body = body

    def body(self) -> dict[str, Any]:
        """The JSON body Discord would send for this error."""
        if self._body is not None:
            return self._body
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            out["errors"] = self.errors
        return out


class FormErrors:
    """Collects `Invalid Form Body` errors under their JSON path, like Discord's 50035 answer."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}
        self.flat: list[str] = []

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.flat.append(f"{'.'.join(map(str, path))}: {message}")

    def __bool__(self) -> bool:
        return bool(self.flat)

    def raise_if_any(self) -> None:
        if self.flat:
            raise ApiError(
                400, INVALID_FORM_BODY, "Invalid Form Body", errors=self.tree, detail=self.flat
            )


class EmulatorError(Exception):
    """Base class for errors raised on the test side."""


class InvalidInteraction(EmulatorError):
    """The test asked a user for something the Discord client would refuse.

    E.g. an unknown slash command or option, a wrong option type, clicking a button the user
    cannot see or that is disabled, picking a select value that is not offered.
    """


class InteractionFailed(EmulatorError):
    """The bot did not acknowledge the interaction in time ("This interaction failed")."""


WAIT_CEILING = 60.0
"""Seconds a wait for the bot (a condition, a follow-up, a connection) may take before
EmulatorTimeout: generous, so a loaded machine is slow but never fails; a wait returns as soon
as its event happens, so a passing test never sleeps this long."""


class EmulatorTimeout(EmulatorError, TimeoutError):
    """`Emulator.wait_for` (or a result's wait) gave up."""
