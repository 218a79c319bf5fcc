"""A local stand-in for Twilio Verify v2's Silent Network Auth (verify.twilio.com), written
from Twilio's public docs and OpenAPI description, standard library only. Run it as its
own process:

    python3 fake_twilio_verify.py --account-sid AC... --auth-token TOKEN --service-sid VA... [--port 0]

It prints `listening on http://127.0.0.1:PORT` once ready, then serves:

* `POST /v2/Services/{ServiceSid}/Verifications`: HTTP Basic, form `To`, `Channel=sna`;
  201 with the Verification resource, whose `sna.url` is this fake's. A number ending in 98
  is one SNA does not cover: 400, code 60540.
* `GET` or `POST /sna/{sid}` (the device's URL, no auth): over the cellular path (a source
  address in 127.0.0.2–127.0.0.254) it redirects through a carrier hop and ends with
  `ErrorCode=0&ErrorDescription=Success&Carrier=FAKE`; from another address it records SNA
  error 60510 (not on mobile data). It works once.
* `POST /v2/Services/{ServiceSid}/VerificationCheck`: form `To` (no `Code`): the latest
  verification of that number is `approved` when the device came over cellular and the SIM
  holds the number (an even last digit), else `pending` with `sna_attempts_error_codes`;
  an approved one is deleted, so checking it again is a 404 (code 20404), as Twilio does.
* `GET /_fake/requests`, `POST /_fake/reset`.
"""
import argparse
import base64
import json
import secrets
import sys
import time
from http.server import ThreadingHTTPServer

from fake_http import FakeHandler, FakeState, cellular


def error_body(status, code, message):
    return {"code": code, "message": message, "more_info": f"https://www.twilio.com/docs/errors/{code}", "status": status}


def stamp():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Fake(FakeState):
    kept = {"verifications": dict}

    def __init__(self, account_sid, auth_token, service_sid):
        super().__init__()
        self.account_sid = account_sid
        self.auth_token = auth_token
        self.service_sid = service_sid


class Handler(FakeHandler):
    content_type = "application/json; charset=utf-8"
    not_found = error_body(404, 20404, "The requested resource was not found")

    def api(self, raw):
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) == 2 and parts[0] == "sna":
            return self.device(parts[1])
        if len(parts) != 4 or parts[:2] != ["v2", "Services"] or parts[3] not in ("Verifications", "VerificationCheck"):
            return self.answer(404, self.not_found)
        form = self.record(raw)
        expected = "Basic " + base64.b64encode(f"{self.fake.account_sid}:{self.fake.auth_token}".encode()).decode()
        if self.headers.get("Authorization") != expected:
            return self.answer(401, error_body(401, 20003, "Authenticate"))
        if parts[2] != self.fake.service_sid:
            return self.answer(404, self.not_found)
        if parts[3] == "Verifications":
            return self.create(form)
        self.check(form)

    def resource(self, verification):
        return {
            "sid": verification["sid"], "service_sid": self.fake.service_sid, "account_sid": self.fake.account_sid,
            "to": verification["to"], "channel": "sna", "status": verification["status"], "valid": verification["status"] == "approved",
            "lookup": {"carrier": {"error_code": None, "name": "Fake Mobile", "mobile_country_code": "234",
                                   "mobile_network_code": "10", "type": "mobile"}},
            "amount": None, "payee": None,
            "send_code_attempts": [{"time": verification["created"], "channel": "sna", "attempt_sid": verification["attempt"]}],
            "date_created": verification["created"], "date_updated": stamp(),
            "sna": {"url": f"http://{self.headers.get('Host')}/sna/{verification['sid']}"},
            "url": f"https://verify.twilio.com/v2/Services/{self.fake.service_sid}/Verifications/{verification['sid']}",
        }

    def create(self, form):
        to = form.get("To", "")
        if not to.startswith("+") or not to[1:].isdigit():
            return self.answer(400, error_body(400, 60200, "Invalid parameter: To"))
        if form.get("Channel") != "sna":
            return self.answer(400, error_body(400, 60200, "Invalid parameter: Channel"))
        if to.endswith("98"):
            return self.answer(400, error_body(400, 60540, "SNA is not supported for this phone number"))
        verification = {"sid": "VE" + secrets.token_hex(16), "attempt": "VL" + secrets.token_hex(16), "to": to,
                        "status": "pending", "created": stamp(), "opened": None}
        with self.fake.lock:
            self.fake.verifications[verification["sid"]] = verification
        self.answer(201, self.resource(verification))

    def device(self, sid):
        with self.fake.lock:
            verification = self.fake.verifications.get(sid)
            if verification is None or verification["opened"] is not None:
                return self.text("ErrorCode=60519&ErrorDescription=SNA+URL+already+used&Carrier=FAKE")
            verification["opened"] = "cellular" if cellular(self.client_address[0]) else "wifi"
        if verification["opened"] == "wifi":
            return self.text("ErrorCode=60510&ErrorDescription=Not+on+mobile+data&Carrier=FAKE")
        self.send_response(302)
        self.send_header("Location", f"/_carrier/{sid}")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        if self.path.startswith("/_fake/"):
            return super().do_GET()
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) == 2 and parts[0] == "sna":
            return self.device(parts[1])
        if len(parts) == 2 and parts[0] == "_carrier":
            return self.text("ErrorCode=0&ErrorDescription=Success&Carrier=FAKE")
        self.answer(404, self.not_found)

    def text(self, body):
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def check(self, form):
        to = form.get("To")
        with self.fake.lock:
            mine = [v for v in self.fake.verifications.values() if v["to"] == to or v["sid"] == form.get("VerificationSid")]
            verification = mine[-1] if mine else None
            if verification is None:
                return self.answer(404, error_body(404, 20404, "The requested resource was not found"))
            errors = []
            if verification["opened"] == "cellular" and int(to[-1]) % 2 == 0:
                verification["status"] = "approved"
                del self.fake.verifications[verification["sid"]]
            elif verification["opened"] == "cellular":
                errors = [60500]
            else:
                errors = [60510] if verification["opened"] == "wifi" else [60519]
        body = {key: value for key, value in self.resource(verification).items()
                if key in ("sid", "service_sid", "account_sid", "to", "channel", "status", "valid", "amount", "payee",
                           "date_created", "date_updated")}
        body["sna_attempts_error_codes"] = [{"attempt_sid": verification["attempt"], "code": code} for code in errors]
        self.answer(200, body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--account-sid", required=True)
    parser.add_argument("--auth-token", required=True)
    parser.add_argument("--service-sid", required=True)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    Handler.fake = Fake(args.account_sid, args.auth_token, args.service_sid)
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
