"""The Game on Discord. `cog` is the extension the bot loads: `/thegame`, its table and hands."""
