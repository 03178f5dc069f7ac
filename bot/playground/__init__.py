"""The local playground: the real bot against the Discord emulator, played in a browser."""
