"""Schemathesis hooks for fuzz.sh: most generated starts get a fresh number from the
virtual operator's +990 range, so starts succeed and the stateful phase can follow the
document's links to check, skip, cancel, events and timelines with a real id and client
token. The rest keep their generated (mostly invalid) number."""
import random

import schemathesis


@schemathesis.hook("map_body")
def map_body(context, body):
    operation = context.operation
    if operation is None or operation.method.upper() != "POST" or operation.path != "/v1/verifications":
        return body
    if isinstance(body, dict) and random.random() < 0.7:
        body = dict(body)
        body["phone_number"] = "+990%08d" % random.randrange(10 ** 8)
    return body
