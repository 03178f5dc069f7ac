"""Per-game rendering and controls; the shared controller drives them."""
