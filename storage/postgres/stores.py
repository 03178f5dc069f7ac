"""The PostgreSQL stores, in the order `storage.Storage` builds them."""

from __future__ import annotations

from storage.postgres.hands import PgHandMessages
from storage.postgres.players import PgPlayers
from storage.postgres.prefs import PgPrefs
from storage.postgres.ratings import PgRatings
from storage.postgres.records import PgRecords
from storage.postgres.sessions import PgSessionStore

STORES = (PgSessionStore, PgPrefs, PgRecords, PgPlayers, PgHandMessages, PgRatings)
