"""A local stand-in for Vonage's SMS API (rest.nexmo.com), and with an application's public
key for its Messages and Voice APIs (api.nexmo.com), written from Vonage's public docs and
OpenAPI descriptions (sms 1.5.1, voice 1.10.0): the standard library, and PyJWT for the
application's RS256 tokens. Run it as its own process:

    python3 fake_vonage.py --api-key KEY --api-secret SECRET --signature-secret SIG [--signature-method md5hash] [--tls-dir DIR]
        [--public-key APP.pub --application-id UUID]

It prints `listening on http://127.0.0.1:PORT` once ready (and, with --tls-dir, a second
line `tls on https://127.0.0.1:PORT ca DIR/vonage-cert.pem`: Vonage's SDK speaks https only),
then serves on both:

* `POST /sms/json`: form-encoded, HTTP Basic with the API key and secret (or `api_key`
  and `api_secret` fields), answered 200 with `{"message-count", "messages": [...]}` as
  Vonage does, including its refusals (status 2 missing parameter, 3 invalid parameter,
  4 bad credentials), all in the same 200 envelope.
* Control routes under `/_fake/`: `GET /_fake/requests` (every request received: method,
  path, headers, form), `GET /_fake/messages` (the ids of accepted messages, oldest first), `POST /_fake/fail` (JSON `{http, status, times}`: the next requests
  get that HTTP status, or that SMS API status code in a 200), `POST /_fake/reset`, and
  `POST /_fake/callback` (JSON `{message_id, status, error_code, forge, unsigned, method,
  format, age}`): sends the message's signed SMS API delivery receipt to the `callback` URL
  it was sent with, and answers with the status code that URL gave; `GET /_fake/receipts`
  (every receipt sent, with its `sig`).
* With `--public-key FILE --application-id ID`, the Messages API's `POST /v1/messages`
  (WhatsApp) and the Voice API's `POST /v1/calls` as `vonage_application_api.py` describes;
  `GET /_fake/whatsapp` and `GET /_fake/calls` list the ids given, and `POST /_fake/callback`
  with `{message_uuid, status, error_code, forge}` or `{call_uuid, status, forge}` sends the
  signed status or call event (`GET /_fake/callbacks` lists them, with their tokens).
"""
import argparse
import base64
import datetime
import hashlib
import hmac
import json
import secrets
import sys
import uuid
import urllib.error
import urllib.parse
import urllib.request

import vonage_application_api as app_api
from fake_http import FakeHandler, FakeState, serve

# The SMS API's refusals (x-errors in the OpenAPI description) by status code.
ERROR_TEXT = {
    "1": "Throttled", "2": "Missing Parameters", "3": "Invalid Parameters", "4": "Invalid Credentials",
    "5": "Internal Error", "6": "Invalid Message", "7": "Number Barred", "8": "Partner Account Barred",
    "9": "Partner Quota Violation", "10": "Too Many Existing Binds", "11": "Account Not Enabled For HTTP",
    "12": "Message Too Long", "14": "Invalid Signature", "15": "Invalid Sender Address",
    "22": "Invalid Network Code", "23": "Invalid Callback URL", "29": "Non-Whitelisted Destination",
    "32": "Signature And API Secret Disallowed", "33": "Number De-activated",
}


def sign(params, secret, method):
    """Vonage's "Signing requests": every parameter but `sig`, sorted by name, written
    `&name=value` with `&` and `=` in values turned into `_`; then the MD5 of that string
    followed by the secret (`md5hash`, the dashboard's default), or its HMAC under the
    secret with MD5, SHA-1, SHA-256 or SHA-512. Vonage sends the hex digest."""
    text = "".join(f"&{name}=" + str(params[name]).replace("&", "_").replace("=", "_")
                   for name in sorted(params) if name != "sig")
    if method == "md5hash":
        return hashlib.md5((text + secret).encode()).hexdigest()
    return hmac.new(secret.encode(), text.encode(), getattr(hashlib, method)).hexdigest()


# The Messages API's word for a failure the SMS API calls `failed`, so a test can ask for either.
SMS_STATUS = {"undeliverable": "failed"}


def envelope(message):
    return {"message-count": "1", "messages": [message]}


def refusal(status):
    return envelope({"status": status, "error-text": ERROR_TEXT.get(status, "Error")})


