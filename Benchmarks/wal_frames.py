#!/usr/bin/env python3
"""Which B-trees a commit's pages belong to: for each binary, a fresh `tacit serve --dev`
takes creates (or right-code checks) under wrk for 2 s and is killed with SIGKILL, so its
WAL is left as it was. The frames of the WAL's current run are read from its header and
frame headers, and each frame's page is named by the table or index that owns it (SQLite's
`dbstat`, on a copy of the file and its WAL). Prints frames a commit per B-tree, side by
side for the binaries given (docs/performance.md, "Where the writer's pages go").

    Benchmarks/wal_frames.py [--checks] BINARY [BINARY ...]

A SQLite page changed by a commit is one frame of the WAL: a 24-byte header and the page.
The WAL is reused from its start after a checkpoint, so it holds the last commits only; the
figures are per commit, and the frames of the number's index (a random leaf per create)
say how many creates a commit held."""
import collections
import os
import shutil
import signal
import sqlite3
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import Server, wrk  # noqa: E402
from core import prepare_checks  # noqa: E402

SECONDS = 2


def frames(wal_path):
    """The (page, is-commit) of each frame of the WAL's current run, in order."""
    data = open(wal_path, "rb").read()
    _magic, _version, page_size, _sequence, salt1, salt2 = struct.unpack(">IIIIII", data[:24])
    found, offset = [], 32
    while offset + 24 + page_size <= len(data):
        page, size_after_commit, frame_salt1, frame_salt2 = struct.unpack(">IIII", data[offset:offset + 16])
        if (frame_salt1, frame_salt2) != (salt1, salt2):
            break
        found.append((page, size_after_commit != 0))
        offset += 24 + page_size
    return found


def measure(binary, checks):
    server = Server(binary=binary).start()
    try:
        wrk(server.url, "/healthz", seconds=1)
        if checks:
            path = os.path.join(server.dir, "checks.txt")
            prepare_checks(server, 20000, path)
            wrk(server.url, seconds=SECONDS, script="check.lua", env={"TACIT_CHECKS": path, "TACIT_THREADS": "2"})
        else:
            wrk(server.url, seconds=SECONDS, script="create_sms.lua", env={"TACIT_NUMBER_BASE": "0"})
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
        copy = os.path.join(server.dir, "copy.db")
        shutil.copy(server.db, copy)
        shutil.copy(server.db + "-wal", copy + "-wal")
        written = frames(copy + "-wal")
        with sqlite3.connect(copy) as connection:
            owners = dict(connection.execute("SELECT pageno, name FROM dbstat"))
        commits = max(sum(1 for _, commit in written if commit), 1)
        per_tree = collections.Counter(owners.get(page, "(free)") for page, _ in written)
        return {name: count / commits for name, count in per_tree.items()}, len(written) / commits
    finally:
        server.remove()


def main():
    arguments = sys.argv[1:]
    checks = "--checks" in arguments
    binaries = [a for a in arguments if a != "--checks"]
    if not binaries:
        print(__doc__)
        return 2
    results = [measure(binary, checks) for binary in binaries]
    names = sorted({name for per_tree, _ in results for name in per_tree}, key=lambda n: -max(r[0].get(n, 0) for r in results))
    print("frames a commit, " + ("right-code checks" if checks else "creates") + ": "
          + " | ".join(os.path.relpath(b) for b in binaries))
    for name in names:
        print(f"{name:45s} " + " ".join(f"{per_tree.get(name, 0):7.2f}" for per_tree, _ in results))
    print(f"{'all':45s} " + " ".join(f"{total:7.2f}" for _, total in results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
