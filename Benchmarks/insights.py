#!/usr/bin/env python3
"""The insights issue's figure: GET /v1/insights/summary for each group_by over an application
with a million verifications, on SQLite and on PostgreSQL. Target: at most 200 ms each.

The million rows are loaded straight into the store, not through the API (creating them one
by one would take hours): the verification rows with their indexed columns, and the rollup
rows Tacit would have written as they happened. The rollups are generated here by the same
rules InsightTally applies to each change (docs/api.md#insights), each on its hour's row and
its day's: a start in the hour it was created under its first channel, its region and its prefix; an accepted send with its
price under its channel, provider, region and prefix; a conversion with its bucket of time to
verify under the step's channel and provider; a silent step that ended as an attempt. Rows are
summed per (application, dimension, hour, key, currency) before they are written, exactly as the
upserts would have left them. The summary then reads only those rows: the verifications are
there so the tables are as large as a real application's.

Usage: python3 Benchmarks/insights.py   (BENCH_ROWS=1000000 BENCH_DAYS=28 BENCH_RUNS=15;
TACIT_BIN defaults to the release build)."""
import csv
import io
import json
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import BINARY, ROOT, Server, report  # noqa: E402
from pgcluster import Cluster  # noqa: E402

ROWS = int(os.environ.get("BENCH_ROWS", "1000000"))
DAYS = int(os.environ.get("BENCH_DAYS", "28"))
RUNS = int(os.environ.get("BENCH_RUNS", "15"))
TARGET_MS = 200
GROUPS = ("channel", "country", "provider", "prefix", "day")
SECRET = "bench-secret"
# Bucket upper bounds of the time-to-verify histogram, as InsightCounts keeps them.
BOUNDS = [2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 300]
COLUMNS = ["starts", "sends", "conversions", "silent_attempts", "silent_successes", "blocked",
           "spend_micros"] + [f"b{n}" for n in range(len(BOUNDS) + 1)]
# Twenty regions with their country codes; each has ten prefixes (the code and three digits).
REGIONS = [("GB", "44"), ("US", "1"), ("FR", "33"), ("DE", "49"), ("ES", "34"), ("IT", "39"), ("NL", "31"),
           ("BR", "55"), ("IN", "91"), ("MX", "52"), ("NG", "234"), ("KE", "254"), ("ZA", "27"),
           ("JP", "81"), ("AU", "61"), ("CA", "1"), ("PL", "48"), ("SE", "46"), ("TR", "90"), ("ID", "62")]
PROVIDERS = {"sms": ["twilio", "vonage"], "voice": ["twilio", "vonage"], "silent_auth": ["truid", "vonage"]}
PRICES = {"twilio": ("USD", 7900), "vonage": ("EUR", 33300)}


def bucket(seconds):
    for index, bound in enumerate(BOUNDS):
        if seconds <= bound:
            return index
    return len(BOUNDS)


