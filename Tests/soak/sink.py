"""The soak's webhook receiver: verifies every delivery with the official
standardwebhooks library, against each of the server's secrets."""
import base64, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook

SECRETS = ["whsec_" + base64.b64encode(bytes([i]) * 32).decode() for i in (3, 5)]


class Sink(ThreadingHTTPServer):
    """Receives webhooks and verifies every one with the official standardwebhooks library."""
    daemon_threads = True
    # The server delivers up to 16 webhooks at once, and more after a restart: the default
    # backlog of 5 drops connection attempts, and a delivery that times out backs off.
    request_queue_size = 128

    def __init__(self):
        super().__init__(("127.0.0.1", 0), SinkHandler)
        self.lock = threading.Lock()
        self.received = []   # (webhook-id, type, request_id)
        self.bad = []


class SinkHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        body = self.rfile.read(length)
        headers = {k.lower(): v for k, v in self.headers.items()}
        if len(body) < length:  # the sender was killed mid-request: nothing was delivered
            return
        try:
            for secret in SECRETS:  # each secret must verify on its own (rotation)
                payload = Webhook(secret).verify(body, headers)
            with self.server.lock:
                self.server.received.append((headers["webhook-id"], payload["type"], payload["data"]["request_id"]))
            self.send_response(204)
        except Exception as error:  # a bad signature is an invariant failure, not a retry
            with self.server.lock:
                self.server.bad.append(repr(error))
            self.send_response(400)
        self.end_headers()

    def log_message(self, *args):
        pass
