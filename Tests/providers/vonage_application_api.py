"""The fake Vonage's Messages API v1 (`POST /v1/messages`, WhatsApp) and Voice API
(`POST /v1/calls`), written from Vonage's docs and OpenAPI descriptions: both take only a
Vonage application's JWT (RS256 under the application's private key, checked here with the
public key the test gave the fake, with PyJWT as Vonage's SDK uses it), answer 202
`{"message_uuid"}` or 201 `{"uuid", "status", "direction", "conversation_uuid"}`, and refuse
with RFC 7807 problems whose `type` ends in Vonage's error code. Their callbacks (a message
status to the message's `webhook_url`, a call event to the call's `event_url`) are signed as
Vonage signs them: an HS256 JWT under the signature secret in `Authorization: Bearer`, its
`payload_hash` the SHA-256 hex of the body."""
import datetime
import hashlib
import json
import time
import uuid

import jwt

PROBLEMS = "https://developer.nexmo.com/api-errors/messages-olympus#"


def problem(status, title, code=None, detail=""):
    kind = PROBLEMS + str(code) if code else "https://developer.nexmo.com/api-errors#" + title.lower().replace(" ", "-")
    return status, {"type": kind, "title": title, "detail": detail, "instance": str(uuid.uuid4())}


def check_token(headers, public_key, application_id):
    """None when the Bearer token verifies; else the reason, for a 401."""
    scheme, _, token = headers.get("Authorization", "").partition(" ")
    if scheme != "Bearer" or not token:
        return "no Bearer token"
    try:
        claims = jwt.decode(token, public_key, algorithms=["RS256"], options={"require": ["iat", "exp", "jti"]})
    except jwt.PyJWTError as error:
        return f"invalid token ({type(error).__name__})"
    if claims.get("application_id") != application_id:
        return "the token names another application"
    return None


def whatsapp(body):
    """The Messages API's checks on a WhatsApp message, as problems; None when it is fine."""
    if body.get("channel") != "whatsapp" or body.get("message_type") not in ("text", "template"):
        return problem(422, "Invalid params", 1020, "channel and message_type")
    if not str(body.get("to", "")).isdigit() or not body.get("from"):
        return problem(422, "Invalid params", 1020, "to and from are numbers without +")
    if body["message_type"] == "text" and not body.get("text"):
        return problem(422, "Missing params", 1010, "text")
    if body["message_type"] == "template":
        template, settings = body.get("template") or {}, body.get("whatsapp") or {}
        if not template.get("name") or not isinstance(template.get("parameters"), list):
            return problem(422, "Invalid template", 1022, "template name and parameters")
        if settings.get("policy") not in (None, "deterministic") or not settings.get("locale"):
            return problem(422, "Invalid params", 1020, "whatsapp policy and locale")
    return None


def call(body):
    """The Voice API's checks on a call with an inline NCCO; None when it is fine."""
    to, ncco = body.get("to"), body.get("ncco")
    if not isinstance(to, list) or not to or to[0].get("type") != "phone" or not str(to[0].get("number", "")).isdigit():
        return problem(400, "Bad Request", None, "to")
    if (body.get("from") or {}).get("type") != "phone" or not isinstance(ncco, list) or not ncco:
        return problem(400, "Bad Request", None, "from and ncco")
    if any(action.get("action") == "talk" and not action.get("text") for action in ncco):
        return problem(400, "Bad Request", None, "talk text")
    return None


def message_status(uuid_, sent, status, error_code=None):
    """A Messages API status webhook for a WhatsApp message (Vonage's WhatsApp status docs)."""
    report = {"message_uuid": uuid_, "to": sent["to"], "from": sent["from"], "channel": "whatsapp", "status": status,
              "timestamp": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    if "client_ref" in sent:
        report["client_ref"] = sent["client_ref"]
    if status in ("rejected", "undeliverable"):
        code = error_code or 1300
        report["error"] = {"type": PROBLEMS + str(code), "title": str(code), "detail": "Not delivered"}
    return report


def call_event(uuid_, conversation, sent, status):
    """A Voice API event webhook for an outbound call (the webhook reference's call events)."""
    return {"uuid": uuid_, "conversation_uuid": conversation, "status": status, "direction": "outbound",
            "from": sent["from"]["number"], "to": sent["to"][0]["number"],
            "timestamp": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")}


def signed(payload, secret, application_id, age=0):
    """The body and its Authorization header, signed as Vonage signs webhooks."""
    data = json.dumps(payload).encode()
    claims = {"iat": int(time.time()) - age, "jti": str(uuid.uuid4()), "iss": "Vonage",
              "payload_hash": hashlib.sha256(data).hexdigest(), "application_id": application_id}
    return data, "Bearer " + jwt.encode(claims, secret, algorithm="HS256")
