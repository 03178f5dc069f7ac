"""The Discord layer: client, settings, cogs, components, rendering, i18n, delivery."""
