"""Silent authentication through tru.ID and Twilio Verify SNA, end to end: a non-dev
`tacit serve` routes each silent step across the two fakes (each its own process), the
device opens the provider's check URL from the cellular or the Wi-Fi address, and the
check Tacit makes with the provider decides. A coverage miss falls through to the next
silent provider, then to SMS (the fake Twilio Messaging). Nothing secret reaches a log
line or an event."""
import json
import re

import pytest

from cellular import WIFI, open_check_url
from conftest import AUTH_TOKEN, assert_start_refused, twilio_env
from silent_support import BASE, CLIENT_ID, CLIENT_SECRET, routed, truid, twilio_gb, verify  # noqa: F401


def start(tacit, number, sim_swap=None):
    body = {"phone_number": number, "brand": "Acme", "workflow": [{"channel": "silent_auth"}, {"channel": "sms"}]}
    if sim_swap:
        body["sim_swap"] = sim_swap
    status, body, _ = tacit.call("POST", "/v1/verifications", body)
    assert status == 202, body
    return body


def labels(tacit, request_id):
    return [(e["label"], e["data"].get("provider")) for e in tacit.events(request_id)]


def assert_nothing_secret(tacit, request_id, *extra):
    text = json.dumps(tacit.events(request_id)) + tacit.log()
    for value in (CLIENT_SECRET, AUTH_TOKEN, *extra):
        assert value not in text
    assert not re.search(r"\+?4474001234\d\d", text), "a full phone number reached an event or the log"


def test_truid_match_completes_with_nothing_typed(routed, truid):
    started = start(routed, BASE + "56")
    assert started["check_url"].startswith(truid.url + "/subscriber_check/v0.2/checks/")
    status, end = open_check_url(started["check_url"])
    assert status == 200 and set(end) == {"check_id", "code"}
    status, body, _ = routed.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": end["code"]})
    assert (status, body["status"]) == (200, "completed"), body
    state = routed.call("GET", f"/v1/verifications/{started['request_id']}")[1]
    assert state["risk"]["sim_swapped"] is False
    hops = labels(routed, started["request_id"])
    assert ("provider:challenge_issued", "truid") in hops
    assert ("silent_auth:provider_verdict", "truid") in hops
    patch = [r for r in truid.listing("requests") if r["method"] == "PATCH"][-1]
    assert patch["path"] == f"/subscriber_check/v0.2/checks/{end['check_id']}"
    assert json.loads(patch["body"]) == [{"op": "add", "path": "/code", "value": end["code"]}]
    assert_nothing_secret(routed, started["request_id"], end["code"], *truid.listing("issued"))


def test_truid_sim_change_sets_the_risk_flag(routed):
    started = start(routed, BASE + "96")
    _, end = open_check_url(started["check_url"])
    status, body, _ = routed.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": end["code"]})
    assert status == 200, body
    assert routed.call("GET", f"/v1/verifications/{started['request_id']}")[1]["risk"]["sim_swapped"] is True


def test_truid_checks_the_sim_swap_window_asked_for(routed, truid):
    """The SIM of a ...96 number changed 2 hours ago: a 1-hour window must not block it, a
    3-hour one must; tru.ID is sent the window as `period` in minutes, and the timeline says
    which window it checked."""
    for hours, blocked in ((1, False), (3, True)):
        started = start(routed, BASE + "96", {"max_age_hours": hours, "action": "block"})
        create = [r for r in truid.listing("requests") if r["method"] == "POST"][-1]
        assert json.loads(create["body"])["period"] == hours * 60
        _, end = open_check_url(started["check_url"])
        status, body, _ = routed.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": end["code"]})
        state = routed.call("GET", f"/v1/verifications/{started['request_id']}")[1]
        assert state["risk"]["sim_swapped"] is blocked
        assert state["status"] == ("failed" if blocked else "completed"), (hours, status, body)
        verdict = next(e for e in routed.events(started["request_id"]) if e["label"] == "silent_auth:provider_verdict")
        assert verdict["data"]["sim_change_window_minutes"] == hours * 60
        assert verdict["data"]["sim_changed"] is blocked
        assert f"within the last {hours * 60} minutes" in verdict["note"]


def test_truid_mismatch_moves_on_to_sms(routed, fake):
    started = start(routed, BASE + "57")
    _, end = open_check_url(started["check_url"])
    status, body, _ = routed.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": end["code"]})
    assert (status, body["type"]) == (403, "sim-mismatch")
    state = routed.call("GET", f"/v1/verifications/{started['request_id']}")[1]
    assert state["channel"] == "sms"
    assert [s["status"] for s in state["workflow"]] == ["rejected", "active"]
    assert any(r["form"]["To"] == BASE + "57" for r in fake.requests())
    routed.call("DELETE", f"/v1/verifications/{started['request_id']}")


