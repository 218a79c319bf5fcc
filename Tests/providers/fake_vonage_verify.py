"""A local stand-in for Vonage Verify v2's silent authentication (api.nexmo.com/v2/verify),
written from Vonage's public OpenAPI description (Verify v2 1.0.1) and docs: the standard
library, and PyJWT for the application's RS256 tokens and the HS256 callbacks. Run it as its
own process:

    python3 fake_vonage_verify.py --application-id UUID --public-key APP.pub --signature-secret SIG --tls-dir DIR [--port 0]

It prints `listening on http://127.0.0.1:PORT`, then `tls on https://127.0.0.1:PORT ca
DIR/verify-cert.pem` (Vonage's SDK speaks https only), and serves on both:

* `POST /v2/verify` (the application's JWT): `{brand, workflow: [{channel: silent_auth, to,
  coverage_check?}], client_ref?}`; 202 `{request_id, check_url}`. Refusals as the spec
  lists them: 422 with `invalid_parameters` (no brand, a bad `to`, silent_auth not first),
  409 with the in-flight `request_id` (a number already being verified), 412 (a number
  ending in 98: its network is not supported; with `coverage_check: false` a check URL is
  given anyway and the device's visit fails), 401 (a bad token).
* `GET /v2/verify/{id}/silent-auth/redirect` (the device's check URL, no auth): over the
  cellular path (a source address in 127.0.0.2–127.0.0.254) it redirects through a carrier
  hop and ends with 200 `{request_id, code}`, as "Carrier Success" reads; the SIM holds the
  number when its last digit is even. From another address: 412 "IP Address does not
  resolve to a cellular device."; an odd last digit: 412 "Device MSISDN does not match.".
  It works once (then 409).
* `POST /v2/verify/{id}` (JWT) `{code}`: 200 `{request_id, status: completed}`; 400
  Invalid Code for a wrong code, after which the silent request is spent (one attempt, as
  the spec says for silent auth): 410; 409 before the device's visit; 404 for an unknown or
  finished request.
* Control: `GET /_fake/requests` (method, path, headers, body of every API request),
  `POST /_fake/reset`, `POST /_fake/fail` (`{http, title, times}`: the next API requests get
  that problem), `POST /_fake/callback` (`{url, request_id, status, forge, client_ref}`):
  sends the request's signed silent-auth event to `url` and answers Tacit's status.
"""
import argparse
import datetime
import hashlib
import json
import re
import secrets
import ssl
import sys
import time
import urllib.error
import urllib.request
import uuid

import jwt

from fake_http import FakeHandler, FakeState, serve, cellular

ERRORS = "https://developer.vonage.com/en/api-errors/verify-v2#"


def problem(title, detail, slug, **extra):
    return {"title": title, "type": ERRORS + slug, "detail": detail, "instance": str(uuid.uuid4())} | extra


def stamp():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


class Fake(FakeState):
    kept = {"verifications": dict}

    def __init__(self, application_id, public_key, signature_secret):
        super().__init__()
        self.application_id = application_id
        self.public_key = public_key
        self.signature_secret = signature_secret


