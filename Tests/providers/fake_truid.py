"""A local stand-in for tru.ID's SubscriberCheck v0.2 API, written from tru.ID's public
API reference (OAuth2 client credentials, `POST /subscriber_check/v0.2/checks`, the
`check_url` redirect, `PATCH` with the code), standard library only. Run it as its own
process:

    python3 fake_truid.py --client-id ID --client-secret SECRET [--port 0]

It prints `listening on http://127.0.0.1:PORT` once ready, then serves:

* `POST /oauth2/v1/token`: HTTP Basic with the client id and secret, form
  `grant_type=client_credentials`; answers a bearer token valid for `--expires-in` seconds.
* `POST /subscriber_check/v0.2/checks` (bearer): `{"phone_number", "period"?}` as E.164 digits
  and the SIM-change window in minutes (60–540000, default 10080, 7 days; outside: 400); 201
  `application/hal+json` with `check_id` and `_links.check_url.href`. A number ending in 88
  or 98 is on an operator tru.ID does not reach: 400 `mno_not_supported`.
* `GET /subscriber_check/v0.2/checks/{id}/redirect` (the device's check URL, no auth):
  over the cellular path (a source address in 127.0.0.2–127.0.0.254) it redirects through
  a carrier hop and ends with `{"check_id", "code"}`; from any other address it answers 412
  `not_mobile_ip`. It works once.
* `PATCH /subscriber_check/v0.2/checks/{id}` (bearer, `application/json-patch+json`,
  `[{"op":"add","path":"/code","value":…}]`): 404 before the device visited; then
  `COMPLETED` with `match` (the SIM holds the number: an even last digit, and the code the
  device was given), `no_sim_change` over the check's `period` and `no_sim_change_period`: a
  number ending in 96 had its SIM changed 2 hours ago, so `no_sim_change` is false only for a
  period of 120 minutes or more, and then `sim_change_within` is 120 (the 1–2 h bucket).
* `GET /_fake/requests` (every API request: method, path, headers, body), `GET /_fake/tokens`
  (token requests), `GET /_fake/issued` (the access tokens it gave), `POST /_fake/reset`.
"""
import argparse
import base64
import json
import secrets
import sys
import time
import urllib.parse
import uuid
from http.server import ThreadingHTTPServer

from fake_http import FakeHandler, FakeState, cellular

ERRORS = "https://developer.tru.id/docs/reference/api-errors#"
DEFAULT_PERIOD = 7 * 24 * 60
# The buckets `sim_change_within` reports, in minutes: the latest change falls before each one's end.
BUCKETS = (60, 120, 180, 360, 720, 1440, 2880, 4320, 10080, 43200, 129600, 540000)
SWAPPED_MINUTES_AGO = 120


def problem(slug, title, detail):
    return {"type": ERRORS + slug, "title": title, "detail": detail}


class Fake(FakeState):
    kept = {"checks": dict, "tokens": list, "issued": dict}

    def __init__(self, client_id, client_secret, expires_in):
        super().__init__()
        self.client_id = client_id
        self.client_secret = client_secret
        self.expires_in = expires_in