def test_truid_wifi_is_refused_by_the_provider(routed):
    started = start(routed, BASE + "54")
    status, body = open_check_url(started["check_url"], source=WIFI)
    assert status == 412 and body["type"].endswith("#not_mobile_ip")
    routed.call("DELETE", f"/v1/verifications/{started['request_id']}")


def test_a_coverage_miss_falls_through_to_twilio_sna(routed, verify):
    started = start(routed, BASE + "88")
    assert started["check_url"].startswith(verify.url + "/sna/")
    hops = [e for e in routed.events(started["request_id"]) if e["label"].startswith("provider:")]
    assert [(e["label"], e["data"]["provider"]) for e in hops] == [("provider:failed_over", "truid"),
                                                                  ("provider:challenge_issued", "twilio")]
    assert hops[0]["data"]["reason"] == "no_coverage" and hops[0]["data"]["next_provider"] == "twilio"
    status, text = open_check_url(started["check_url"], method="POST")
    assert status == 200 and text.startswith("ErrorCode=0")
    status, body, _ = routed.call("POST", f"/v1/verifications/{started['request_id']}/check", {})
    assert (status, body["status"]) == (200, "completed"), body


def test_no_silent_coverage_anywhere_starts_on_sms(routed, fake):
    started = start(routed, BASE + "98")
    assert "check_url" not in started and started["channel"] == "sms"
    hops = [(e["label"], e["data"].get("provider")) for e in routed.events(started["request_id"]) if e["label"].startswith("provider:")]
    assert hops[:2] == [("provider:failed_over", "truid"), ("provider:failed", "twilio")]
    assert any(r["form"]["To"] == BASE + "98" for r in fake.requests())
    routed.call("DELETE", f"/v1/verifications/{started['request_id']}")


def test_twilio_sna_match_through_the_country_route(twilio_gb, verify):
    started = start(twilio_gb, BASE + "52")
    assert started["check_url"].startswith(verify.url + "/sna/")
    status, _ = open_check_url(started["check_url"])
    assert status == 200
    status, body, _ = twilio_gb.call("POST", f"/v1/verifications/{started['request_id']}/check", {})
    assert (status, body["status"]) == (200, "completed"), body
    check = [r for r in verify.listing("requests") if r["path"].endswith("/VerificationCheck")][-1]
    assert check["form"] == {"To": BASE + "52"}
    assert_nothing_secret(twilio_gb, started["request_id"])


def test_twilio_sna_mismatch_and_wifi_move_on_to_sms(twilio_gb):
    for number, source, reason in ((BASE + "53", "127.0.0.2", "sim-mismatch"), (BASE + "50", WIFI, "device-not-cellular")):
        started = start(twilio_gb, number)
        open_check_url(started["check_url"], source=source)
        status, body, _ = twilio_gb.call("POST", f"/v1/verifications/{started['request_id']}/check", {})
        assert (status, body["type"]) == (403, reason)
        assert twilio_gb.call("GET", f"/v1/verifications/{started['request_id']}")[1]["channel"] == "sms"
        twilio_gb.call("DELETE", f"/v1/verifications/{started['request_id']}")


@pytest.mark.parametrize("settings,setting", [
    ({"TACIT_TRUID_CLIENT_ID": CLIENT_ID}, "TACIT_TRUID_CLIENT_SECRET"),
    ({"TACIT_TRUID_CLIENT_SECRET": CLIENT_SECRET}, "TACIT_TRUID_CLIENT_ID"),
    ({"TACIT_TRUID_CLIENT_ID": CLIENT_ID, "TACIT_TRUID_CLIENT_SECRET": CLIENT_SECRET, "TACIT_TRUID_URL": "ftp://x"}, "TACIT_TRUID_URL"),
    ({"TACIT_TWILIO_VERIFY_SERVICE_SID": "VA-not-a-sid"}, "TACIT_TWILIO_VERIFY_SERVICE_SID"),
    ({"TACIT_ROUTE_SILENT_AUTH": "camara"}, "TACIT_ROUTE_SILENT_AUTH"),
])
def test_start_up_refuses_a_bad_silent_setting(binary, tmp_path, settings, setting):
    env = twilio_env("http://127.0.0.1:9") | {"TACIT_SECRET": "provider-tests-secret"} | settings
    assert_start_refused(binary, tmp_path, env, setting, [CLIENT_SECRET, AUTH_TOKEN])
