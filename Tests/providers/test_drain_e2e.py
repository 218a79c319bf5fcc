"""SIGTERM drains a real `tacit serve` (docs/deploy.md#rolling-restarts): `/readyz` answers 503 at once, a request
in flight at the signal completes, and the process exits 0. The request is held in flight
by a slow handset inbox (TACIT_DEV_INBOX_LATENCY_MS), which a start waits for
(TACIT_SEND_WAIT_MS); it is known to be in flight once its code message is queued."""
import signal
import sqlite3
import subprocess
import threading
import time

from conftest import free_port, http as call

NUMBER = "+990112345670"


def queued(db):
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
            return connection.execute("SELECT COUNT(*) FROM send_outbox").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def serve(binary, tmp_path, drain_ms):
    port = free_port()
    db = str(tmp_path / "drain.db")
    env = {"TACIT_DEV_INBOX_LATENCY_MS": "1500", "TACIT_SEND_WAIT_MS": "4000", "TACIT_DRAIN_MS": str(drain_ms),
           "PATH": "/usr/bin:/bin"}
    process = subprocess.Popen([binary, "serve", "--dev", "--port", str(port), "--db", db],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    for line in process.stdout:
        if "listening on" in line:
            threading.Thread(target=process.stdout.read, daemon=True).start()
            return process, f"http://127.0.0.1:{port}", port, db
    raise AssertionError("tacit serve did not start")


def until(predicate, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


def start_in_flight(url, db):
    """Starts a verification on a thread; returns once its code message is queued, with
    the thread and where its answer will be."""
    answer = {}

    def start():
        answer["status"], answer["body"], _ = call("POST", url + "/v1/verifications",
                                                   {"phone_number": NUMBER, "workflow": [{"channel": "sms"}]})
    thread = threading.Thread(target=start)
    thread.start()
    until(lambda: queued(db) > 0)
    return thread, answer


def test_sigterm_answers_readyz_503_finishes_the_request_in_flight_and_exits_0(binary, tmp_path):
    # A drain long enough that a loaded machine's first poll after the signal still falls in it.
    process, url, _, db = serve(binary, tmp_path, drain_ms=3000)
    try:
        assert call("GET", url + "/readyz")[0] == 200
        thread, answer = start_in_flight(url, db)
        process.send_signal(signal.SIGTERM)
        # During the drain the listener still answers, and /readyz says to go elsewhere.
        until(lambda: call("GET", url + "/readyz")[0] == 503)
        assert call("GET", url + "/healthz")[0] == 200
        thread.join(timeout=15)
        assert answer.get("status") == 202, answer
        assert answer["body"]["status"] == "pending"
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()


def not_ready(url):
    """/readyz is not 200: 503, or nothing listens any more."""
    try:
        return call("GET", url + "/readyz")[0] == 503
    except OSError:
        return True


def test_without_a_drain_delay_the_request_in_flight_still_finishes_and_the_process_exits_0(binary, tmp_path):
    process, url, _, db = serve(binary, tmp_path, drain_ms=0)
    try:
        thread, answer = start_in_flight(url, db)
        process.send_signal(signal.SIGTERM)
        until(lambda: not_ready(url))
        thread.join(timeout=15)
        assert answer.get("status") == 202, answer
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
