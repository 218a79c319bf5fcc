"""The silent providers the silent-providers benchmark runs flows through (see
silent_providers.py): for each, the fakes it needs, the server's settings for it, a
number its fake completes and what its check sends; and the timed, keep-alive client the
app and the device use. One more adapter is one more entry in ADAPTERS."""
import http.client
import json
import os
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Tests", "providers"))
from benchlib import Server  # noqa: E402
import conftest  # noqa: E402  (first: it imports the support modules that import it)
import camara_support  # noqa: E402
import silent_support  # noqa: E402
import vonage_verify_support  # noqa: E402

CELLULAR = "127.0.0.2"

# One address starting hundreds of verifications a second would meet the per-address limit.
LIMITS = ("--rate-requests-per-key", "100000000/60", "--rate-verifications-per-ip", "100000000/3600")


class Timed:
    """Keep-alive connections per (source, host), each request timed; cookies per host."""

    def __init__(self, source, headers=None):
        self.source, self.headers, self.connections, self.cookies = source, headers or {}, {}, {}

    def request(self, method, url, body=None):
        parts = urllib.parse.urlsplit(url)
        connection = self.connections.get(parts.netloc)
        if connection is None:
            connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10, source_address=(self.source, 0))
            self.connections[parts.netloc] = connection
        headers = dict(self.headers)
        jar = self.cookies.setdefault(parts.netloc, {})
        if jar:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in jar.items())
        if body is not None:
            headers["Content-Type"] = "application/json"
        begin = time.perf_counter()
        connection.request(method, parts.path + ("?" + parts.query if parts.query else ""), body=body, headers=headers)
        reply = connection.getresponse()
        data = reply.read()
        spent = time.perf_counter() - begin
        if reply.getheader("Connection", "").lower() == "close":
            connection.close()
            del self.connections[parts.netloc]
        for cookie in reply.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            jar[name.strip()] = rest.split(";")[0]
        return reply.status, data, reply.getheader("Location"), spent


class Adapter:
    """One silent provider: the fakes it needs, the server's settings for it, a number the
    fake completes, and the check's body from the device's last answer."""
    name = ""
    outbound = 0  # Tacit's own calls to the fake per flow, for the printed note.

    def start(self):
        pass

    def env(self):
        """The server's settings for this provider (variables, as `tacit serve` reads them)."""
        return {}

    def server(self, binary):
        """`tacit serve --dev` with the provider's settings: dev keeps the virtual operator for
        +990 numbers and routes every other number to the configured providers. Its port is
        chosen first, since the public URL (CAMARA's redirect URI) must name it."""
        port = conftest.free_port()
        saved = dict(os.environ)
        os.environ.update(self.env() | {"TACIT_PUBLIC_URL": f"http://127.0.0.1:{port}"})
        try:
            return Server(binary=binary, extra=["--port", str(port), *LIMITS]).start()
        finally:
            os.environ.clear()
            os.environ.update(saved)

    def number(self, index):
        """A distinct UK mobile per index, spread as Benchmarks/lua/create_uk.lua spreads them
        (one per 100-block, 25 per 10,000-block) so the sequential-number guard lets every
        start through; ending in 02, which the tru.ID and Twilio fakes answer as a match with
        no SIM change, and Verify's as a SIM that holds the number (an even last digit)."""
        return "+4474%d%03d%02d02" % (1 + (index // 25000) % 9, index % 1000, (index // 1000) % 25)

    def check_body(self, status, data):
        return {"code": json.loads(data)["code"]}

    def stop(self):
        pass


class TruID(Adapter):
    name, outbound = "truid", 2  # the check's create and its PATCH; the token is kept

    def start(self):
        self.fake = silent_support.Fake("fake_truid.py", "--client-id", silent_support.CLIENT_ID,
                                        "--client-secret", silent_support.CLIENT_SECRET)

    def env(self):
        return {"TACIT_TRUID_CLIENT_ID": silent_support.CLIENT_ID, "TACIT_TRUID_CLIENT_SECRET": silent_support.CLIENT_SECRET,
                "TACIT_TRUID_URL": self.fake.url, "TACIT_ROUTE_SILENT_AUTH": "truid"}

    def stop(self):
        self.fake.stop()


class TwilioSNA(Adapter):
    name, outbound = "twilio", 2  # the SNA verification's create and its VerificationCheck

    def start(self):
        self.fake = silent_support.Fake("fake_twilio_verify.py", "--account-sid", conftest.ACCOUNT_SID,
                                        "--auth-token", conftest.AUTH_TOKEN, "--service-sid", silent_support.SERVICE_SID)

    def env(self):
        return conftest.twilio_env("http://127.0.0.1:9") | {
            "TACIT_TWILIO_VERIFY_SERVICE_SID": silent_support.SERVICE_SID, "TACIT_TWILIO_VERIFY_URL": self.fake.url,
            "TACIT_ROUTE_SILENT_AUTH": "twilio"}

    def check_body(self, status, data):
        return {}

    def stop(self):
        self.fake.stop()


class CAMARA(Adapter):
    name, outbound = "camara", 2  # the code's redemption at /token and the verify call

    def start(self):
        self.fake = camara_support.FakeCamara()

    def env(self):
        return self.fake.env() | {"TACIT_ROUTE_SILENT_AUTH": "camara"}

    def server(self, binary):
        server = super().server(binary)
        self.fake.control("register", {"redirect_uri": server.url + "/v1/silent/callback"})
        return server

    def stop(self):
        self.fake.stop()


class VonageVerify(Adapter):
    """Verify v2's silent authentication: the check URL is Verify's own, so the device's every
    hop is at the fake, which ends with Vonage's `{request_id, code}`; the code goes back
    through Tacit's check, which Tacit redeems at Verify. The application's JWT is signed
    inside Tacit for each call and costs no request."""
    name, outbound = "vonage", 2  # the silent request's POST /v2/verify and the code's POST /v2/verify/{id}

    def start(self):
        self.fake = vonage_verify_support.FakeVerify()

    def env(self):
        return vonage_verify_support.verify_env(self.fake)

    def check_body(self, status, data):
        # As the e2e test reads it: anything but Verify's 200 with a code is a failed flow, named.
        if status != 200:
            raise RuntimeError(f"vonage: the device's last hop answered {status}: {data[:200]!r}")
        return super().check_body(status, data)

    def stop(self):
        self.fake.stop()


class Virtual(Adapter):
    """The virtual operator inside `tacit serve --dev`: every hop is Tacit's own."""
    name = "virtual"

    def number(self, index):
        return "+990%07d0" % (index % 10000000)


ADAPTERS = {adapter.name: adapter for adapter in (TruID(), TwilioSNA(), CAMARA(), VonageVerify(), Virtual())}
