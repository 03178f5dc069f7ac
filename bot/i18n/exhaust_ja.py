"""イグゾーストの日本語カタログ。キーは exhaust_en.py と完全に一致させる。"""

CATALOG: dict[str, str] = {}
