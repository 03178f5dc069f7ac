"""Pure game rules: no I/O, no Discord, no database."""
