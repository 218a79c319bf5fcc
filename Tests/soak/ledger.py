"""What the soak reads from the database once the load has stopped: whether everything
has settled, what is still owed when it hasn't, and every invariant at the end. `db` is a
SQLiteDatabase or a PostgresDatabase (database.py): the questions are the same."""
import json
import time

from database import DatabaseUnavailable

TERMINAL = {"completed", "failed", "expired", "cancelled"}
# The soak's workflows are [sms] and [sms, voice]: a step's index names its channel.
STEP_CHANNELS = ["sms", "voice"]
# How a step that did not complete ends on the timeline (StepEndLabel in TacitCore).
STEP_ENDS = {"timed_out", "failed", "rejected", "skipped", "cancelled"}


def count(db, query):
    return db.rows(query)[0][0]


def settled(db):
    """No verification is pending, no webhook is owed and no code message is queued."""
    try:
        pending = count(db, "SELECT COUNT(*) AS n FROM verifications WHERE status = 'pending'")
        owed = count(db, "SELECT COUNT(*) AS n FROM webhook_outbox WHERE state = 'pending'")
        queued = count(db, "SELECT COUNT(*) AS n FROM send_outbox")
    except DatabaseUnavailable:
        return False
    return pending == 0 and owed == 0 and queued == 0


def queued_sends(db):
    """The (request_id, step) of every code message committed and not yet answered."""
    try:
        return set(db.rows("SELECT {id}, step FROM send_outbox"))
    except DatabaseUnavailable:
        return set()  # the first server has not migrated yet, or the database is restarting


def unsettled(db, servers):
    """What is still pending or owed, for a soak that times out: enough to tell a stuck
    timer from a webhook backing off or a server that is no longer running."""
    now = time.time()
    pending = db.rows("SELECT id, deadline, last_seq FROM verifications WHERE status = 'pending' ORDER BY deadline LIMIT 5")
    queued = db.rows("SELECT {id}, step, due_at FROM send_outbox ORDER BY due_at LIMIT 5")
    owed = db.rows("SELECT {id}, type, attempts, next_attempt_at FROM webhook_outbox "
                   "WHERE state = 'pending' ORDER BY next_attempt_at LIMIT 5")
    lines = []
    for server in servers if isinstance(servers, (list, tuple)) else [servers]:
        with open(server.log, errors="replace") as log:
            tail = log.readlines()[-10:]
        lines += [f"  server {server.log} running: {server.process.poll() is None}; the end of its log:"]
        lines += ["    " + t.rstrip() for t in tail]
    lines += [f"  pending {i}: deadline {'none' if d is None else f'{d - now:+.1f} s'}, last_seq {s}" for i, d, s in pending]
    lines += [f"  owed {r} {t}: {a} attempts, next {n - now:+.1f} s" for r, t, a, n in owed]
    lines += [f"  queued send {r} step {s}: due {d - now:+.1f} s" for r, s, d in queued]
    return "\n".join(lines)


def check(load, sink, db):
    """Every invariant against the answers the load saw, the database and the webhooks
    received: the failures found, and how many verifications there are."""
    failures = []
    statuses = dict(db.rows("SELECT id, status FROM verifications"))
    events = {}
    for request_id, seq, body in db.rows("SELECT {id}, seq, {body} AS body FROM events ORDER BY {id}, seq"):
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
            failures.append(f"{request_id}: the send queued for step {step} at a kill was delivered {sent} times; "
                            f"its timeline: {', '.join(labels)}")
    for request_id, timeline in events.items():
        labels = [e["label"] for _, e in timeline]
        for channel in STEP_CHANNELS:
            if labels.count(f"{channel}:code_sent") > 1:
                failures.append(f"{request_id}: the {channel} code was sent more than once")
            # A step's timer fires once, and a step ends once, whichever instance holds it.
            ends = [label for label in labels if label.startswith(channel + ":") and label.split(":", 1)[1] in STEP_ENDS]
            if len(ends) > 1:
                failures.append(f"{request_id}: the {channel} step ended {len(ends)} times ({', '.join(ends)})")
    if sink.bad:
        failures.append(f"{len(sink.bad)} webhooks failed signature verification: {sink.bad[0]}")
    if load.five_hundreds:
        failures.append(f"{len(load.five_hundreds)} answers were 5xx")
    return failures, len(statuses)


def duplicated(db):
    """Numbers with more than one verification: the load starts each number once (retrying
    with its Idempotency-Key), so a second one is a start carried out twice."""
    return db.rows("SELECT phone_index, COUNT(*) AS n FROM verifications GROUP BY phone_index HAVING COUNT(*) > 1")
