#!/usr/bin/env python3
"""Two-instance soak: a throwaway PostgreSQL cluster, two `tacit serve --dev` on it, and
HAProxy in front (deploy/haproxy.cfg). soak.py's load runs through HAProxy while either
instance is SIGKILLed at random points and restarted, and PostgreSQL's postmaster is
SIGKILLed once (restarted on the same data directory); the same ledger of invariants is
checked at the end. The client retries a request that a kill interrupted, starts with their
Idempotency-Key, as a real client would. Until the handset inbox lives in the store, a code
is in the inbox of the instance that sent it, so the load reads both instances' inboxes.

    soak_ha.py --kills 50          (make soak-ha)
    soak_ha.py --kills 12          (make test)
"""
import argparse, collections, os, random, re, signal, subprocess, sys, tempfile, threading, time, uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from database import PostgresDatabase  # noqa: E402
from haproxy import HAProxy  # noqa: E402
from ledger import check, duplicated, queued_sends, settled, unsettled  # noqa: E402
from postgres import PostgresCluster, binary, free_port  # noqa: E402
from sink import SECRETS, Sink  # noqa: E402
from soak import SLOW_INBOX_MS, Load, call, wait_until  # noqa: E402

# What a client retries: no answer (the instance died mid-request), or a gateway or
# unavailable answer (HAProxy found no instance, or PostgreSQL was restarting).
RETRIED = {None, 500, 502, 503, 504}
RETRIES = 40


