"""`python -m runtime.replay FILE`: check a game's exported log offline (`games.replay`).

Exit status: 0 when the file replays (and matches its stored outcome, if it has one); 1 when
an action is refused, the log is broken, or the outcome differs; 2 when the file cannot be read
as a replay at all.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from games.replay import ReplayError, UnreadableFile, check, describe


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m runtime.replay", description="Replay a game's exported log and check it."
    )
    parser.add_argument("file", type=Path, help="the JSON file /replay export:true attached")
    args = parser.parse_args(argv)
    try:
        data = json.loads(args.file.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise UnreadableFile("the file is not a JSON object")
        outcome = check(data)
    except (OSError, ValueError, UnreadableFile) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    except ReplayError as error:
        print(f"{args.file} does not replay: {error}", file=sys.stderr)
        return 1
    print(describe(data, outcome))
    if data.get("outcome") is not None:
        print("matches the stored outcome")
    return 0


if __name__ == "__main__":
    sys.exit(main())
