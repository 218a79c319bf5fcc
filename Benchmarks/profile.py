#!/usr/bin/env python3
"""Where a create's (or a check's) server CPU goes, by the part of Tacit that spent it.

    Benchmarks/profile.py [--checks] BINARY [BINARY_B]

Runs `tacit serve --dev` under `perf record --call-graph dwarf` for 3 s of sms creates
(`create_sms.lua`) or, with `--checks`, of right-code checks on 40,000 prepared
verifications after 2 s of creates, as `Benchmarks/alternate.py` measures them. Every
sample is charged to the nearest frame of its stack in Tacit's own code, so what the
standard library, the Swift runtime, malloc or the kernel did is counted to the type of
Tacit's that asked for it: `SQLite statements` is everything below one statement's
run (SQLite itself, its WAL writes and their system calls), `checkpoint` the background
checkpointer's copying, and a sample with no frame of Tacit's (a thread waking, the
HTTP library's own work) is counted to its thread. Each part is printed in µs per
request (its share of the samples times the server's CPU per request), with a second
binary side by side and sorted by the difference.

Needs `perf` (Debian's linux-perf) and permission to record a process of one's own
(`kernel.perf_event_paranoid` at most 2). `perf` inflates every figure by about a
fifth, both builds alike: the split and the differences are what count. The async
frames of Swift tasks end a stack at the task's entry, which is still Tacit's code."""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from alternate import answered  # noqa: E402
from benchlib import Server, wrk  # noqa: E402
from core import prepare_checks  # noqa: E402

SECONDS = 3
DEMANGLER = shutil.which("swift-demangle") or "/opt/swift/usr/bin/swift-demangle"


def record(binary, checks, data):
    """perf data for one run; returns (requests answered, server CPU seconds)."""
    server = Server(binary=binary).start()
    try:
        wrk(server.url, "/healthz", seconds=1)
        creates = {"TACIT_NUMBER_BASE": "0"}
        if checks:
            wrk(server.url, seconds=2, script="create_sms.lua", env=creates)
            checks_file = os.path.join(server.dir, "checks.txt")
            prepare_checks(server, 40_000, checks_file)
            route, status = "/v1/verifications/:id/check", 200
            script, env = "check.lua", {"TACIT_CHECKS": checks_file, "TACIT_THREADS": "2"}
        else:
            route, status, script, env = "/v1/verifications", 202, "create_sms.lua", creates
        before, cpu = answered(server, route, status), server.cpu_seconds()
        perf = subprocess.Popen(["perf", "record", "-q", "-F", "499", "--call-graph", "dwarf,16384",
                                 "-p", str(server.process.pid), "-o", data],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.3)  # perf attaches to every thread before the load starts
        wrk(server.url, seconds=SECONDS, script=script, env=env)
        perf.send_signal(subprocess.signal.SIGINT)
        perf.wait()
        return answered(server, route, status) - before, server.cpu_seconds() - cpu
    finally:
        server.stop()
        server.remove()


def stacks(data):
    """Each sample as (thread name, [symbol, leaf first])."""
    text = subprocess.run(["perf", "script", "-i", data, "-F", "comm,ip,sym"],
                          capture_output=True, text=True).stdout
    for block in text.split("\n\n"):
        lines = [line.strip() for line in block.strip().splitlines()]
        if len(lines) < 2:
            continue
        frames = [parts[1] if len(parts) > 1 else parts[0] for parts in (line.split(None, 1) for line in lines[1:])]
        yield lines[0].split()[0], [re.sub(r" \(inlined\)$", "", frame) for frame in frames]


def part(symbol, names):
    """The part of Tacit a symbol belongs to: Module.Type, from its demangled name."""
    if "StatementC3run" in symbol:
        return "SQLite statements"
    if "executeScript" in symbol:
        return "checkpoint"
    name = names.get(symbol, symbol)
    name = re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", name))
    name = re.sub(r"^(\(extension in \w+\):|static |generic specialization .*? of |closure #\d+ .*? in )+", "", name)
    match = re.match(r"(Tacit\w+)\.(\w+)", name)
    return f"{match.group(1)}.{match.group(2)}" if match else name[:60]


def profile(binary, checks):
    """µs per request by part, and the CPU per request."""
    with tempfile.TemporaryDirectory(prefix="tacit-profile-") as folder:
        data = os.path.join(folder, "perf.data")
        requests, cpu = record(binary, checks, data)
        # Each sample as its thread and the nearest frame of Tacit's own code (None without one).
        samples = [(thread, next((frame for frame in frames if "Tacit" in frame), None))
                   for thread, frames in stacks(data)]
    symbols = sorted({symbol for _, symbol in samples if symbol})
    demangled = subprocess.run([DEMANGLER, "--simplified", "--compact"], input="\n".join(symbols),
                               capture_output=True, text=True).stdout.splitlines()
    names = dict(zip(symbols, demangled)) if len(demangled) == len(symbols) else {}
    per_sample = cpu * 1e6 / max(requests, 1) / max(len(samples), 1)
    parts = collections.Counter()
    for thread, symbol in samples:
        parts[part(symbol, names) if symbol else f"(thread {thread})"] += per_sample
    return parts, cpu * 1e6 / max(requests, 1)


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--checks"]
    checks = "--checks" in sys.argv
    if not 1 <= len(arguments) <= 2:
        print(__doc__)
        return 2
    results = [profile(binary, checks) for binary in arguments]
    kind = "check" if checks else "create"
    for binary, (_, total) in zip(arguments, results):
        print(f"{binary}: {total:.0f} µs of server CPU a {kind} under perf")
    first = results[0][0]
    last = results[-1][0]
    keys = sorted(set(first) | set(last),
                  key=lambda key: -(last[key] - first[key]) if len(results) > 1 else -first[key])
    print(f"µs a {kind}: " + ("     B      A    B-A  part (A is the first binary)" if len(results) > 1 else "part"))
    # With two builds: the 30 parts that grew most, then the 20 that shrank most.
    shown = keys[:30] + [key for key in keys[-20:] if key not in keys[:30]] if len(results) > 1 else keys[:50]
    for key in shown:
        if len(results) > 1:
            print(f"{last[key]:6.1f} {first[key]:6.1f} {last[key] - first[key]:+6.1f}  {key}")
        else:
            print(f"{first[key]:6.1f}  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
