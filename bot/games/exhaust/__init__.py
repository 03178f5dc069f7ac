"""Exhaust on Discord. `cog` is the extension the bot loads: `/exhaust`, its table and hands."""
