"""Messages/s through one SMPP session with a window of 10, against the same session with a
window of 1 as the same-run baseline, both against the smpp34 SMSC (PyPI `smpp34`, the
SMSC the provider tests use) on loopback. The two take turns for --rounds rounds, so a
neighbour's load weighs on both alike; the ratio is of their rates over all rounds.
It runs twice: against an SMSC answering at once (loopback, where a round trip is a
fraction of a millisecond and the window's gain is smallest; reported), and against one
answering each submit_sm 5 ms later, as an SMSC across a network does. Target there: a
window of 10 carries at least 3 times the messages of a window of 1."""
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
async def main(port, delay):
    server = smpp34.Server("127.0.0.1", port, system_id="SMSC")
    await server.start()
    print("ready", flush=True)
    counter = 0
    while True:
        event = await server.next()
        if isinstance(event, smpp34.SubmitSmEvent):
            counter += 1
            if delay:
                asyncio.get_running_loop().call_later(delay, event.accept, f"msg-{counter}")
            else:
                event.accept(f"msg-{counter}")
asyncio.run(main(int(sys.argv[1]), float(sys.argv[2])))
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


def run_against(binary, delay, args):
    """Rates (window 1, window 10) and refusals against an SMSC answering `delay` s late."""
    port = free_port()
    smsc = subprocess.Popen([python_with_smpp34(), "-c", SMSC, str(port), str(delay)], stdout=subprocess.PIPE, text=True)
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
    return one, ten, refused


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    binary = os.path.join(ROOT, ".build", "release", "tacit-smpp-bench")
    one, ten, refused = run_against(binary, 0, args)
    slow_one, slow_ten, slow_refused = run_against(binary, 0.005, args)
    failed = report([
        ("loopback: messages/s, window 1", f"{one:,.0f}", "(reported)", True),
        ("loopback: messages/s, window 10", f"{ten:,.0f} = {ten / one:.2f}x", "(reported)", True),
        ("5 ms SMSC: messages/s, window 1 (baseline)", f"{slow_one:,.0f}", "-", True),
        ("5 ms SMSC: messages/s, window 10", f"{slow_ten:,.0f} = {slow_ten / slow_one:.2f}x", ">= 3x window 1",
         slow_ten >= 3 * slow_one),
        ("refused submits", str(refused + slow_refused), "0", refused + slow_refused == 0),
    ])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
