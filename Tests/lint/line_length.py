#!/usr/bin/env python3
"""Fails when a Swift line under the given folders runs past 120 columns (characters,
not bytes: the sources hold `…` and `•`). Prints each such line as PATH:LINE: COLUMNS."""
import pathlib
import sys

LIMIT = 120


def long_lines(root):
    for path in sorted(pathlib.Path(root).rglob("*.swift")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if len(line) > LIMIT:
                yield f"{path}:{number}: {len(line)} columns"


def main(roots):
    found = [entry for root in roots for entry in long_lines(root)]
    for entry in found:
        print(entry)
    if found:
        print(f"line-length: {len(found)} lines over {LIMIT} columns")
        return 1
    print(f"line-length: every line of {', '.join(roots)} is at most {LIMIT} columns")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["Sources"]))
