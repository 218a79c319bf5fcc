"""What the soak reads from the database once the load has stopped: whether everything
has settled, what is still owed when it hasn't, and every invariant at the end."""
import json
import sqlite3
import time

TERMINAL = {"completed", "failed", "expired", "cancelled"}
# The soak's workflows are [sms] and [sms, voice]: a step's index names its channel.
STEP_CHANNELS = ["sms", "voice"]


def read_only(db):
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True)


def settled(db):
    """No verification is pending, no webhook is owed and no code message is queued."""
    with read_only(db) as c:
        pending = c.execute("SELECT COUNT(*) FROM verifications WHERE status = 'pending'").fetchone()[0]
        owed = c.execute("SELECT COUNT(*) FROM webhook_outbox WHERE state = 'pending'").fetchone()[0]
        queued = c.execute("SELECT COUNT(*) FROM send_outbox").fetchone()[0]
    return pending == 0 and owed == 0 and queued == 0


def queued_sends(db):
    """The (request_id, step) of every code message committed and not yet answered."""
    try:
        with read_only(db) as c:
            return set(c.execute("SELECT request_id, step FROM send_outbox"))
    except sqlite3.OperationalError:
        return set()  # the first server has not migrated yet


def unsettled(db, server):
    """What is still pending or owed, for a soak that times out: enough to tell a stuck
    timer from a webhook backing off or a server that is no longer running."""
    now = time.time()
    with read_only(db) as c:
        pending = c.execute("SELECT id, deadline, last_seq FROM verifications WHERE status = 'pending' ORDER BY deadline LIMIT 5").fetchall()
        queued = c.execute("SELECT request_id, step, due_at FROM send_outbox ORDER BY due_at LIMIT 5").fetchall()
        owed = c.execute("SELECT request_id, type, attempts, next_attempt_at FROM webhook_outbox "
                         "WHERE state = 'pending' ORDER BY next_attempt_at LIMIT 5").fetchall()
    with open(server.log, errors="replace") as log:
        tail = log.readlines()[-10:]
    lines = [f"  server running: {server.process.poll() is None}; the end of its log:"] + ["    " + t.rstrip() for t in tail]
    lines += [f"  pending {i}: deadline {'none' if d is None else f'{d - now:+.1f} s'}, last_seq {s}" for i, d, s in pending]
    lines += [f"  owed {r} {t}: {a} attempts, next {n - now:+.1f} s" for r, t, a, n in owed]
    lines += [f"  queued send {r} step {s}: due {d - now:+.1f} s" for r, s, d in queued]
    return "\n".join(lines)


def check(load, sink, db):
    """Every invariant against the answers the load saw, the database and the webhooks
    received: the failures found, and how many verifications there are."""
    failures = []
    connection = read_only(db)
    statuses = dict(connection.execute("SELECT id, status FROM verifications"))
    events = {}
    for request_id, seq, body in connection.execute("SELECT request_id, seq, body FROM events ORDER BY request_id, seq"):
        events.setdefault(request_id, []).append((seq, json.loads(body)))
    lost = [i for i in load.started if i not in statuses]
    if lost:
        failures.append(f"{len(lost)} acknowledged verifications are missing")
    for request_id, count in load.completions.items():
        if count > 1:
            failures.append(f"{request_id} was completed {count} times")
        if statuses.get(request_id) != "completed":
            failures.append(f"{request_id} answered 200 to a check but is {statuses.get(request_id)}")
    delivered = {(r, t) for _, t, r in sink.received}
    for request_id, status in statuses.items():
        seqs = [seq for seq, _ in events.get(request_id, [])]
        if seqs != list(range(1, len(seqs) + 1)):
            failures.append(f"{request_id}: seq not gap-free")
        if status not in TERMINAL:
            failures.append(f"{request_id}: still {status} after its timers were due")
            continue
        # After the first summary only webhook delivery results may follow, each one
        # followed by the summary again, so the summary is always the last event.
        timeline = [e for _, e in events.get(request_id, [])]
        labels = [e["label"] for e in timeline]
        first = labels.index("verification:summary") if "verification:summary" in labels else None
        after = timeline[first + 1:] if first is not None else []
        if first is None or labels[-1] != "verification:summary" or any(
                e["source"] != "webhook" and e["label"] != "verification:summary" for e in after):
            failures.append(f"{request_id}: summary is not the last event, or something but a webhook follows it")
        if (request_id, "verification." + status) not in delivered:
            failures.append(f"{request_id}: verification.{status} webhook never delivered")
    # A code is sent once per step, whatever was killed when; a send queued at a kill, on a
    # verification the load left alone (a check, skip or cancel may end its step first),
    # is sent by a later server.
    for request_id, step in load.in_flight:
        if request_id in load.touched:
            continue
        labels = [e["label"] for _, e in events.get(request_id, [])]
        sent = labels.count(f"{STEP_CHANNELS[step]}:code_sent")
        if sent != 1:
            failures.append(f"{request_id}: the send queued for step {step} at a kill was delivered {sent} times")
    for request_id, timeline in events.items():
        for channel in STEP_CHANNELS:
            if [e["label"] for _, e in timeline].count(f"{channel}:code_sent") > 1:
                failures.append(f"{request_id}: the {channel} code was sent more than once")
    if sink.bad:
        failures.append(f"{len(sink.bad)} webhooks failed signature verification: {sink.bad[0]}")
    if load.five_hundreds:
        failures.append(f"{len(load.five_hundreds)} answers were 5xx")
    return failures, len(statuses)
