"""A local stand-in for Twilio's REST API (api.twilio.com), written from Twilio's public
docs and OpenAPI description, standard library only. Run it as its own process:

    python3 fake_twilio.py --account-sid AC... --auth-token TOKEN [--port 0]

It prints `listening on http://127.0.0.1:PORT` once ready, then serves:

* `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` and `.../Calls.json`: HTTP Basic
  with the account SID and auth token (else 401, code 20003), form-encoded, answered 201
  with the message or call resource Twilio documents. Twilio's test-credential numbers
  answer with their documented errors (+15005550001 -> 21211 and so on).
* Control routes under `/_fake/` for the tests: `GET /_fake/requests` (every request
  received: method, path, headers, form), `POST /_fake/fail` (JSON `{status, code,
  message, times, resource}`: the next matching requests get that error),
  `POST /_fake/reset`, and `POST /_fake/callback` (JSON `{sid, status, error_code,
  forge}`): sends the resource's signed status callback to the `StatusCallback` URL it was
  created with, as Twilio does, and answers with the status code that URL gave.
"""
import argparse
import base64
import email.utils
import hashlib
import hmac
import json
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import ThreadingHTTPServer

from fake_http import FakeHandler, FakeState

API_VERSION = "2010-04-01"

# Twilio's magic "To" numbers for test credentials and the errors they produce
# (https://www.twilio.com/docs/iam/test-credentials).
MAGIC_TO = {
    "+15005550001": (21211, "The 'To' number +15005550001 is not a valid phone number."),
    "+15005550002": (21612, "The 'To' phone number: +15005550002, is not currently reachable using the 'From' phone number: {frm} via SMS."),
    "+15005550003": (21408, "Permission to send an SMS has not been enabled for the region indicated by the 'To' number: +15005550003."),
    "+15005550004": (21610, "Attempt to send to unsubscribed recipient"),
    "+15005550009": (21614, "'To' number is not a valid mobile number"),
}


def error_body(status, code, message):
    return {"code": code, "message": message, "more_info": f"https://www.twilio.com/docs/errors/{code}", "status": status}