class Handler(FakeHandler):
    content_type = "application/json"
    not_found = problem("not_found", "Not Found", "Not Found")
    listings = ("requests", "tokens", "issued")

    @property
    def base(self):
        return f"http://{self.headers.get('Host')}"

    def reply(self, status, body, content_type="application/json", headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def keep(self, method, raw):
        with self.fake.lock:
            self.fake.requests.append({"method": method, "path": self.path, "body": raw.decode(errors="replace"),
                                       "headers": {k.lower(): v for k, v in self.headers.items()}})

    def bearer(self):
        header = self.headers.get("Authorization", "")
        with self.fake.lock:
            expiry = self.fake.issued.get(header.removeprefix("Bearer "))
        return header.startswith("Bearer ") and expiry is not None and expiry > time.time()

    def api(self, raw):
        path = self.path.split("?")[0]
        if path == "/oauth2/v1/token":
            return self.token(raw)
        self.keep("POST", raw)
        if path != "/subscriber_check/v0.2/checks":
            return self.reply(404, self.not_found)
        if not self.bearer():
            return self.reply(401, problem("unauthorized", "Unauthorized", "Invalid access token"))
        body = json.loads(raw or b"{}")
        number = body.get("phone_number", "")
        period = body.get("period", DEFAULT_PERIOD)
        if not isinstance(period, int) or not 60 <= period <= 540000:
            return self.reply(400, problem("period_invalid", "Bad Request", "period must be 60 to 540000 minutes"))
        if not number.isdigit():
            return self.reply(400, problem("phone_format_invalid", "Bad Request", "Phone Number Validation Error"))
        if number[-2:] in ("88", "98"):
            return self.reply(400, problem("mno_not_supported", "Bad Request", "MNO not supported"))
        check_id = str(uuid.uuid4())
        with self.fake.lock:
            self.fake.checks[check_id] = {"number": number, "status": "ACCEPTED", "code": None, "period": period}
        self.reply(201, {
            "check_id": check_id, "status": "ACCEPTED", "charge_amount": 1, "charge_currency": "API",
            "created_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()), "snapshot_balance": 99, "ttl": 120,
            "_links": {"self": {"href": f"{self.base}/subscriber_check/v0.2/checks/{check_id}"},
                       "check_url": {"href": f"{self.base}/subscriber_check/v0.2/checks/{check_id}/redirect"}},
        }, content_type="application/hal+json")

    def token(self, raw):
        expected = "Basic " + base64.b64encode(f"{self.fake.client_id}:{self.fake.client_secret}".encode()).decode()
        form = dict(urllib.parse.parse_qsl(raw.decode()))
        with self.fake.lock:
            self.fake.tokens.append({"form": form})
        if self.headers.get("Authorization") != expected:
            return self.reply(401, {"error": "invalid_client"})
        if form.get("grant_type") != "client_credentials":
            return self.reply(400, {"error": "unsupported_grant_type"})
        token = secrets.token_urlsafe(24)
        with self.fake.lock:
            self.fake.issued[token] = time.time() + self.fake.expires_in
        self.reply(200, {"access_token": token, "token_type": "bearer", "expires_in": self.fake.expires_in,
                         "scope": form.get("scope", "")})

    def do_GET(self):
        if self.path.startswith("/_fake/"):
            return super().do_GET()
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) == 2 and parts[0] == "_carrier":
            # The operator's hop: it sees the device's address, then hands it back to tru.ID.
            return self.redirect(f"/subscriber_check/v0.2/checks/{parts[1]}/redirect?mno=done")
        if len(parts) != 5 or parts[:3] != ["subscriber_check", "v0.2", "checks"] or parts[4] != "redirect":
            return self.reply(404, self.not_found)
        self.device(parts[3], "mno=done" in self.path)

    def device(self, check_id, back):
        with self.fake.lock:
            check = self.fake.checks.get(check_id)
            if check is None:
                return self.reply(404, problem("check_not_found", "Not Found", "Check Not Found"))
            if not cellular(self.client_address[0]):
                check["status"] = "ERROR"
                return self.reply(412, problem("not_mobile_ip", "Precondition Failed", "Not a mobile IP"))
            if not back:
                if check["status"] != "ACCEPTED":
                    return self.reply(400, problem("check_already_used", "Bad Request", "Check already used"))
                check["status"] = "PENDING"
                return self.redirect(f"/_carrier/{check_id}")
            check["code"] = secrets.token_hex(5)
            code = check["code"]
        self.reply(200, {"check_id": check_id, "code": code})

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_PATCH(self):
        raw = self.read_body()
        self.keep("PATCH", raw)
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) != 4 or parts[:3] != ["subscriber_check", "v0.2", "checks"]:
            return self.reply(404, self.not_found)
        if not self.bearer():
            return self.reply(401, problem("unauthorized", "Unauthorized", "Invalid access token"))
        if self.headers.get("Content-Type", "").split(";")[0] != "application/json-patch+json":
            return self.reply(415, problem("unsupported_media_type", "Unsupported Media Type", "Use JSON Patch"))
        operations = json.loads(raw or b"[]")
        code = next((op.get("value") for op in operations if op.get("op") == "add" and op.get("path") == "/code"), None)
        with self.fake.lock:
            check = self.fake.checks.get(parts[3])
            if check is None or check["code"] is None:
                return self.reply(404, problem("check_not_found", "Not Found", "Check Not Found"))
            number, period = check["number"], check["period"]
            match = code == check["code"] and int(number[-1]) % 2 == 0
            check["status"] = "COMPLETED"
            check["code"] = ""
        changed = number.endswith("96") and SWAPPED_MINUTES_AGO <= period
        answer = {"check_id": parts[3], "status": "COMPLETED", "match": match, "no_sim_change": not changed,
                  "no_sim_change_period": period, "charge_amount": 1, "charge_currency": "API",
                  "created_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())}
        if changed:
            answer["sim_change_within"] = next(b for b in BUCKETS if SWAPPED_MINUTES_AGO <= b)
        self.reply(200, answer)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--client-secret", required=True)
    parser.add_argument("--expires-in", type=int, default=3600)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    Handler.fake = Fake(args.client_id, args.client_secret, args.expires_in)
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
