"""Hell Queue Club on Discord: its cog, screens, controls, picture and catalog."""