def signature(auth_token, url, params):
    """X-Twilio-Signature: base64 HMAC-SHA1 over the URL and the sorted parameters."""
    payload = url + "".join(name + value for name in sorted(params) for value in [params[name]])
    digest = hmac.new(auth_token.encode(), payload.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


class Fake(FakeState):
    kept = {"resources": dict}

    def __init__(self, account_sid, auth_token):
        super().__init__()
        self.account_sid = account_sid
        self.auth_token = auth_token

    def resource(self, kind, form):
        now = email.utils.formatdate(usegmt=True)
        prefix = "SM" if kind == "Messages" else "CA"
        sid = prefix + secrets.token_hex(16)
        uri = f"/{API_VERSION}/Accounts/{self.account_sid}/{kind}/{sid}.json"
        if kind == "Messages":
            service = form.get("MessagingServiceSid")
            body = {
                "account_sid": self.account_sid, "api_version": API_VERSION, "body": form.get("Body", ""),
                "date_created": now, "date_sent": None, "date_updated": now, "direction": "outbound-api",
                "error_code": None, "error_message": None, "from": form.get("From"),
                "messaging_service_sid": service, "num_media": "0", "num_segments": "1", "price": None,
                "price_unit": "USD", "sid": sid, "status": "accepted" if service else "queued",
                "subresource_uris": {"media": uri.replace(".json", "/Media.json")}, "to": form.get("To"), "uri": uri,
            }
        else:
            body = {
                "account_sid": self.account_sid, "annotation": None, "answered_by": None, "api_version": API_VERSION,
                "caller_name": None, "date_created": now, "date_updated": now, "direction": "outbound-api",
                "duration": None, "end_time": None, "forwarded_from": None, "from": form.get("From"),
                "from_formatted": form.get("From"), "group_sid": None, "parent_call_sid": None,
                "phone_number_sid": "PN" + secrets.token_hex(16), "price": None, "price_unit": "USD",
                "queue_time": "0", "sid": sid, "start_time": None, "status": "queued",
                "subresource_uris": {"notifications": uri.replace(".json", "/Notifications.json")},
                "to": form.get("To"), "to_formatted": form.get("To"), "trunk_sid": None, "uri": uri,
            }
        with self.lock:
            self.resources[sid] = {"kind": kind, "form": form}
        return body


class Handler(FakeHandler):
    content_type = "application/json; charset=utf-8"
    # How long Messages.json and Calls.json take to answer: the benchmarks measure a slow provider.
    answer_delay = 0.0
    not_found = error_body(404, 20404, "The requested resource was not found")

    def api(self, raw):
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) != 4 or parts[0] != API_VERSION or parts[1] != "Accounts" or parts[3] not in ("Messages.json", "Calls.json"):
            return self.answer(404, self.not_found)
        kind = parts[3][:-len(".json")]
        form = self.record(raw)
        if self.answer_delay:
            time.sleep(self.answer_delay)
        status, body = self.create(parts[2], kind, form)
        self.answer(status, body)

    def create(self, account, kind, form):
        expected = "Basic " + base64.b64encode(f"{self.fake.account_sid}:{self.fake.auth_token}".encode()).decode()
        if self.headers.get("Authorization") != expected or account != self.fake.account_sid:
            return 401, error_body(401, 20003, "Authenticate")
        if not self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
            return 400, error_body(400, 20001, "Invalid content type")
        failure = self.fake.next_failure(kind)
        if failure:
            return failure["status"], error_body(failure["status"], failure["code"], failure.get("message", "Error"))
        missing = self.missing(kind, form)
        if missing:
            return 400, error_body(400, *missing)
        to = form["To"].removeprefix("whatsapp:")
        if to in MAGIC_TO:
            code, message = MAGIC_TO[to]
            return 400, error_body(400, code, message.format(frm=form.get("From", "")))
        return 201, self.fake.resource(kind, form)

    @staticmethod
    def missing(kind, form):
        if "To" not in form:
            return 21604, "A 'To' phone number is required."
        if kind == "Messages":
            if "From" not in form and "MessagingServiceSid" not in form:
                return 21603, "A 'From' phone number is required."
            # The content is a Body, media, or a Content template (ContentSid with its variables).
            if not form.get("Body") and not form.get("MediaUrl") and not form.get("ContentSid"):
                return 21602, "Message body is required."
        else:
            if "From" not in form:
                return 21213, "Caller phone number is required"
            if "Twiml" not in form and "Url" not in form and "ApplicationSid" not in form:
                return 21205, "Url parameter is required"
        return None

    def callback(self, body):
        """Sends the status callback Twilio would, signed with the auth token (or, with
        `forge`, with another one) over the URL exactly as it was given."""
        with self.fake.lock:
            resource = self.fake.resources[body["sid"]]
        form = resource["form"]
        url = form["StatusCallback"]
        host = urllib.parse.urlsplit(url).hostname
        if host not in ("127.0.0.1", "localhost", "::1"):
            return {"status": None, "error": "the fake only calls back to loopback"}
        if resource["kind"] == "Messages":
            params = {"MessageSid": body["sid"], "MessageStatus": body["status"], "SmsSid": body["sid"],
                      "SmsStatus": body["status"], "AccountSid": self.fake.account_sid, "From": form.get("From", ""),
                      "To": form["To"], "ApiVersion": API_VERSION}
        else:
            params = {"CallSid": body["sid"], "CallStatus": body["status"], "AccountSid": self.fake.account_sid,
                      "From": form.get("From", ""), "To": form["To"], "ApiVersion": API_VERSION, "Direction": "outbound-api"}
        if body.get("error_code"):
            params["ErrorCode"] = str(body["error_code"])
        token = "forged-" + self.fake.auth_token if body.get("forge") else self.fake.auth_token
        request = urllib.request.Request(url, data=urllib.parse.urlencode(params).encode(), method="POST", headers={
            "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature(token, url, params),
            "User-Agent": "TwilioProxy/1.1"})
        try:
            with urllib.request.urlopen(request, timeout=5) as reply:
                return {"status": reply.status}
        except urllib.error.HTTPError as error:
            return {"status": error.code}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--account-sid", required=True)
    parser.add_argument("--auth-token", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay-ms", type=int, default=0, help="answer every send this much later")
    args = parser.parse_args()
    Handler.fake = Fake(args.account_sid, args.auth_token)
    Handler.answer_delay = args.delay_ms / 1000
    # Under load Tacit opens many connections at once; the default backlog of 5 would refuse some.
    ThreadingHTTPServer.request_queue_size = 256
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
