"""CAMARA end to end over real HTTP: a non-dev `tacit serve` with CAMARA aimed at the fake
operator (fake_camara.py) and SMS at the fake Twilio, the device following its check URL
from the cellular address 127.0.0.2, or from 127.0.0.1 as Wi-Fi."""
import json
import urllib.parse

import jwt

from camara_support import CELLULAR, CLIENT_ID, WIFI, Device, camara_server
from conftest import Tacit, assert_start_refused, free_port, twilio_env


def start(tacit, number, sim_swap=None):
    body = {"phone_number": number, "workflow": [{"channel": "silent_auth"}, {"channel": "sms"}], "brand": "Acme"}
    if sim_swap:
        body["sim_swap"] = sim_swap
    status, started, _ = tacit.call("POST", "/v1/verifications", body)
    assert status == 202, started
    return started


def steps(tacit, request_id):
    return [s["status"] for s in tacit.call("GET", f"/v1/verifications/{request_id}")[1]["workflow"]]


def sms_to(fake, number):
    return [r for r in fake.requests() if r["path"].endswith("Messages.json") and r["form"]["To"] == number]


def labels(tacit, request_id):
    return [e["label"] for e in tacit.events(request_id)]


def at_callback(url):
    return urllib.parse.urlsplit(url).path == "/v1/silent/callback"


def test_a_device_on_the_operators_network_completes_with_nothing_typed(camara_tacit, camara_fake, fake):
    number = "+447400123401"
    started = start(camara_tacit, number)
    hops, _ = Device(CELLULAR).follow(started["check_url"])
    assert [status for _, status, _, _ in hops] == [302, 302, 200]
    authorize = urllib.parse.parse_qs(urllib.parse.urlsplit(hops[1][0]).query)
    assert authorize["redirect_uri"] == [camara_tacit.url + "/v1/silent/callback"]
    assert authorize["login_hint"] == ["tel:" + number] and authorize["prompt"] == ["none"]
    answer = json.loads(hops[-1][3])
    assert answer["request_id"] == started["request_id"]
    status, body, _ = camara_tacit.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": answer["code"]})
    assert status == 200 and body["status"] == "completed", body
    verdict = next(e for e in camara_tacit.events(started["request_id"]) if e["label"] == "silent_auth:provider_verdict")
    assert verdict["data"]["provider"] == "camara" and verdict["outcome"] == "success"
    assert not sms_to(fake, number)
    assert [r["path"] for r in camara_fake.requests() if r["path"] != "/authorize"] == [
        "/token", "/api/number-verification/v2/verify"]


def test_a_sim_holding_another_number_is_rejected_and_the_workflow_sends_the_sms(camara_tacit, camara_fake, fake):
    number = "+447400123402"
    camara_fake.control("sim", {"number": "+447400999999"})
    started = start(camara_tacit, number)
    hops, _ = Device(CELLULAR).follow(started["check_url"])
    assert hops[-1][1] == 403 and b"sim-mismatch" in hops[-1][3]
    assert steps(camara_tacit, started["request_id"]) == ["rejected", "active"]
    assert len(sms_to(fake, number)) == 1


def test_a_wifi_open_cannot_complete_and_falls_to_sms_as_device_not_cellular(camara_tacit, camara_fake, fake):
    number = "+447400123403"
    started = start(camara_tacit, number)
    hops, _ = Device(WIFI).follow(started["check_url"])
    assert "error=login_required" in hops[1][2]["Location"]
    assert hops[-1][1] == 403 and b"device-not-cellular" in hops[-1][3]
    assert steps(camara_tacit, started["request_id"]) == ["failed", "active"]
    assert len(sms_to(fake, number)) == 1
    assert not camara_fake.requests("/token"), "no code was issued, so none was redeemed"


def test_a_rewritten_redirect_uri_is_refused_by_the_operator_and_no_code_leaves(camara_tacit, camara_fake, fake):
    number = "+447400123404"
    started = start(camara_tacit, number)
    # The attacker opens the check URL from Wi-Fi, stops at the operator, and rewrites the redirect.
    attacker = Device(WIFI)
    status, headers, _ = attacker.get(started["check_url"])
    assert status == 302
    parts = urllib.parse.urlsplit(headers["Location"])
    query = dict(urllib.parse.parse_qsl(parts.query)) | {"redirect_uri": "http://127.0.0.1:9/steal"}
    rewritten = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))
    # The victim's phone opens it over cellular: the operator redirects nowhere.
    status, headers, _ = Device(CELLULAR).get(rewritten)
    assert status == 400 and "Location" not in headers
    assert not camara_fake.issued()
    assert steps(camara_tacit, started["request_id"])[0] == "active"