class Instance:
    """One `tacit serve` on a fixed port, so HAProxy's server line stays right across restarts."""

    def __init__(self, name, binary_path, database_url, workdir, sink_url):
        self.name, self.binary, self.port = name, binary_path, free_port()
        self.url, self.process = None, None
        self.log = os.path.join(workdir, f"{name}.log")
        # Every instance on one database needs the same keys; the first to start makes the file.
        self.arguments = [binary_path, "serve", "--dev", "--port", str(self.port), "--database-url", database_url,
                          "--key-file", os.path.join(workdir, "keys")]
        self.env = dict(os.environ, TACIT_WEBHOOK_URL=sink_url, TACIT_WEBHOOK_SECRETS=" ".join(SECRETS),
                        TACIT_WEBHOOK_ALLOW_PRIVATE="1", TACIT_DRAIN_MS="1500")

    def start(self, slow=False):
        env = dict(self.env, TACIT_DEV_INBOX_LATENCY_MS=SLOW_INBOX_MS) if slow else self.env
        # A port the killed process held can be a moment from free: try again briefly.
        for _ in range(20):
            with open(self.log, "a") as log:
                self.process = subprocess.Popen(self.arguments, stdout=subprocess.PIPE, stderr=log, env=env, text=True)
            for line in self.process.stdout:
                if "listening on" in line:
                    threading.Thread(target=self.process.stdout.read, daemon=True).start()
                    self.url = f"http://127.0.0.1:{self.port}"
                    return
            self.process.wait()
            time.sleep(0.25)
        raise SystemExit(f"soak: instance {self.name} did not start; see {self.log}")

    def kill(self):
        self.url = None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        self.url = None
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class BalancedLoad(Load):
    """soak.py's load through HAProxy: each request retried until it has an answer, starts
    with one Idempotency-Key across their retries; inboxes read from each instance."""

    # A send leased by an instance that dies waits out its lease (10 s) and the next look
    # at the outbox before another instance takes it, and PostgreSQL's own restart may
    # come on top: a 15 s step can time out first, and then, rightly, its code is never
    # sent. Steps of 30 s leave room for that recovery, which the ledger then checks.
    channel_timeout = 30

    def __init__(self, proxy_url, instances, seed):
        super().__init__(None, seed)
        self.proxy_url, self.instances = proxy_url, instances
        self.numbers = set()
        self.retried = collections.Counter()  # the answers retried, by status

    def request(self, method, path, body=None, headers=None):
        for attempt in range(RETRIES):
            status, answer = call(self.proxy_url, method, path, body, headers)
            if status not in RETRIED:
                return status, answer
            with self.lock:
                self.retried[status or "none"] += 1
            time.sleep(min(0.05 * (attempt + 1), 0.5))
        return status, answer

    def start(self, body):
        return self.request("POST", "/v1/verifications", body, {"Idempotency-Key": str(uuid.uuid4())})

    def new_number(self):
        # Each number is started once, so a second verification of one is a duplicate.
        while True:
            number = super().new_number()
            with self.lock:
                if number not in self.numbers:
                    self.numbers.add(number)
                    return number

    def messages(self, number):
        messages = []
        for instance in self.instances:
            _, inbox = call(instance.url, "GET", "/v1/dev/handsets/%2B" + number[1:] + "/inbox")
            messages += (inbox or {}).get("messages", [])
        return sorted(messages, key=lambda message: message.get("at", ""))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--binary", default=os.environ.get("TACIT_BIN", ".build/debug/tacit"))
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    print(f"soak-ha: seed {arguments.seed}", flush=True)
    workdir = tempfile.mkdtemp(prefix="tacit-soak-ha-")
    sink = Sink()
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    sink_url = f"http://127.0.0.1:{sink.server_address[1]}/hooks"
    cluster = PostgresCluster()
    instances, proxy = [], None
    try:
        db = PostgresDatabase(cluster.url, binary("psql"))
        instances = [Instance(name, arguments.binary, cluster.url, workdir, sink_url) for name in ("a", "b")]
        slow_kills = min(arguments.kills // 2, 10)
        for instance in instances:
            instance.start(slow=slow_kills > 0)
        proxy = HAProxy(free_port(), [(i.name, i.port) for i in instances])
        proxy.wait_ready()
        load = BalancedLoad(proxy.url, instances, arguments.seed)
        run(arguments, rng, load, instances, cluster, db, slow_kills)
        wait_until(lambda: settled(db), 120, "pending verifications to end and webhooks to drain",
                   lambda: unsettled(db, instances))
        for instance in instances:
            instance.stop()
        failures, total = check(load, sink, db)
        failures += [f"{n} verifications of one number (phone_index {i[:8]}…)" for i, n in duplicated(db)]
        print(f"soak-ha: seed {arguments.seed}, {arguments.kills} kills and one of PostgreSQL, {total} verifications, "
              f"{len(load.completions)} completed by code, {len(sink.received)} webhooks received, "
              f"{len(load.in_flight)} sends in flight at a kill, requests retried by answer {dict(load.retried)}")
        for failure in failures[:20]:
            print("FAIL:", failure)
        sys.exit(1 if failures else 0)
    finally:
        for instance in instances:
            instance.stop()
        if proxy:
            proxy.stop()
        cluster.stop()


def run(arguments, rng, load, instances, cluster, db, slow_kills):
    """Drives the load while the kills happen, then stops it with every instance running."""
    stop = threading.Event()

    def drive():
        while not stop.is_set():
            load.step()
    workers = [threading.Thread(target=drive, daemon=True) for _ in range(4)]
    for worker in workers:
        worker.start()
    database_kill = arguments.kills // 2
    for kill in range(arguments.kills):
        time.sleep(rng.uniform(0.1, 0.6))
        if kill == database_kill:
            cluster.kill()
            time.sleep(rng.uniform(0.2, 1.0))
            cluster.start()
            print(f"soak-ha: PostgreSQL killed and restarted at kill {kill}", flush=True)
        instance = rng.choice(instances)
        if kill < slow_kills:
            with load.lock:
                load.in_flight |= queued_sends(db)
        instance.kill()
        instance.start(slow=kill + 1 < slow_kills)
    stop.set()
    for worker in workers:
        worker.join()


if __name__ == "__main__":
    main()
