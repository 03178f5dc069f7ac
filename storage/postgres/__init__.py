"""The PostgreSQL backend (asyncpg): the same stores, schema and migrations as SQLite's, for a
bot whose shard processes share one database. Imported only when a `postgresql://` URL is
opened, so a SQLite-only install needs no asyncpg."""