class Rollups:
    """Rollup rows summed per (dimension, span, period, key, currency), as the stores' upserts leave them."""

    def __init__(self):
        self.rows = {}

    def add(self, hour, counts, channel, provider, region, prefix, currency=""):
        """`counts` (column index, amount) on the hour's row and the day's, in every dimension with a key."""
        for dimension, key in (("channel", channel), ("provider", provider), ("country", region), ("prefix", prefix)):
            if key is None:
                continue
            for span, start in ((3600, hour), (86400, hour // 86400 * 86400)):
                row = self.rows.setdefault((dimension, span, start, key, currency), [0] * len(COLUMNS))
                for index, value in counts:
                    row[index] += value


def history(application, now):
    """The verification rows and the rollups a million verifications over DAYS days leave."""
    rng = random.Random(35)
    rollups = Rollups()
    start = now - DAYS * 86400
    rows = []
    for n in range(ROWS):
        created = start + (n / ROWS) * DAYS * 86400 + rng.random()
        hour = int(created // 3600) * 3600
        region, code = REGIONS[min(int(rng.paretovariate(1.2)) - 1, len(REGIONS) - 1)]
        prefix = "+" + code + str(rng.randrange(10)) + "00"
        number = prefix[1:] + f"{rng.randrange(10 ** 7):07d}"
        first = rng.choices(["silent_auth", "sms", "voice"], weights=[3, 6, 1])[0]
        rollups.add(hour, [(0, 1)], first, None, region, prefix)
        steps = [first] if first != "silent_auth" else ["silent_auth", "sms"]
        status, finished = "expired", created + 120
        for index, channel in enumerate(steps):
            provider = rng.choice(PROVIDERS[channel])
            at = created + 2 + index * 30
            at_hour = int(at // 3600) * 3600
            if channel == "silent_auth":
                success = rng.random() < 0.7
                rollups.add(at_hour, [(3, 1), (4, 1 if success else 0)], channel, provider, region, prefix)
                if success:
                    rollups.add(at_hour, [(2, 1), (7 + bucket(at - created), 1)], channel, provider, region, prefix)
                    status, finished = "completed", at
                    break
                continue
            currency, micros = PRICES[provider]
            rollups.add(at_hour, [(1, 1)], channel, provider, region, prefix)
            rollups.add(at_hour, [(6, micros)], channel, provider, region, prefix, currency)
            if rng.random() < 0.75:
                done = at + rng.uniform(4, 60)
                rollups.add(int(done // 3600) * 3600, [(2, 1), (7 + bucket(done - created), 1)], channel, provider,
                            region, prefix)
                status, finished = "completed", done
        rows.append((f"bench{n:08d}", f"idx{number}", status, created, finished, application, region,
                     f"user-{n % 50000}"))
    return rows, rollups


def tacit(*arguments):
    output = subprocess.run([BINARY, *arguments, "--secret", SECRET], capture_output=True, text=True, check=True)
    return output.stdout


def load_sqlite(path, rows, rollups, application):
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.executemany(
        "INSERT INTO verifications (id, phone_index, phone_sealed, status, deadline, created_at, updated_at, "
        "last_seq, record, last_group, finished_at, application_id, face, region, client_ref) "
        "VALUES (?, ?, X'00', ?, NULL, ?, ?, 0, X'', NULL, ?, ?, 'v1', ?, ?)",
        ((r[0], r[1], r[2], r[3], r[4], r[4], r[5], r[6], r[7]) for r in rows))
    placeholders = ", ".join("?" * (6 + len(COLUMNS)))
    db.executemany(f"INSERT INTO insight_rollups (application_id, dimension, span, hour, key, currency, "
                   f"{', '.join(COLUMNS)}) VALUES ({placeholders})",
                   ((application, *row, *values) for row, values in rollups.rows.items()))
    db.commit()
    db.execute("ANALYZE")
    db.close()


def copy(cluster, database, table, columns, lines, not_null=()):
    """Loads `lines` with COPY; an empty field in a `not_null` column is the empty string, not NULL."""
    text = io.StringIO()
    csv.writer(text).writerows(lines)
    options = "FORMAT csv" + (f", FORCE_NOT_NULL ({', '.join(not_null)})" if not_null else "")
    subprocess.run(["psql", "-q", "-h", cluster.dir, "-p", str(cluster.port), "-U", cluster.user, "-d", database,
                    "-c", f"\\copy {table} ({', '.join(columns)}) FROM STDIN WITH ({options})"],
                   input=text.getvalue(), text=True, check=True)


def load_postgres(cluster, database, rows, rollups, application):
    copy(cluster, database, "verifications",
         ["id", "application_id", "face", "phone_index", "phone_sealed", "status", "created_at", "updated_at",
          "finished_at", "last_seq", "version", "record", "region", "client_ref"],
         ((r[0], r[5], "v1", r[1], "\\x00", r[2], r[3], r[4], r[4], 0, 1, "\\x", r[6], r[7]) for r in rows))
    copy(cluster, database, "insight_rollups",
         ["application_id", "dimension", "span", "hour", "key", "currency"] + COLUMNS,
         ((application, *row, *values) for row, values in rollups.rows.items()),
         not_null=("key", "currency"))
    subprocess.run(["psql", "-q", "-h", cluster.dir, "-p", str(cluster.port), "-U", cluster.user, "-d", database,
                    "-c", "VACUUM ANALYZE"], check=True)


def time_summaries(url, key, now):
    """Each group_by's summary over the whole history, RUNS times: (median ms, max ms, groups)."""
    frm = time.strftime("%Y-%m-%dT%H:00:00Z", time.gmtime(now - DAYS * 86400 - 3600))
    to = time.strftime("%Y-%m-%dT%H:00:00Z", time.gmtime(now + 3600))
    figures = {}
    for group in GROUPS:
        request = urllib.request.Request(f"{url}/v1/insights/summary?from={frm}&to={to}&group_by={group}",
                                         headers={"Authorization": f"Bearer {key}"})
        times, body = [], None
        for _ in range(RUNS):
            began = time.perf_counter()
            with urllib.request.urlopen(request, timeout=30) as reply:
                body = json.load(reply)
            times.append((time.perf_counter() - began) * 1000)
        figures[group] = (statistics.median(times), max(times), len(body["groups"]), body["totals"]["starts"])
    return figures


def run(label, serve_args, key, now):
    server = Server(extra=serve_args)
    # Not --dev: the summary is read with the application's key, as a console would.
    start_plain(server, SECRET)
    try:
        figures = time_summaries(server.url, key, now)
    finally:
        server.stop()
        server.remove()
    for group, (m, x, n, s) in figures.items():
        print(f"  {label} group_by={group}: {n} groups, {s} starts in totals", flush=True)
    return [(f"{label} group_by={group}", f"median {m:.1f} ms, max {x:.1f} ms", f"<= {TARGET_MS} ms",
             x <= TARGET_MS) for group, (m, x, n, s) in figures.items()]


def start_plain(server, secret):
    """`tacit serve` without --dev on an ephemeral port, retention off while it is timed."""
    server.log = open(os.path.join(server.dir, "serve.log"), "a")
    server.process = subprocess.Popen([server.binary, "serve", "--port", "0", "--secret", secret,
                                       "--retention-days", "36500"] + server.extra,
                                      stdout=subprocess.PIPE, stderr=server.log, text=True)
    line = server.process.stdout.readline()
    match = re.search(r"(http://\S+)", line)
    if not match:
        raise RuntimeError(f"tacit serve did not start: {line!r}")
    server.url = match.group(1)
    while True:
        try:
            if urllib.request.urlopen(server.url + "/readyz", timeout=2).status == 200:
                return server
        except OSError:
            time.sleep(0.05)


def main():
    now = time.time()
    results = []
    workdir = Server().dir
    path = os.path.join(workdir, "insights.db")
    created = json.loads(tacit("apps", "create", "--name", "bench", "--json", "--db", path))
    began = time.monotonic()
    rows, rollups = history(created["id"], now)
    print(f"generated {len(rows)} verifications and {len(rollups.rows)} rollup rows "
          f"in {time.monotonic() - began:.0f} s", flush=True)
    began = time.monotonic()
    load_sqlite(path, rows, rollups, created["id"])
    print(f"loaded SQLite in {time.monotonic() - began:.0f} s", flush=True)
    results += run("SQLite", ["--db", path], created["api_key"], now)
    os.remove(path)

    cluster = Cluster().start()
    try:
        url = cluster.database("insights")
        created = json.loads(tacit("apps", "create", "--name", "bench", "--json", "--database-url", url))
        rows, rollups = history(created["id"], now)
        began = time.monotonic()
        load_postgres(cluster, "insights", rows, rollups, created["id"])
        print(f"loaded PostgreSQL in {time.monotonic() - began:.0f} s", flush=True)
        results += run("PostgreSQL", ["--database-url", url], created["api_key"], now)
    finally:
        cluster.stop()
    sys.exit(1 if report(results) else 0)


if __name__ == "__main__":
    main()