class Fake(FakeState):
    kept = {"receipts": list, "messages": dict, "whatsapp": dict, "calls": dict, "callbacks": list}

    def __init__(self, api_key, api_secret, signature_secret, signature_method="md5hash", public_key=None, application_id=None):
        super().__init__()
        self.public_key = public_key
        self.application_id = application_id
        self.api_key = api_key
        self.api_secret = api_secret
        self.signature_secret = signature_secret
        self.signature_method = signature_method

    def accept(self, form):
        # Vonage's ids are upper-case hexadecimal strings of 16 or more characters, shaped
        # like the docs' example `0A0000000123ABCD1`: a leading digit, as real ones often have.
        message_id = "0A" + secrets.token_hex(8).upper()[:15]
        with self.lock:
            self.messages[message_id] = form
        message = {"to": form["to"], "message-id": message_id, "status": "0", "remaining-balance": "15.53590000",
                   "message-price": "0.03330000", "network": "23410"}
        if "client-ref" in form:
            message["client-ref"] = form["client-ref"]
        return envelope(message)

    def receipt(self, message_id, form, body):
        """The delivery receipt's fields as the SMS API names them (its docs' DLR example)."""
        now = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=body.get("age") or 0)
        status = SMS_STATUS.get(body["status"], body["status"])
        receipt = {"msisdn": form["to"], "to": form["from"], "network-code": "23410", "messageId": message_id,
                   "price": "0.03330000", "status": status, "scts": now.strftime("%y%m%d%H%M"),
                   "err-code": str(body.get("error_code") or 0), "api-key": self.api_key,
                   "message-timestamp": now.strftime("%Y-%m-%d %H:%M:%S"),
                   "timestamp": str(int(now.timestamp())), "nonce": secrets.token_hex(16)}
        if "client-ref" in form:
            receipt["client-ref"] = form["client-ref"]
        return receipt