def test_a_replayed_code_is_refused_and_the_first_answer_stands(camara_tacit, camara_fake):
    number = "+447400123405"
    started = start(camara_tacit, number)
    device = Device(CELLULAR)
    _, callback = device.follow(started["check_url"], stop=at_callback)
    status, _, first = device.get(callback)
    assert status == 200
    status, _, again = device.get(callback)
    assert status == 403 and b"operator-answer-invalid" in again
    redemptions = camara_fake.requests("/token")
    assert len(redemptions) == 2, "the operator was asked, and refused the spent code"
    code = json.loads(first)["code"]
    status, body, _ = camara_tacit.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": code})
    assert status == 200 and body["status"] == "completed"


def test_a_code_from_another_flow_is_refused(camara_tacit, camara_fake):
    """The attacker's own flow yields a code; brought to the victim's callback with the
    victim's state (and the victim's cookie), it fails PKCE at the token endpoint."""
    victim = start(camara_tacit, "+447400123406")
    device = Device(CELLULAR)
    _, victim_callback = device.follow(victim["check_url"], stop=at_callback)
    other = start(camara_tacit, "+447400123407")
    _, other_callback = Device(CELLULAR).follow(other["check_url"], stop=at_callback)
    other_code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(other_callback).query))["code"]
    parts = urllib.parse.urlsplit(victim_callback)
    query = dict(urllib.parse.parse_qsl(parts.query)) | {"code": other_code}
    status, _, body = device.get(urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query))))
    assert status == 403 and b"operator-answer-invalid" in body
    assert steps(camara_tacit, victim["request_id"])[0] == "active"


def test_a_recent_sim_swap_blocks_and_an_old_one_only_flags_nothing(camara_tacit, camara_fake):
    swapped, clean = "+447400123408", "+447400123409"
    camara_fake.control("swap", {"number": swapped, "hours_ago": 2})
    blocked = start(camara_tacit, swapped, {"max_age_hours": 240, "action": "block"})
    assert blocked["status"] == "failed" and blocked["risk"]["sim_swapped"] is True
    assert "check_url" not in blocked or blocked["check_url"] is None
    pending = start(camara_tacit, clean, {"max_age_hours": 240, "action": "block"})
    assert pending["status"] == "pending" and pending["risk"]["sim_swapped"] is False
    hints = [r["form"]["login_hint"] for r in camara_fake.requests("/bc-authorize")]
    assert hints == ["tel:" + swapped, "tel:" + clean]


def test_a_sim_swap_flag_keeps_the_workflow_going_with_the_risk_set(camara_tacit, camara_fake):
    number = "+447400123410"
    camara_fake.control("swap", {"number": number, "hours_ago": 2})
    camara_fake.control("ciba", {"pending": 1})
    flagged = start(camara_tacit, number, {"max_age_hours": 24, "action": "flag"})
    assert flagged["status"] == "pending" and flagged["risk"]["sim_swapped"] is True and flagged["check_url"]
    assert len(camara_fake.requests("/token")) == 2, "polled again after authorization_pending"


def settings(fake, camara_fake, **change):
    env = twilio_env(fake.url) | camara_fake.env() | {"TACIT_SECRET": "x", "TACIT_PUBLIC_URL": "http://127.0.0.1:9"}
    return {k: v for k, v in (env | change).items() if v is not None}


def test_start_refuses_a_missing_setting_naming_it(binary, fake, camara_fake, tmp_path):
    for setting in ["TACIT_CAMARA_ISSUER", "TACIT_CAMARA_CLIENT_ID", "TACIT_CAMARA_PRIVATE_KEY_FILE", "TACIT_CAMARA_API_URL",
                    "TACIT_PUBLIC_URL"]:
        (tmp_path / setting).mkdir()
        assert_start_refused(binary, tmp_path / setting, settings(fake, camara_fake, **{setting: None}), setting,
                             (CLIENT_ID, camara_fake.key_file))


def test_start_refuses_an_unreadable_or_invalid_key_file_naming_the_setting_not_its_value(binary, fake, camara_fake, tmp_path):
    garbage = tmp_path / "garbage.key"
    garbage.write_text("-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n")
    key_line = open(camara_fake.key_file).read().splitlines()[1]
    for index, path in enumerate(["/nonexistent/camara.key", str(garbage)]):
        where = tmp_path / str(index)
        where.mkdir()
        assert_start_refused(binary, where, settings(fake, camara_fake, TACIT_CAMARA_PRIVATE_KEY_FILE=path),
                             "TACIT_CAMARA_PRIVATE_KEY_FILE", (path, "bm90IGEga2V5", key_line), by="config" if index else "environment")


