"""One package per game: its cog (an extension), screens, controls, catalog, preferences."""