class Handler(FakeHandler):
    not_found = {"type": "about:blank", "title": "Not Found"}
    listings = ("requests", "messages", "receipts", "whatsapp", "calls", "callbacks")

    def api(self, raw):
        path = self.path.split("?")[0]
        if path in ("/v1/messages", "/v1/calls") and self.fake.public_key:
            return self.answer(*self.application_api(path, raw))
        if path != "/sms/json":
            return self.answer(404, self.not_found)
        status, body = self.send_sms(self.record(raw))
        self.answer(status, body)

    def application_api(self, path, raw):
        """The Messages or Voice API: the JSON body and whether the JWT verified are recorded."""
        refused = app_api.check_token(self.headers, self.fake.public_key, self.fake.application_id)
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = None
        with self.fake.lock:
            self.fake.requests.append({"method": "POST", "path": self.path, "json": body, "raw": raw.decode(errors="replace"),
                                       "jwt_verified": refused is None,
                                       "headers": {k.lower(): v for k, v in self.headers.items()}})
        if refused:
            return app_api.problem(401, "Unauthorized", None, refused)
        if not self.headers.get("Content-Type", "").startswith("application/json") or not isinstance(body, dict):
            return app_api.problem(422, "Invalid params", 1020, "a JSON object")
        failure = self.fake.next_failure(path.rsplit("/", 1)[1])
        if failure:
            return app_api.problem(failure["http"], failure.get("title", "Error"), failure.get("code"))
        messages = path == "/v1/messages"
        invalid = app_api.whatsapp(body) if messages else app_api.call(body)
        if invalid:
            return invalid
        new = str(uuid.uuid4())
        with self.fake.lock:
            (self.fake.whatsapp if messages else self.fake.calls)[new] = body
        if messages:
            return 202, {"message_uuid": new}
        return 201, {"uuid": new, "status": "started", "direction": "outbound", "conversation_uuid": "CON-" + str(uuid.uuid4())}

    def application_callback(self, body):
        """Sends a message's status or a call's event, signed (or, with `forge`, signed by another secret)."""
        with self.fake.lock:
            if "message_uuid" in body:
                sent = self.fake.whatsapp[body["message_uuid"]]
                payload = app_api.message_status(body["message_uuid"], sent, body["status"], body.get("error_code"))
                url = sent.get("webhook_url")
            else:
                sent = self.fake.calls[body["call_uuid"]]
                payload = app_api.call_event(body["call_uuid"], "CON-" + body["call_uuid"], sent, body["status"])
                url = (sent.get("event_url") or [None])[0]
        if not url or urllib.parse.urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
            return {"status": None, "error": "the fake only calls back to loopback"}
        secret = "forged-" + self.fake.signature_secret if body.get("forge") else self.fake.signature_secret
        data, authorization = app_api.signed(payload, secret, self.fake.application_id, body.get("age") or 0)
        with self.fake.lock:
            self.fake.callbacks.append({"url": url, "body": payload, "authorization": authorization})
        request = urllib.request.Request(url, data=data, method="POST",
                                         headers={"Content-Type": "application/json", "Authorization": authorization})
        try:
            with urllib.request.urlopen(request, timeout=5) as reply:
                return {"status": reply.status}
        except urllib.error.HTTPError as error:
            return {"status": error.code}

    def authorised(self, form):
        expected = "Basic " + base64.b64encode(f"{self.fake.api_key}:{self.fake.api_secret}".encode()).decode()
        if self.headers.get("Authorization") == expected:
            return True
        return form.get("api_key") == self.fake.api_key and form.get("api_secret") == self.fake.api_secret

    def send_sms(self, form):
        if not self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
            return 200, refusal("2")
        if not self.authorised(form):
            return 200, refusal("4")
        failure = self.fake.next_failure()
        if failure and failure.get("http"):
            return failure["http"], {"type": "about:blank", "title": "Internal Error"}
        if failure:
            return 200, refusal(str(failure["status"]))
        if not all(form.get(name) for name in ("from", "to", "text")):
            return 200, refusal("2")
        to = form["to"]
        if not (to.isdigit() and 7 <= len(to) <= 15) or form.get("type", "text") not in ("text", "binary", "unicode"):
            return 200, refusal("3")
        if len(form.get("callback", "")) > 100 or len(form.get("client-ref", "")) > 100:
            return 200, refusal("3")
        return 200, self.fake.accept(form)

    def callback(self, body):
        """Sends the message's SMS API delivery receipt as Vonage does with signed webhooks
        on: the receipt's fields plus `timestamp`, `nonce` and `sig`, form-encoded (the
        account's "POST" setting, or with `format: json` its "POST-JSON"), signed with the
        signature secret by the account's method (or, with `method`, another; with
        `forge`, another secret; with `unsigned`, no `sig`; `age` seconds in the past)."""
        if "message_uuid" in body or "call_uuid" in body:
            return self.application_callback(body)
        with self.fake.lock:
            form = self.fake.messages[body["message_id"]]
        url = form["callback"]
        if urllib.parse.urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
            return {"status": None, "error": "the fake only calls back to loopback"}
        receipt = self.fake.receipt(body["message_id"], form, body)
        if not body.get("unsigned"):
            secret = "forged-" + self.fake.signature_secret if body.get("forge") else self.fake.signature_secret
            receipt["sig"] = sign(receipt, secret, body.get("method") or self.fake.signature_method)
        with self.fake.lock:
            self.fake.receipts.append(dict(receipt))
        if body.get("format") == "json":
            data, content_type = json.dumps(receipt).encode(), "application/json"
        else:
            data, content_type = urllib.parse.urlencode(receipt).encode(), "application/x-www-form-urlencoded"
        request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": content_type})
        try:
            with urllib.request.urlopen(request, timeout=5) as reply:
                return {"status": reply.status}
        except urllib.error.HTTPError as error:
            return {"status": error.code}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--api-secret", required=True)
    parser.add_argument("--signature-secret", required=True)
    parser.add_argument("--signature-method", default="md5hash", choices=["md5hash", "md5", "sha1", "sha256", "sha512"])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls-dir")
    parser.add_argument("--public-key", help="the Vonage application's public key (PEM file) its JWTs are checked with")
    parser.add_argument("--application-id")
    args = parser.parse_args()
    public_key = open(args.public_key).read() if args.public_key else None
    Handler.fake = Fake(args.api_key, args.api_secret, args.signature_secret, args.signature_method, public_key, args.application_id)
    serve(Handler, args.port, args.tls_dir, "vonage")


if __name__ == "__main__":
    sys.exit(main())
