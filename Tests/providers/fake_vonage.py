"""A local stand-in for Vonage's SMS API (rest.nexmo.com), written from Vonage's public
docs and OpenAPI description (sms 1.5.1), standard library only. Run it as its own process:

    python3 fake_vonage.py --api-key KEY --api-secret SECRET --signature-secret SIG [--tls-dir DIR]

It prints `listening on http://127.0.0.1:PORT` once ready (and, with --tls-dir, a second
line `tls on https://127.0.0.1:PORT ca DIR/cert.pem`: Vonage's SDK speaks https only),
then serves on both:

* `POST /sms/json`: form-encoded, HTTP Basic with the API key and secret (or `api_key`
  and `api_secret` fields), answered 200 with `{"message-count", "messages": [...]}` as
  Vonage does, including its refusals (status 2 missing parameter, 3 invalid parameter,
  4 bad credentials), all in the same 200 envelope.
* Control routes under `/_fake/`: `GET /_fake/requests` (every request received: method,
  path, headers, form), `GET /_fake/messages` (the ids of accepted messages, oldest first), `POST /_fake/fail` (JSON `{http, status, times}`: the next requests
  get that HTTP status, or that SMS API status code in a 200), `POST /_fake/reset`, and
  `POST /_fake/callback` (JSON `{message_id, status, forge}`): sends the message's signed
  status report to the `callback` URL it was sent with, and answers with the status code
  that URL gave.
"""
import argparse
import base64
import datetime
import hashlib
import hmac
import json
import os
import secrets
import ssl
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The SMS API's refusals (x-errors in the OpenAPI description) by status code.
ERROR_TEXT = {
    "1": "Throttled", "2": "Missing Parameters", "3": "Invalid Parameters", "4": "Invalid Credentials",
    "5": "Internal Error", "6": "Invalid Message", "7": "Number Barred", "8": "Partner Account Barred",
    "9": "Partner Quota Violation", "10": "Too Many Existing Binds", "11": "Account Not Enabled For HTTP",
    "12": "Message Too Long", "14": "Invalid Signature", "15": "Invalid Sender Address",
    "22": "Invalid Network Code", "23": "Invalid Callback URL", "29": "Non-Whitelisted Destination",
    "32": "Signature And API Secret Disallowed", "33": "Number De-activated",
}


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def signed_jwt(secret, body, api_key):
    """The token Vonage puts in `Authorization: Bearer` on signed callbacks: HS256 over
    the signature secret, with the SHA-256 of the body as `payload_hash`."""
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = {"iat": int(time.time()), "jti": secrets.token_hex(16), "iss": "Vonage", "api_key": api_key,
              "payload_hash": hashlib.sha256(body).hexdigest()}
    payload = b64url(json.dumps(claims).encode())
    signature = hmac.new(secret.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{b64url(signature)}"


def envelope(message):
    return {"message-count": "1", "messages": [message]}


def refusal(status):
    return envelope({"status": status, "error-text": ERROR_TEXT.get(status, "Error")})


class Fake:
    def __init__(self, api_key, api_secret, signature_secret):
        self.api_key = api_key
        self.api_secret = api_secret
        self.signature_secret = signature_secret
        self.lock = threading.Lock()
        self.requests = []
        self.failures = []
        self.messages = {}

    def reset(self):
        with self.lock:
            self.requests.clear()
            self.failures.clear()
            self.messages.clear()

    def next_failure(self):
        with self.lock:
            if not self.failures:
                return None
            failure = self.failures[0]
            failure["times"] = failure.get("times", 1) - 1
            if failure["times"] <= 0:
                self.failures.pop(0)
            return failure

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


class Handler(BaseHTTPRequestHandler):
    fake: Fake = None
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        if self.path == "/_fake/requests":
            with self.fake.lock:
                return self.answer(200, list(self.fake.requests))
        if self.path == "/_fake/messages":
            with self.fake.lock:
                return self.answer(200, list(self.fake.messages))
        self.answer(404, {"type": "about:blank", "title": "Not Found"})

    def do_POST(self):
        raw = self.read_body()
        if self.path.startswith("/_fake/"):
            return self.control(self.path[len("/_fake/"):], json.loads(raw or b"{}"))
        if self.path.split("?")[0] != "/sms/json":
            return self.answer(404, {"type": "about:blank", "title": "Not Found"})
        form = dict(urllib.parse.parse_qsl(raw.decode(), keep_blank_values=True))
        with self.fake.lock:
            self.fake.requests.append({"method": "POST", "path": self.path, "form": form, "raw": raw.decode(),
                                       "headers": {k.lower(): v for k, v in self.headers.items()}})
        status, body = self.send_sms(form)
        self.answer(status, body)

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

    def control(self, action, body):
        if action == "reset":
            self.fake.reset()
            return self.answer(200, {})
        if action == "fail":
            with self.fake.lock:
                self.fake.failures.append(dict(body))
            return self.answer(200, {})
        if action == "callback":
            return self.answer(200, self.callback(body))
        self.answer(404, {})

    def callback(self, body):
        """Sends the message's status report, signed with the signature secret as Vonage
        signs callbacks (or, with `forge`, with another secret)."""
        with self.fake.lock:
            form = self.fake.messages[body["message_id"]]
        url = form["callback"]
        if urllib.parse.urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
            return {"status": None, "error": "the fake only calls back to loopback"}
        report = {"message_uuid": body["message_id"], "to": form["to"], "from": form["from"], "channel": "sms",
                  "timestamp": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                  "status": body["status"], "client_ref": form.get("client-ref"),
                  "usage": {"currency": "EUR", "price": "0.0333"}}
        if body.get("error_code"):
            report["error"] = {"type": "https://developer.vonage.com/api-errors/messages", "title": str(body["error_code"]),
                               "detail": "Undeliverable"}
        data = json.dumps(report).encode()
        secret = "forged-" + self.fake.signature_secret if body.get("forge") else self.fake.signature_secret
        request = urllib.request.Request(url, data=data, method="POST", headers={
            "Content-Type": "application/json", "Authorization": "Bearer " + signed_jwt(secret, data, self.fake.api_key)})
        try:
            with urllib.request.urlopen(request, timeout=5) as reply:
                return {"status": reply.status}
        except urllib.error.HTTPError as error:
            return {"status": error.code}


def tls_server(directory):
    """A second listener with a self-signed certificate for 127.0.0.1 made here."""
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    return server, cert


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--api-secret", required=True)
    parser.add_argument("--signature-secret", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls-dir")
    args = parser.parse_args()
    Handler.fake = Fake(args.api_key, args.api_secret, args.signature_secret)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    if args.tls_dir:
        tls, cert = tls_server(args.tls_dir)
        threading.Thread(target=tls.serve_forever, daemon=True).start()
        print(f"tls on https://127.0.0.1:{tls.server_address[1]} ca {cert}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