class Handler(FakeHandler):
    content_type = "application/json"
    not_found = problem("Not Found", "Request not found", "request-not-found")

    def reply(self, status, body):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json" if status < 400 else "application/problem+json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def keep(self, method, raw):
        with self.fake.lock:
            self.fake.requests.append({"method": method, "path": self.path, "body": raw.decode(errors="replace"),
                                       "headers": {k.lower(): v for k, v in self.headers.items()}})

    def authorized(self):
        scheme, _, token = self.headers.get("Authorization", "").partition(" ")
        try:
            claims = jwt.decode(token, self.fake.public_key, algorithms=["RS256"], options={"require": ["iat", "exp", "jti"]})
        except jwt.PyJWTError:
            return False
        return scheme == "Bearer" and claims.get("application_id") == self.fake.application_id

    def base(self):
        scheme = "https" if isinstance(self.connection, ssl.SSLSocket) else "http"
        return f"{scheme}://{self.headers.get('Host')}"

    def api(self, raw):
        self.keep("POST", raw)
        parts = self.path.split("?")[0].strip("/").split("/")
        if parts[:2] != ["v2", "verify"] or len(parts) > 3:
            return self.reply(404, self.not_found)
        if not self.authorized():
            return self.reply(401, problem("Unauthorized", "You did not provide correct credentials.", "unauthorized"))
        failure = self.fake.next_failure()
        if failure:
            return self.reply(failure["http"], problem(failure.get("title", "Error"), "Queued by the test.", "queued"))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return self.reply(422, problem("Invalid params", "The value of one or more parameters is invalid.", "invalid-params"))
        if len(parts) == 2:
            return self.start(body)
        self.check(parts[2], body)

    def start(self, body):
        invalid = []
        if not 1 <= len(body.get("brand") or "") <= 18:
            invalid.append({"name": "brand", "reason": "Brand is required"})
        workflow = body.get("workflow") or []
        first = workflow[0] if workflow and isinstance(workflow[0], dict) else {}
        to = str(first.get("to", ""))
        if first.get("channel") != "silent_auth":
            invalid.append({"name": "workflow", "reason": "silent_auth must be the first channel"})
        elif not re.fullmatch(r"[1-9]\d{6,14}", to):
            invalid.append({"name": "workflow[0].to", "reason": "Invalid phone number"})
        if invalid:
            return self.reply(422, problem("Invalid params", "The value of one or more parameters is invalid.",
                                           "invalid-params", invalid_parameters=invalid))
        covered = not to.endswith("98")
        if not covered and first.get("coverage_check", True):
            return self.reply(412, problem("Network not supported",
                                           "Device number does not resolve to a supported Mobile Network Operator.",
                                           "precondition-failed"))
        with self.fake.lock:
            busy = next((v for v in self.fake.verifications.values() if v["to"] == to and v["status"] == "pending"), None)
            if busy:
                return self.reply(409, problem("Conflict", "Concurrent verifications to the same number are not allowed",
                                               "concurrent", request_id=busy["id"]))
            request_id = str(uuid.uuid4())
            self.fake.verifications[request_id] = {"id": request_id, "to": to, "status": "pending", "code": None,
                                                   "covered": covered, "opened": False, "client_ref": body.get("client_ref")}
        self.reply(202, {"request_id": request_id, "check_url": f"{self.base()}/v2/verify/{request_id}/silent-auth/redirect"})

    def check(self, request_id, body):
        with self.fake.lock:
            verification = self.fake.verifications.get(request_id)
            if verification is None or verification["status"] in ("completed", "expired"):
                return self.reply(404, self.not_found)
            if verification["status"] == "failed":
                return self.reply(410, problem("Invalid Code", "An incorrect code has been provided too many times. Workflow terminated.",
                                               "expired"))
            if verification["code"] is None:
                return self.reply(409, problem("Conflict", "The current Verify workflow step does not support a code.", "no-code"))
            if body.get("code") != verification["code"]:
                verification["status"] = "failed"
                return self.reply(400, problem("Invalid Code", "The code you provided does not match the expected value.",
                                               "invalid-code"))
            verification["status"] = "completed"
        self.reply(200, {"request_id": request_id, "status": "completed"})

    def do_GET(self):
        if self.path.startswith("/_fake/"):
            return super().do_GET()
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) == 2 and parts[0] == "_carrier":
            # The operator's hop: it sees the device's address, then hands it back to Verify.
            return self.redirect(f"/v2/verify/{parts[1]}/silent-auth/redirect?mno=done")
        if len(parts) != 5 or parts[:2] != ["v2", "verify"] or parts[3:] != ["silent-auth", "redirect"]:
            return self.reply(404, self.not_found)
        self.device(parts[2], "mno=done" in self.path)

    def device(self, request_id, back):
        with self.fake.lock:
            verification = self.fake.verifications.get(request_id)
            if verification is None:
                return self.reply(404, self.not_found)
            if not back:
                if verification["opened"]:
                    return self.reply(409, problem("Conflict", "The silent auth verification cannot be completed.", "conflict"))
                verification["opened"] = True
                if not cellular(self.client_address[0]):
                    verification["status"] = "failed"
                    return self.reply(412, problem("Silent authentication failed", "IP Address does not resolve to a cellular device.",
                                                   "precondition-failed"))
                if not verification["covered"]:
                    verification["status"] = "failed"
                    return self.reply(412, problem("Network not supported",
                                                   "Device number does not resolve to a supported Mobile Network Operator.",
                                                   "precondition-failed"))
                return self.redirect(f"/_carrier/{request_id}")
            if int(verification["to"][-1]) % 2:
                verification["status"] = "failed"
                return self.reply(412, problem("Silent authentication failed", "Device MSISDN does not match.", "msisdn-error"))
            verification["code"] = secrets.token_urlsafe(6).replace("-", "a").replace("_", "b")[:8]
            code = verification["code"]
        self.reply(200, {"request_id": request_id, "code": code})

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def callback(self, body):
        """The request's silent-auth event, signed as Verify signs webhooks (HS256 under the
        signature secret, `payload_hash` of the body); `forge` signs with another secret."""
        with self.fake.lock:
            verification = self.fake.verifications.get(body["request_id"], {})
        event = {"request_id": body["request_id"], "triggered_at": stamp(), "type": "event", "channel": "silent_auth",
                 "status": body["status"], "finalized_at": stamp(), "channel_timeout": 60}
        reference = body.get("client_ref", verification.get("client_ref"))
        if reference:
            event["client_ref"] = reference
        data = json.dumps(event).encode()
        secret = "forged-" + secrets.token_hex(8) if body.get("forge") else self.fake.signature_secret
        claims = {"iat": int(time.time()), "jti": str(uuid.uuid4()), "iss": "Vonage",
                  "payload_hash": hashlib.sha256(data).hexdigest(), "application_id": self.fake.application_id}
        token = jwt.encode(claims, secret, algorithm="HS256")
        request = urllib.request.Request(body["url"], data=data, method="POST",
                                         headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
        try:
            with urllib.request.urlopen(request, timeout=5) as reply:
                return {"status": reply.status, "body": reply.read().decode(errors="replace"), "token": token, "sent": data.decode()}
        except urllib.error.HTTPError as error:
            return {"status": error.code, "body": error.read().decode(errors="replace"), "token": token, "sent": data.decode()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--application-id", required=True)
    parser.add_argument("--public-key", required=True, help="the application's public key (PEM file) its JWTs are checked with")
    parser.add_argument("--signature-secret", required=True)
    parser.add_argument("--tls-dir", required=True)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    Handler.fake = Fake(args.application_id, open(args.public_key).read(), args.signature_secret)
    serve(Handler, args.port, args.tls_dir, "verify")


if __name__ == "__main__":
    sys.exit(main())
