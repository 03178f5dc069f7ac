"""One cog per game plus the shared commands."""
