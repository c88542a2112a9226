#!/usr/bin/env python3
"""Who was ahead when recorded games ended by repetition.

Usage: python3 scripts/draw_material.py JUNGLE PLAYER_PREFIX FILE.jsonl...

Replays each game with `JUNGLE games FILE` (the final position's FEN) and
counts, over the games that ended by repetition, the material of the player
whose spec starts with PLAYER_PREFIX (e.g. `net:`) minus its opponent's, in
alpha-beta's points (rat 350, cat 200, dog 300, wolf 350, leopard 500,
tiger 800, lion 900, elephant 1000): behind by 200 or more, level, ahead by
200-499, ahead by 500 or more. Needs only Python 3.
"""

import re
import subprocess
import sys

VALUES = {"r": 350, "c": 200, "d": 300, "w": 350, "p": 500, "t": 800, "l": 900, "e": 1000}
BANDS = [
    ("behind by 200 or more", -10**9, -200),
    ("level (within 199)", -199, 199),
    ("ahead by 200-499", 200, 499),
    ("ahead by 500 or more", 500, 10**9),
]


def games(jungle, path):
    text = subprocess.run([jungle, "games", path], check=True, capture_output=True, text=True).stdout
    for block in text.split("[Source ")[1:]:
        tags = dict(re.findall(r'^\[(\w+) "(.*?)"\]$', block, re.M))
        fen = re.search(r"to move; (\S+)", block).group(1)
        yield tags, fen


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    jungle, prefix, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    total, leads = 0, []
    for path in files:
        for tags, fen in games(jungle, path):
            total += 1
            if tags["Reason"] != "repetition":
                continue
            south = sum(VALUES[c.lower()] for c in fen if c.lower() in VALUES and c.isupper())
            north = sum(VALUES[c.lower()] for c in fen if c.lower() in VALUES and c.islower())
            if tags["South"].startswith(prefix):
                leads.append(south - north)
            elif tags["North"].startswith(prefix):
                leads.append(north - south)
            else:
                sys.exit(f"draw_material: {path}: neither seat's player starts with {prefix!r}")
    print(f"{total} games, {len(leads)} ended by repetition; {prefix} player's material lead at the end:")
    for name, lo, hi in BANDS:
        n = sum(1 for lead in leads if lo <= lead <= hi)
        print(f"  {name}: {n} ({n / max(1, len(leads)):.0%})")


if __name__ == "__main__":
    main()
