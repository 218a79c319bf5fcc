"""Shared helpers for Tacit's benchmarks: start a release server on loopback, run wrk,
read its figures. Every figure is reported next to a baseline measured in the same run."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("TACIT_BIN", os.path.join(ROOT, ".build", "release", "tacit"))
LUA = os.path.join(ROOT, "Benchmarks", "lua")


class Server:
    """`tacit serve --dev` on an ephemeral port with its own SQLite file."""

    def __init__(self, db=None, extra=(), binary=None):
        self.binary = binary or BINARY
        self.dir = tempfile.mkdtemp(prefix="tacit-bench-")
        self.db = db or os.path.join(self.dir, "tacit.db")
        self.extra = list(extra)
        self.process = None
        self.url = None

    def start(self, secret="bench-secret"):
        self.log = open(os.path.join(self.dir, "serve.log"), "a")
        started = time.monotonic()
        self.started = started
        self.process = subprocess.Popen(
            [self.binary, "serve", "--dev", "--port", "0", "--db", self.db, "--secret", secret] + self.extra,
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"(http://\S+)", line)
        if not match:
            raise RuntimeError(f"tacit serve did not start: {line!r}")
        self.url = match.group(1)
        while True:
            try:
                if urllib.request.urlopen(self.url + "/readyz", timeout=2).status == 200:
                    break
            except OSError:
                time.sleep(0.01)
        self.ready_seconds = time.monotonic() - started
        return self

    @property
    def hostport(self):
        return self.url.split("//", 1)[1]

    def rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def remove(self):
        """Deletes the server's folder (its database and log)."""
        shutil.rmtree(self.dir, ignore_errors=True)


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.load(reply)


def post_json(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def metric(url, name):
    text = urllib.request.urlopen(url + "/metrics", timeout=10).read().decode()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


def wrk(url, path="/", seconds=5, connections=32, threads=2, script=None, env=None):
    """Runs wrk; returns requests/s, latency percentiles in ms and status counts."""
    command = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency"]
    if script:
        command += ["-s", os.path.join(LUA, script)]
    command.append(url + path)
    output = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **(env or {})}).stdout
    result = {"raw": output}
    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
    result["rps"] = float(match.group(1)) if match else 0.0
    for percentile in ("50", "75", "90", "99"):
        found = re.search(rf"^\s+{percentile}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M)
        if found:
            value, unit = float(found.group(1)), found.group(2)
            result[f"p{percentile}"] = value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    result["non2xx"] = int(non2xx.group(1)) if non2xx else 0
    errors = re.search(r"Socket errors: (.*)", output)
    result["socket_errors"] = errors.group(1) if errors else ""
    return result


def wrk_at_rate(url, rate, seconds, script, env, trial_base, connections=16):
    """wrk at about `rate` requests/s (a half-load p99): each connection waits between its
    requests for what its share of `rate` leaves after the request's own latency. That
    latency is taken from a one-second trial at the rate (numbers from `trial_base`, so
    the measured run reuses none): the peak's latency, queueing included, left too short
    a wait, and "half load" ran at three quarters of the peak or more."""
    budget = 1000 * connections / max(rate, 1)
    trial = wrk(url, seconds=1, connections=connections, script=script,
                env={**env, "TACIT_NUMBER_BASE": str(trial_base), "TACIT_DELAY_MS": str(max(1, int(budget)))})
    delay = max(1, int(budget - trial.get("p50", 0)))
    return wrk(url, seconds=seconds, connections=connections, script=script, env={**env, "TACIT_DELAY_MS": str(delay)})


def report(rows):
    """Prints rows of (name, value, target, ok)."""
    width = max(len(row[0]) for row in rows)
    failed = 0
    for name, value, target, ok in rows:
        mark = "PASS" if ok else "MISS"
        failed += 0 if ok else 1
        print(f"  {name.ljust(width)}  {value:>28}   target {target:<18} {mark}")
    return failed
