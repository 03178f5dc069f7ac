"""Angels & Demons Rummy on Discord: its cog, screens, controls and catalog."""
