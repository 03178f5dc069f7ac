"""The bot's figures, as Prometheus reads them at /metrics.

What the games do (moves, hints, turn timers, seats taken over, quarantined sessions, AI
decisions), how long a change waits for its commit, how long a click waits for its reply,
how Discord answers (by route and status, 429s and the time spent waiting them out), and
what is live now (sessions per game, each shard's gateway). Every label is bounded: a game,
an AI level, a route template, a status, a shard — never a user, session, channel or guild
id, so the number of series stays small whatever the bot serves. Each bot has a registry of its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder

from games.engine import AI_LEVELS
from runtime import Change

TURN_EXPIRED = "session.turn_expired"
SEAT_AWAY = "session.seat_away"
"""The service's events of a turn timer that ran out, and of a seat an AI then holds."""

REPLY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
"""Click → reply, seconds: fine up to Discord's 3 s, past which the click has failed."""

COMMIT_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
AI_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)

disable_created_metrics()  # a `_created` twin of every series doubles them and says little


@dataclass(frozen=True, slots=True)
class Shard:
    """One gateway connection as /metrics shows it."""

    id: int
    connected: bool
    latency: float
    """Seconds between a heartbeat and its acknowledgement (inf before the first one)."""


class Metrics:
    """The registry and every figure the bot counts; `on_change` observes the session
    service, the rest is told by its commits (`on_commit`), the AI and the Discord traffic."""

    def __init__(self, games: Iterable[str]) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        per_game = ["game"]
        self.moves = Counter(
            "tablebot_moves",
            "Moves committed: a player's, an AI's, or a timer closing a window",
            per_game,
            registry=registry,
        )
        self.hints = Counter(
            "tablebot_hints", "Hints asked for (/hint)", per_game, registry=registry
        )
        self.expiries = Counter(
            "tablebot_turn_timer_expiries",
            "Turn timers that ran out (an AI played that turn)",
            per_game,
            registry=registry,
        )
        self.taken_over = Counter(
            "tablebot_seats_taken_over",
            "Seats an AI took over after missed turns in a row, until their player is back",
            per_game,
            registry=registry,
        )
        self.quarantined = Counter(
            "tablebot_sessions_quarantined",
            "Sessions whose stored log no longer loads, set aside",
            per_game,
            registry=registry,
        )
        self.ai = Histogram(
            "tablebot_ai_decision_seconds",
            "AI decisions (hints' included) and the seconds each took, per level",
            ["level"],
            buckets=AI_BUCKETS,
            registry=registry,
        )
        self.commit = Histogram(
            "tablebot_store_commit_seconds",
            "Seconds a change waited for its commit: the store's group commit and its queue",
            buckets=COMMIT_BUCKETS,
            registry=registry,
        )
        self.reply = Histogram(
            "tablebot_interaction_reply_seconds",
            "From an interaction's creation (a click, a command) to Discord taking its reply",
            buckets=REPLY_BUCKETS,
            registry=registry,
        )
        self.responses = Counter(
            "tablebot_discord_http_responses",
            "Discord's answers to the bot's HTTP requests, by route template and status",
            ["method", "route", "status"],
            registry=registry,
        )
        self.rate_limited = Counter(
            "tablebot_discord_rate_limit_wait_seconds",
            "Seconds Discord's 429s told the bot to wait, by route template and scope",
            ["route", "scope"],
            registry=registry,
        )
        for game in games:  # every series from the start, so a rate() sees the first one
            for counter in (
                self.moves,
                self.hints,
                self.expiries,
                self.taken_over,
                self.quarantined,
            ):
                counter.labels(game)
        for level in AI_LEVELS:
            self.ai.labels(level)
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)

    def on_change(self, change: Change) -> None:
        """A committed change (the service's observer): count what it did."""
        game = change.session.record.game_id
        if change.kind == "move":
            self.moves.labels(game).inc()
        elif change.kind == "hint":
            self.hints.labels(game).inc()
        elif change.kind == "quarantine":
            self.quarantined.labels(game).inc()
        for event in change.events:
            if event.key == TURN_EXPIRED:
                self.expiries.labels(game).inc()
            elif event.key == SEAT_AWAY:
                self.taken_over.labels(game).inc()

    def decided(self, level: str, seconds: float) -> None:
        self.ai.labels(level).observe(seconds)

    def committed(self, seconds: float) -> None:
        """A change the store committed (the service's `on_commit`), after `seconds`."""
        self.commit.observe(seconds)

    def watch(
        self,
        live: Callable[[], Mapping[tuple[str, str], int]],
        shards: Callable[[], list[Shard]],
    ) -> None:
        """Read what is live when /metrics is read: sessions per (game, status), and the
        gateway of each shard."""
        self.registry.register(_Now(live, shards))

    def exposition(self, accept: str) -> tuple[bytes, str]:
        """Every figure, in the format the scraper's Accept header asks for (Prometheus's
        text format, or OpenMetrics), and its content type."""
        encode, content_type = choose_encoder(accept)
        return encode(self.registry), content_type


class _Now:
    """A collector of what is live at the moment /metrics is read."""

    def __init__(
        self,
        live: Callable[[], Mapping[tuple[str, str], int]],
        shards: Callable[[], list[Shard]],
    ) -> None:
        self._live = live
        self._shards = shards

    def describe(self) -> list[Metric]:
        return []  # nothing to check at registration: the names are fixed

    def collect(self) -> Iterator[Metric]:
        sessions = GaugeMetricFamily(
            "tablebot_sessions_live",
            "Sessions in their lobby or in play, of the guilds this process runs",
            labels=["game", "status"],
        )
        for (game, status), count in sorted(self._live().items()):
            sessions.add_metric([game, status], count)
        yield sessions
        connected = GaugeMetricFamily(
            "tablebot_gateway_connected",
            "1 while the shard's gateway connection is open",
            labels=["shard"],
        )
        latency = GaugeMetricFamily(
            "tablebot_gateway_latency_seconds",
            "Seconds between the shard's last heartbeat and its acknowledgement",
            labels=["shard"],
        )
        for shard in self._shards():
            connected.add_metric([str(shard.id)], 1.0 if shard.connected else 0.0)
            seconds = shard.latency if math.isfinite(shard.latency) else math.nan
            latency.add_metric([str(shard.id)], seconds)
        yield connected
        yield latency
