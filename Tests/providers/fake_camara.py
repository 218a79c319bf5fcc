"""A local CAMARA operator, written from the CAMARA documents (Number Verification 2.1.0,
SIM Swap 2.1.0 and the ICM security profile: OIDC authorization code with network-based
authentication, CIBA in poll mode, private_key_jwt client authentication).

* `GET /.well-known/openid-configuration`: the issuer's metadata.
* `GET /authorize`: redirects only to the registered redirect_uri; a code only for a device
  on the "cellular" range (127.0.0.2-127.0.0.254), otherwise `error=login_required`, as a
  `prompt=none` request that can't be authenticated is answered (OIDC Core 3.1.2.6).
* `POST /token`: the client assertion checked against the client's public keys (PyJWT: RS256 or ES256), then
  an authorization code (once, for its redirect_uri, with its PKCE verifier) or a CIBA request.
* `POST /bc-authorize`: CIBA for `login_hint=tel:+...`.
* `POST /api/number-verification/v2/verify`, `POST /api/sim-swap/v2/check`: bearer tokens,
  a Number Verification token answering once.

Control routes: `POST /_fake/register` {redirect_uri}, `/_fake/sim` {number}: what the SIM in
every cellular device holds (default: the number the sign-in named), `/_fake/swap` {number,
hours_ago}, `/_fake/ciba` {pending}: answers authorization_pending that many times first.
Listings: `GET /_fake/requests`, `/_fake/issued` (codes and tokens handed out)."""
import argparse
import base64
import hashlib
import ipaddress
import json
import secrets
import threading
import time
import urllib.parse
from http.server import ThreadingHTTPServer

import jwt

from fake_http import FakeHandler, FakeState

CELLULAR = (ipaddress.ip_address("127.0.0.2"), ipaddress.ip_address("127.0.0.254"))
NV_SCOPE = "number-verification:verify"
SWAP_SCOPE = "sim-swap:check"
CIBA = "urn:openid:params:grant-type:ciba"
ASSERTION = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"


class Operator(FakeState):
    kept = {"codes": dict, "tokens": dict, "ciba": dict, "swaps": dict, "settings": dict,
            "jtis": set, "issued": list}

    def __init__(self, client_id, public_keys):
        super().__init__()
        self.client_id, self.public_keys = client_id, public_keys
        # What the client registered outlives a reset, as a registration does.
        self.redirect_uris = []


def camara_error(status, code, message):
    return status, {"status": status, "code": code, "message": message}


