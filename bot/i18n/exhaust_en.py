"""English catalog of Exhaust. Keys must match exhaust_ja.py exactly."""

CATALOG: dict[str, str] = {}
