"""Messages/s through one SMPP session with a window of 10, against the same session with a
window of 1 as the same-run baseline, both against the smpp34 SMSC (PyPI `smpp34`, the
SMSC the provider tests use) on loopback. The two take turns for --rounds rounds, so a
neighbour's load weighs on both alike; the ratio is of their rates over all rounds.
Target: a window of 10 carries at least 3 times the messages of a window of 1 (with one
SMSC on loopback, where a round trip is short, the window's gain is smallest)."""
import argparse
import json
import os
import socket
import subprocess
import sys
import time

from benchlib import ROOT, report

SMSC = """
import asyncio, sys, smpp34
async def main(port):
    server = smpp34.Server("127.0.0.1", port, system_id="SMSC")
    await server.start()
    print("ready", flush=True)
    counter = 0
    while True:
        event = await server.next()
        if isinstance(event, smpp34.SubmitSmEvent):
            counter += 1
            event.accept(f"msg-{counter}")
asyncio.run(main(int(sys.argv[1])))
"""


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def python_with_smpp34():
    for candidate in (os.environ.get("TACIT_VENV_PYTHON"), os.path.join(ROOT, ".build", "venv", "bin", "python"), sys.executable):
        if candidate and os.path.exists(candidate) and subprocess.run([candidate, "-c", "import smpp34"],
                                                                     capture_output=True).returncode == 0:
            return candidate
    sys.exit("smpp34 is not installed: make test-deps, or set TACIT_VENV_PYTHON")


def measure(binary, port, window, seconds):
    output = subprocess.run([binary, "--port", str(port), "--window", str(window), "--seconds", str(seconds)],
                            capture_output=True, text=True, timeout=seconds + 60, check=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    binary = os.path.join(ROOT, ".build", "release", "tacit-smpp-bench")
    port = free_port()
    smsc = subprocess.Popen([python_with_smpp34(), "-c", SMSC, str(port)], stdout=subprocess.PIPE, text=True)
    try:
        assert smsc.stdout.readline().strip() == "ready"
        totals = {1: [0, 0.0], 10: [0, 0.0]}
        refused = 0
        for _ in range(args.rounds):
            for window in (1, 10):
                result = measure(binary, port, window, args.seconds)
                totals[window][0] += result["messages"]
                totals[window][1] += result["seconds"]
                refused += result["refused"]
                time.sleep(0.2)
    finally:
        smsc.terminate()
        smsc.wait(timeout=5)
    one, ten = (totals[w][0] / totals[w][1] for w in (1, 10))
    failed = report([
        ("messages/s, window 1 (baseline)", f"{one:,.0f}", "-", True),
        ("messages/s, window 10", f"{ten:,.0f}", ">= 3x window 1", ten >= 3 * one),
        ("window 10 / window 1", f"{ten / one:.2f}x", ">= 3x", ten >= 3 * one),
        ("refused submits", str(refused), "0", refused == 0),
    ])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