class Handler(FakeHandler):
    listings = ("requests", "issued")
    not_found = {"status": 404, "code": "NOT_FOUND", "message": "The specified resource is not found."}

    @property
    def base(self):
        return f"http://{self.headers.get('Host')}"

    def do_GET(self):
        path, _, query = self.path.partition("?")
        if path == "/.well-known/openid-configuration":
            return self.answer(200, {
                "issuer": self.base, "authorization_endpoint": self.base + "/authorize", "token_endpoint": self.base + "/token",
                "backchannel_authentication_endpoint": self.base + "/bc-authorize",
                "grant_types_supported": ["authorization_code", CIBA], "backchannel_token_delivery_modes_supported": ["poll"],
                "token_endpoint_auth_methods_supported": ["private_key_jwt"], "code_challenge_methods_supported": ["S256"],
                "response_types_supported": ["code"], "scopes_supported": ["openid", NV_SCOPE, SWAP_SCOPE]})
        if path == "/authorize":
            return self.authorize(dict(urllib.parse.parse_qsl(query, keep_blank_values=True)))
        super().do_GET()

    def authorize(self, params):
        with self.fake.lock:
            self.fake.requests.append({"method": "GET", "path": "/authorize", "form": params, "client": self.client_address[0]})
            registered = params.get("redirect_uri") in self.fake.redirect_uris
        # Never redirect to a URI the client did not register (RFC 6749 4.1.2.1).
        if params.get("client_id") != self.fake.client_id or not registered:
            return self.answer(400, {"error": "invalid_request", "error_description": "unknown client or unregistered redirect_uri"})
        state = params.get("state")
        if (params.get("response_type") != "code" or NV_SCOPE not in params.get("scope", "").split()
                or params.get("code_challenge_method") != "S256" or not params.get("code_challenge")):
            return self.redirect(params["redirect_uri"], {"error": "invalid_request", "state": state})
        address = ipaddress.ip_address(self.client_address[0])
        if not CELLULAR[0] <= address <= CELLULAR[1]:
            return self.redirect(params["redirect_uri"], {"error": "login_required", "state": state})
        hint = params.get("login_hint", "")
        with self.fake.lock:
            sim = self.fake.settings.get("sim") or hint.removeprefix("tel:")
            code = secrets.token_urlsafe(24)
            self.fake.codes[code] = {"redirect_uri": params["redirect_uri"], "challenge": params["code_challenge"],
                                     "number": sim, "expires": time.time() + 60, "used": False}
            self.fake.issued.append(code)
        self.redirect(params["redirect_uri"], {"code": code, "state": state})

    def redirect(self, uri, params):
        query = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
        self.send_response(302)
        self.send_header("Location", uri + ("&" if "?" in uri else "?") + query)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def api(self, raw):
        path = self.path.partition("?")[0]
        if path in ("/token", "/bc-authorize"):
            form = self.record(raw)
            if not self.client_authenticated(form, self.base + path):
                return self.answer(401, {"error": "invalid_client"})
            return self.answer(*(self.token(form) if path == "/token" else self.backchannel(form)))
        with self.fake.lock:
            self.fake.requests.append({"method": "POST", "path": path, "raw": raw.decode(),
                                       "headers": {k.lower(): v for k, v in self.headers.items()}})
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return self.answer(*camara_error(400, "INVALID_ARGUMENT", "Client specified an invalid argument"))
        if path == "/api/number-verification/v2/verify":
            return self.answer(*self.verify(body))
        if path == "/api/sim-swap/v2/check":
            return self.answer(*self.sim_swap(body))
        self.answer(404, self.not_found)

    def client_authenticated(self, form, audience):
        """private_key_jwt (RFC 7523 2.2): signed by the client's key, for this endpoint, short-lived, its jti fresh."""
        if form.get("client_assertion_type") != ASSERTION or form.get("client_id", self.fake.client_id) != self.fake.client_id:
            return False
        claims = None
        for key in self.fake.public_keys:
            try:
                claims = jwt.decode(form.get("client_assertion", ""), key, algorithms=["RS256", "ES256"], audience=audience,
                                    issuer=self.fake.client_id, options={"require": ["exp", "iat", "jti", "sub"]})
                break
            except (jwt.PyJWTError, ValueError, TypeError):
                continue
        if claims is None:
            return False
        with self.fake.lock:
            if claims["sub"] != self.fake.client_id or claims["exp"] - claims["iat"] > 300 or claims["jti"] in self.fake.jtis:
                return False
            self.fake.jtis.add(claims["jti"])
        return True

    def token(self, form):
        grant = form.get("grant_type")
        if grant == "authorization_code":
            return self.redeem(form)
        if grant == CIBA:
            return self.ciba_token(form.get("auth_req_id"))
        return 400, {"error": "unsupported_grant_type"}

    def redeem(self, form):
        with self.fake.lock:
            code = self.fake.codes.get(form.get("code"))
            # A code works once (RFC 6749 4.1.2): the first attempt spends it, right or wrong.
            if not code or code["used"] or code["expires"] < time.time():
                return 400, {"error": "invalid_grant"}
            code["used"] = True
        challenge = base64.urlsafe_b64encode(hashlib.sha256(form.get("code_verifier", "").encode()).digest()).rstrip(b"=").decode()
        if form.get("redirect_uri") != code["redirect_uri"] or challenge != code["challenge"]:
            return 400, {"error": "invalid_grant"}
        return 200, self.issue({"scope": NV_SCOPE, "number": code["number"], "uses": 0}, 300)

    def issue(self, token, lifetime):
        value = secrets.token_urlsafe(32)
        with self.fake.lock:
            self.fake.tokens[value] = token
            self.fake.issued.append(value)
        return {"access_token": value, "token_type": "Bearer", "expires_in": lifetime}

    def backchannel(self, form):
        hint = form.get("login_hint", "")
        if not hint.startswith("tel:+") or SWAP_SCOPE not in form.get("scope", "").split():
            return 400, {"error": "invalid_request"}
        request_id = secrets.token_urlsafe(16)
        with self.fake.lock:
            self.fake.ciba[request_id] = {"number": hint.removeprefix("tel:"), "pending": self.fake.settings.get("pending", 0)}
        return 200, {"auth_req_id": request_id, "expires_in": 120, "interval": 1}

    def ciba_token(self, request_id):
        with self.fake.lock:
            request = self.fake.ciba.get(request_id)
            if not request:
                return 400, {"error": "invalid_grant"}
            if request["pending"] > 0:
                request["pending"] -= 1
                return 400, {"error": "authorization_pending"}
            del self.fake.ciba[request_id]
        return 200, self.issue({"scope": SWAP_SCOPE, "number": request["number"], "uses": 0}, 3600)

    def bearer(self, scope):
        header = self.headers.get("Authorization", "")
        with self.fake.lock:
            token = self.fake.tokens.get(header.removeprefix("Bearer ")) if header.startswith("Bearer ") else None
            if not token or token["scope"] != scope:
                return None
            token["uses"] += 1
            return dict(token)

    def verify(self, body):
        token = self.bearer(NV_SCOPE)
        # Number Verification tokens are single use.
        if not token or token["uses"] > 1:
            return camara_error(401, "UNAUTHENTICATED", "Request not authenticated due to missing, invalid, or expired credentials.")
        if ("phoneNumber" in body) == ("hashedPhoneNumber" in body):
            return camara_error(400, "INVALID_ARGUMENT", "Exactly one of phoneNumber and hashedPhoneNumber")
        device = token["number"]
        if "phoneNumber" in body:
            return 200, {"devicePhoneNumberVerified": body["phoneNumber"] == device}
        return 200, {"devicePhoneNumberVerified": body["hashedPhoneNumber"] == hashlib.sha256(device.encode()).hexdigest()}

    def sim_swap(self, body):
        token = self.bearer(SWAP_SCOPE)
        if not token:
            return camara_error(401, "UNAUTHENTICATED", "Request not authenticated due to missing, invalid, or expired credentials.")
        if body.get("phoneNumber", token["number"]) != token["number"]:
            return camara_error(403, "INVALID_TOKEN_CONTEXT", "phoneNumber is not consistent with access token.")
        max_age = body.get("maxAge", 240)
        if not isinstance(max_age, int) or not 1 <= max_age <= 2400:
            return camara_error(400, "OUT_OF_RANGE", "Client specified an invalid range.")
        with self.fake.lock:
            hours = self.fake.swaps.get(token["number"])
        return 200, {"swapped": hours is not None and hours <= max_age}

    def control(self, action, body):
        settings = {"register": lambda: self.fake.redirect_uris.append(body["redirect_uri"]),
                    "sim": lambda: self.fake.settings.update(sim=body["number"]),
                    "swap": lambda: self.fake.swaps.update({body["number"]: body["hours_ago"]}),
                    "ciba": lambda: self.fake.settings.update(pending=body["pending"])}
        if action not in settings:
            return super().control(action, body)
        with self.fake.lock:
            settings[action]()
        self.answer(200, {})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--public-key", action="append", required=True, help="a PEM file; RSA (RS256) or P-256 (ES256), repeatable")
    arguments = parser.parse_args()
    Handler.fake = Operator(arguments.client_id, [open(path).read() for path in arguments.public_key])
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"fake CAMARA operator on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
