"""Schemathesis hooks for fuzz.sh: most generated starts get a number from the virtual
operator's +990 range, so starts succeed and the stateful phase can follow the document's
links to check, skip, cancel, events and timelines with a real id and client token. The
rest keep their generated (mostly invalid) number. Both choices are drawn from the
generated body itself, so a run's seed still reproduces it."""
import hashlib

import schemathesis


@schemathesis.hook("map_body")
def map_body(context, body):
    operation = context.operation
    if operation is None or operation.method.upper() != "POST" or operation.path != "/v1/verifications":
        return body
    if not isinstance(body, dict):
        return body
    digest = hashlib.sha256(repr(sorted(body.items(), key=lambda item: item[0])).encode()).digest()
    if digest[0] >= 179:  # about 30 % keep what was generated
        return body
    return dict(body, phone_number="+990%08d" % (int.from_bytes(digest[1:5], "big") % 10 ** 8))
