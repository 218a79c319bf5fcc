#!/usr/bin/env python3
"""Issue 19's figures, in one run: creates/s and checks/s of one instance on SQLite, one on
PostgreSQL and two behind HAProxy on PostgreSQL, each with its create p99 at half its own
peak rate; then SSE push latency from a subscriber on one instance to events written
through the other. The PostgreSQL single instance must reach half of SQLite's creates/s
with a create p99 at half load of 25 ms at most, and the cross-instance push p99 must be
100 ms at most with no event lost. That ratio is the median of BENCH_ROUNDS rounds
(default 3) in which the SQLite and PostgreSQL servers take their peak create runs in
turns, so that a slow spell of the shared machine falls on both. Two instances share the
same two cores, so their figure is reported with the CPU split between Tacit, PostgreSQL
and HAProxy over the create run.

With BENCH_AGAINST naming another build's binary, it also compares this build's
PostgreSQL creates/s with that one's, in turns (pgturns.py), and reports the ratio.

The cluster is a throwaway one (pgcluster.Cluster) with PostgreSQL's default durability."""
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import Server, report, wrk, wrk_at_rate  # noqa: E402
from core import check_rate, checks_completed, prepare_checks  # noqa: E402
from pgcluster import SETTINGS, Cluster, CPUMeter, HAProxy, describe_split  # noqa: E402
import pgpush  # noqa: E402
import pgturns  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "5"))
EVENTS = int(os.environ.get("BENCH_EVENTS", "50"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
# Another build to compare this one's PostgreSQL creates/s with, in TURN_ROUNDS short runs.
AGAINST = os.environ.get("BENCH_AGAINST")
TURN_ROUNDS = int(os.environ.get("BENCH_TURN_ROUNDS", "14"))


class Setup:
    """What one configuration is measured through: the address wrk calls, the instance the
    checks are prepared on (any would do: the dev inbox is in the store), every instance's
    /metrics, and the processes whose CPU time is split."""

    def __init__(self, name, url, instances, groups):
        self.name, self.url, self.instances, self.groups = name, url, instances, groups

    def completed(self):
        return sum(checks_completed(instance) for instance in self.instances)


def machine_busy():
    """Non-idle seconds of every core on the machine (the other users of it included)."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def measure(setup):
    """Peak creates/s with the CPU split over that run, creates at half that rate, then
    right-code checks/s over prepared verifications."""
    meter = CPUMeter(setup.groups).start()
    busy = machine_busy()
    create = wrk(setup.url, seconds=SECONDS, script="create_sms.lua", env={"TACIT_NUMBER_BASE": "0"})
    wall, used = meter.stop()
    machine = machine_busy() - busy
    paced = wrk_at_rate(setup.url, create["rps"] / 2, SECONDS, "create_sms.lua", {"TACIT_NUMBER_BASE": "50000000"},
                        trial_base=70000000)
    checks_file = os.path.join(setup.instances[0].dir, "checks.txt")
    prepared = prepare_checks(setup.instances[0], int(min(20000, max(3000, 2 * SECONDS * create["rps"]))), checks_file)
    check = check_rate(setup, checks_file, prepared, completed=setup.completed)
    print(f"  {setup.name}: creates {create['rps']:,.0f}/s (p99 {create.get('p99', 0):.1f} ms, non-2xx {create['non2xx']}); "
          f"half load {paced['rps']:,.0f}/s p50 {paced.get('p50', 0):.1f} ms p99 {paced.get('p99', 0):.1f} ms; "
          f"checks {check['rps']:,.0f}/s ({check['completed']:,} of {prepared:,} in {check['window']:.1f} s)")
    print(f"    CPU over the create run ({wall:.1f} s): {describe_split(wall, used, machine)}")
    return {"create": create, "paced": paced, "check": check}


def creates_in_turns(sqlite_url, pg_url, rounds):
    """PostgreSQL's creates/s over SQLite's, the two servers' peak runs taken in turns (SQLite
    first, then PostgreSQL first, and so on), so that a slow spell of the shared machine
    falls on both; the rounds' ratios, and how many of PostgreSQL's creates failed."""
    ratios, failed = [], 0
    for round_number in range(rounds):
        base = str(10000000 + 5000000 * round_number)
        order = [("sqlite", sqlite_url), ("pg", pg_url)]
        rates = {}
        for name, url in order if round_number % 2 == 0 else reversed(order):
            run = wrk(url, seconds=SECONDS, script="create_sms.lua", env={"TACIT_NUMBER_BASE": base})
            rates[name] = run["rps"]
            failed += run["non2xx"] if name == "pg" else 0
        ratios.append(rates["pg"] / rates["sqlite"] if rates["sqlite"] else 0)
        print(f"  creates in turns, round {round_number + 1}: SQLite {rates['sqlite']:,.0f}/s, "
              f"PostgreSQL {rates['pg']:,.0f}/s = {ratios[-1]:.0%}", flush=True)
    return ratios, failed


def instance(url):
    return Server(extra=["--database-url", url]).start()


def main():
    version = subprocess.run(["postgres", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{version}; settings other than its defaults: "
          + ", ".join(f"{name}={value}" for name, value in SETTINGS.items())
          + " (and its port and socket directory); fsync, synchronous_commit and full_page_writes are its defaults (on)")
    cluster = Cluster().start()
    running, figures = [], {}
    try:
        sqlite = Server().start()
        running.append(sqlite)
        wrk(sqlite.url, "/healthz", seconds=1)
        health = wrk(sqlite.url, "/healthz", seconds=SECONDS)
        print(f"GET /healthz (baseline): {health['rps']:,.0f} req/s")
        figures["sqlite"] = measure(Setup("SQLite, one instance", sqlite.url, [sqlite], {"tacit": lambda: [sqlite.process.pid]}))
        single = instance(cluster.database("bench_single"))
        running.append(single)
        figures["pg"] = measure(Setup("PostgreSQL, one instance", single.url, [single],
                                      {"tacit": lambda: [single.process.pid], "postgres": cluster.pids}))
        figures["turns"] = creates_in_turns(sqlite.url, single.url, ROUNDS)
        sqlite.stop()
        single.stop()
        shared = cluster.database("bench_two")
        first, second = instance(shared), instance(shared)
        running += [first, second]
        proxy = HAProxy([first.url, second.url]).start()
        running.append(proxy)
        figures["two"] = measure(Setup("PostgreSQL, two instances behind HAProxy", proxy.url, [first, second],
                                       {"tacit": lambda: [first.process.pid, second.process.pid],
                                        "postgres": cluster.pids, "haproxy": lambda: [proxy.process.pid]}))
        same = pgpush.measure(first.url, first.url, EVENTS, "+99012345641")
        cross = pgpush.measure(first.url, second.url, EVENTS, "+99012345640")
        if AGAINST:
            for part in (proxy, first, second):
                part.stop()
            figures["builds"] = pgturns.builds_in_turns(cluster, AGAINST, first.binary, TURN_ROUNDS, 2)
    finally:
        for part in reversed(running):
            part.stop()
            getattr(part, "remove", lambda: None)()
        cluster.stop()
    print(f"  SSE push, {EVENTS} events, subscriber and writer on one instance: {pgpush.describe(*same)}")
    print(f"  SSE push, {EVENTS} events, subscriber on one instance, writes through the other: {pgpush.describe(*cross)}")
    return report(rows(figures, cross))


def rows(figures, cross):
    sqlite, pg, two = figures["sqlite"], figures["pg"], figures["two"]
    ratios, failed = figures["turns"]
    ratio = statistics.median(ratios)
    check_ratio = pg["check"]["rps"] / sqlite["check"]["rps"] if sqlite["check"]["rps"] else 0
    latencies, timeouts = cross
    p99 = pgpush.percentile(latencies, 0.99)
    print(f"Issue 19 (PostgreSQL and several instances), {SECONDS} s runs:")
    against = [("PostgreSQL creates/s / " + AGAINST, pgturns.describe(figures["builds"]), "(reported)", True)] \
        if "builds" in figures else []
    return against + [
        ("PostgreSQL creates/s / SQLite", f"{ratio:.0%}, median of {len(ratios)} rounds in turns", ">= 50%",
         ratio >= 0.5 and pg["create"]["non2xx"] == 0 and failed == 0),
        ("PostgreSQL create p99, half load", f"{pg['paced']['rps']:,.0f}/s, p99 {pg['paced'].get('p99', 0):.1f} ms", "<= 25 ms",
         pg["paced"].get("p99", 1e9) <= 25),
        ("PostgreSQL checks/s / SQLite", f"{pg['check']['rps']:,.0f} vs {sqlite['check']['rps']:,.0f} = {check_ratio:.0%}",
         "(reported)", True),
        ("two instances creates/s", f"{two['create']['rps']:,.0f}, p99 half load {two['paced'].get('p99', 0):.1f} ms",
         "(reported)", True),
        ("two instances checks/s", f"{two['check']['rps']:,.0f}", "(reported)", True),
        ("cross-instance push p99", f"{p99:.1f} ms, {timeouts} timeouts" if p99 is not None else f"none of {EVENTS} arrived",
         "<= 100 ms, none lost", p99 is not None and p99 <= 100 and timeouts == 0),
    ]


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
