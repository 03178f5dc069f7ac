"""Discord components and screens shared by every game."""
