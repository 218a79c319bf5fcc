"""A rolling restart under load (docs/deploy.md#rolling-restarts): two `tacit serve` on one PostgreSQL cluster behind
HAProxy (deploy/haproxy.cfg), each restarted in turn with SIGTERM while clients start and
check verifications through HAProxy, retrying what fails as a client would (starts with
their Idempotency-Key). No request ends failed after its retries, each instance exits 0,
and the soak's ledger holds: nothing acknowledged is lost, nothing is done twice, every
verification ends and its webhook arrives. The cluster, instances and HAProxy are the
two-instance soak's (Tests/soak)."""
import os
import pathlib
import re
import sys
import threading
import time
import urllib.request

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "soak"))
from database import PostgresDatabase  # noqa: E402
from haproxy import HAProxy  # noqa: E402
from ledger import check, duplicated, settled  # noqa: E402
from postgres import PostgresCluster, binary as pg_binary, free_port  # noqa: E402
from sink import Sink  # noqa: E402
from soak_ha import BalancedLoad, Instance  # noqa: E402

CLIENTS = 3


class Client(threading.Thread):
    """Starts a verification, reads its code from the inboxes, checks it; over and over."""

    def __init__(self, load, stop):
        super().__init__(daemon=True)
        self.load, self.stop = load, stop
        self.failed = []
        self.done = 0

    def run(self):
        while not self.stop.is_set():
            number = self.load.new_number()
            status, body = self.load.start({"phone_number": number, "workflow": [{"channel": "sms"}]})
            if status != 202:
                self.failed.append(("start", status, body))
                continue
            request_id = body["request_id"]
            with self.load.lock:
                self.load.started[request_id] = number
            code = self.code(number)
            status, body = self.load.request("POST", f"/v1/verifications/{request_id}/check", {"code": code})
            if status == 409 and self.completed(request_id):
                # An answer lost to a restart or the client's timeout, then retried: the first
                # check did complete it, as a client that retries finds by reading it.
                status = 200
            if status != 200:
                self.failed.append(("check", status, body))
                continue
            with self.load.lock:
                self.load.completions[request_id] = self.load.completions.get(request_id, 0) + 1
            self.done += 1

    def completed(self, request_id):
        status, body = self.load.request("GET", f"/v1/verifications/{request_id}")
        return status == 200 and (body or {}).get("status") == "completed"

    def code(self, number):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            codes = re.findall(r"\d{6}", " ".join(m["body"] for m in self.load.messages(number)))
            if codes:
                return codes[-1]
            time.sleep(0.02)
        return "000000"


def ready(instance):
    try:
        with urllib.request.urlopen(instance.url + "/readyz", timeout=2) as reply:
            return reply.status == 200
    except Exception:
        return False


def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture()
def cluster():
    cluster = PostgresCluster()
    yield cluster
    cluster.stop()


def test_a_rolling_restart_under_load_fails_no_request_a_client_retries(binary, cluster, tmp_path):
    sink = Sink()
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    sink_url = f"http://127.0.0.1:{sink.server_address[1]}/hooks"
    instances = [Instance(name, binary, cluster.url, str(tmp_path), sink_url) for name in ("a", "b")]
    proxy, stop = None, threading.Event()
    try:
        for instance in instances:
            instance.start()
        proxy = HAProxy(free_port(), [(i.name, i.port) for i in instances])
        proxy.wait_ready()
        load = BalancedLoad(proxy.url, instances, seed=19)
        clients = [Client(load, stop) for _ in range(CLIENTS)]
        for client in clients:
            client.start()
        wait_for(lambda: sum(c.done for c in clients) >= 5, 30, "the load to get going")
        for instance in instances:
            before = sum(c.done for c in clients)
            instance.process.send_signal(15)
            assert instance.process.wait(timeout=30) == 0, f"instance {instance.name} did not exit 0"
            instance.start()
            wait_for(lambda: ready(instance), 30, f"instance {instance.name} to be ready")
            # HAProxy's check (inter 500ms, rise 1) puts it back in rotation within a second;
            # the load goes on meanwhile and must have made progress by then.
            wait_for(lambda: sum(c.done for c in clients) > before + 3, 30, "the load to go on")
        stop.set()
        for client in clients:
            client.join(timeout=60)
        failed = [f for c in clients for f in c.failed]
        assert not failed, failed[:5]
        db = PostgresDatabase(cluster.url, pg_binary("psql"))
        wait_for(lambda: settled(db), 60, "webhooks to drain")
        failures, total = check(load, sink, db)
        assert not failures, failures[:10]
        assert not duplicated(db)
        assert total == len(load.started) == sum(load.completions.values())
    finally:
        stop.set()
        for instance in instances:
            instance.stop()
        if proxy:
            proxy.stop()