def test_no_code_number_token_or_key_in_the_log_timeline_or_export(binary, fake, camara_fake):
    number = "+447400123411"
    server = camara_server(binary, fake, camara_fake)
    try:
        started = start(server, number, {"max_age_hours": 240, "action": "flag"})
        hops, _ = Device(CELLULAR).follow(started["check_url"])
        code = json.loads(hops[-1][3])["code"]
        assert server.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": code})[1]["status"] == "completed"
        timeline = str(server.events(started["request_id"]))
        export = str(server.call("GET", f"/v1/verifications/{started['request_id']}/timeline")[1])
    finally:
        server.stop()
    issued = camara_fake.issued()
    assertions = [r["form"]["client_assertion"] for r in camara_fake.requests() if "client_assertion" in r.get("form", {})]
    key_lines = open(camara_fake.key_file).read().splitlines()[1:-1]
    assert len(issued) == 3 and assertions
    for where, text in (("log", server.log()), ("timeline", timeline), ("export", export)):
        for secret in [code, number, number[1:], *issued, *assertions, *key_lines]:
            assert secret not in text, f"a secret ({secret[:4]}…) in the {where}"


def test_an_ec_key_signs_es256_assertions_the_operator_accepts(binary, fake, camara_fake):
    number = "+447400123412"
    server = camara_server(binary, fake, camara_fake, {"TACIT_CAMARA_PRIVATE_KEY_FILE": camara_fake.ec_key_file})
    try:
        started = start(server, number)
        hops, _ = Device(CELLULAR).follow(started["check_url"])
        assert hops[-1][1] == 200, hops[-1][3]
    finally:
        server.stop()
    assertion = camara_fake.requests("/token")[0]["form"]["client_assertion"]
    assert jwt.get_unverified_header(assertion)["alg"] == "ES256"


def test_in_dev_the_camara_adapter_completes_a_990_check_through_the_virtual_operators_code_flow(binary, fake, camara_fake):
    """`serve --dev` with CAMARA aimed at its own virtual operator: the device goes from
    Tacit's check link to the operator's authorize endpoint and back with a code, which
    Tacit redeems with its client assertion and spends on one Number Verification call."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = camara_fake.env() | {"TACIT_CAMARA_ISSUER": url + "/operator", "TACIT_CAMARA_API_URL": url + "/camara"}
    server = Tacit(binary, fake.url, env, serve_args=("--dev",), port=port)
    try:
        started = start(server, "+99012345670")
        hops, _ = Device(CELLULAR).follow(started["check_url"])
        assert [status for _, status, _, _ in hops] == [302, 302, 200], hops
        authorize = urllib.parse.urlsplit(hops[1][0])
        assert authorize.path == "/operator/authorize"
        query = urllib.parse.parse_qs(authorize.query)
        assert query["response_type"] == ["code"] and query["code_challenge_method"] == ["S256"]
        assert query["client_id"] == [CLIENT_ID] and query["redirect_uri"] == [url + "/v1/silent/callback"]
        assert "code=" in hops[1][2]["Location"] and "access_token" not in hops[1][2]["Location"]
        answer = json.loads(hops[-1][3])
        status, body, _ = server.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": answer["code"]})
        assert status == 200 and body["status"] == "completed", body
        verdict = next(e for e in server.events(started["request_id"]) if e["label"] == "silent_auth:provider_verdict")
        assert verdict["data"]["provider"] == "camara" and verdict["outcome"] == "success"
        # A device whose SIM holds another number, and one on Wi-Fi, move on to SMS.
        odd = start(server, "+99012345671")
        assert Device(CELLULAR).follow(odd["check_url"])[0][-1][1] == 403
        assert steps(server, odd["request_id"]) == ["rejected", "active"]
        wifi = start(server, "+99012345672")
        hops, _ = Device(WIFI).follow(wifi["check_url"])
        assert "error=login_required" in hops[1][2]["Location"] and hops[-1][1] == 403
        assert steps(server, wifi["request_id"]) == ["failed", "active"]
    finally:
        server.stop()
    assert not camara_fake.requests("/token"), "the fake operator was not asked: the virtual one answered"

