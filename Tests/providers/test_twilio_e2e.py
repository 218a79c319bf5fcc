"""End to end over real HTTP: a non-dev `tacit serve` with an API key, Twilio aimed at the
fake Twilio process, the code read from what the fake received. Failover between two
providers within one step is tested in Swift (TwilioFlowTests, ProviderRouterTests),
since Twilio is the only real provider so far."""
import re
import subprocess

import pytest

from conftest import ACCOUNT_SID, AUTH_TOKEN, FROM, Tacit, assert_start_refused, twilio_env


def last_request(fake, resource="Messages.json"):
    requests = [r for r in fake.requests() if r["path"].endswith(resource)]
    assert requests, fake.requests()
    return requests[-1]


def sms_code(request):
    return re.findall(r"\d+", request["form"]["Body"])[-1]


def voice_code(request):
    spoken = re.search(r"code is: ([\d, ]+)\.", request["form"]["Twiml"]).group(1)
    return spoken.replace(", ", "")


def check(tacit, request_id, code):
    status, body, _ = tacit.call("POST", f"/v1/verifications/{request_id}/check", {"code": code})
    assert status == 200, body
    return body["status"]


def step_reason(tacit, request_id, channel):
    """The reason the timeline gives for the channel's step ending."""
    ended = [e for e in tacit.events(request_id) if e.get("channel") == channel and e["source"] == "server"
             and "reason" in e["data"]]
    return ended[-1]["data"]["reason"]


def labels(tacit, request_id):
    return [e["label"] for e in tacit.events(request_id)]


@pytest.mark.parametrize("number", ["+447400123456", "+12015550123"])
def test_an_sms_code_sent_through_twilio_checks_to_completed(tacit, fake, number):
    request_id = tacit.start(number, ["sms"])
    sent = last_request(fake)
    assert sent["form"]["To"] == number
    assert sent["form"]["From"] == FROM
    assert sent["form"]["StatusCallback"] == f"{tacit.url}/v1/callbacks/twilio?ref={request_id}:0"
    assert "Acme" in sent["form"]["Body"]
    assert check(tacit, request_id, sms_code(sent)) == "completed"
    accepted = next(e for e in tacit.events(request_id) if e["label"] == "provider:accepted")
    assert accepted["source"] == "provider"
    assert accepted["data"]["provider"] == "twilio"
    assert re.fullmatch(r"SM[0-9a-f]{32}", accepted["data"]["message_id"])


def test_a_voice_code_is_read_from_the_twiml_twice_and_checks_to_completed(tacit, fake):
    request_id = tacit.start("+447400123460", ["voice"])
    call = last_request(fake, "Calls.json")
    twiml = call["form"]["Twiml"]
    assert twiml.startswith('<Response><Say language="en-US">') and twiml.endswith("</Say></Response>")
    code = voice_code(call)
    assert twiml.count(", ".join(code)) == 2
    assert check(tacit, request_id, code) == "completed"


def test_a_voice_code_in_a_german_locale_is_spoken_by_a_german_voice(tacit, fake):
    status, body, _ = tacit.call("POST", "/v1/verifications", {
        "phone_number": "+447400123461", "workflow": [{"channel": "voice"}], "locale": "de-de", "brand": "Acme"})
    assert status == 202, body
    twiml = last_request(fake, "Calls.json")["form"]["Twiml"]
    assert '<Say language="de-DE">' in twiml and "Bestätigungscode" in twiml
    assert tacit.call("DELETE", f"/v1/verifications/{body['request_id']}")[0] == 204


def test_a_whatsapp_code_goes_to_the_whatsapp_address_and_checks_to_completed(tacit, fake):
    request_id = tacit.start("+447400123462", ["whatsapp"])
    sent = last_request(fake)
    assert (sent["form"]["To"], sent["form"]["From"]) == ("whatsapp:+447400123462", "whatsapp:" + FROM)
    assert check(tacit, request_id, sms_code(sent)) == "completed"


def test_a_signed_status_callback_lands_on_the_timeline_and_a_forged_one_changes_nothing(tacit, fake):
    request_id = tacit.start("+447400123463", ["sms", "voice"])
    sid = next(e for e in tacit.events(request_id) if e["label"] == "provider:accepted")["data"]["message_id"]
    before = tacit.events(request_id)
    assert fake.callback(sid, "undelivered", error_code=30003, forge=True) == 401
    assert tacit.events(request_id) == before
    assert tacit.call("GET", f"/v1/verifications/{request_id}")[1]["workflow"][0]["status"] == "active"

    assert fake.callback(sid, "sent") == 204
    progress = [e for e in tacit.events(request_id) if e["label"] == "provider:status"]
    assert [(e["source"], e["data"]["status"], e["data"]["message_id"]) for e in progress] == [("provider", "sent", sid)]
    assert fake.callback(sid, "delivered") == 204
    delivered = [e for e in tacit.events(request_id) if e["label"] == "provider:delivered"]
    assert len(delivered) == 1
    assert delivered[0]["source"] == "provider"
    assert (delivered[0]["data"]["provider"], delivered[0]["data"]["message_id"]) == ("twilio", sid)
    assert tacit.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


def test_an_undelivered_receipt_fails_over_to_the_next_step_at_once(tacit, fake):
    request_id = tacit.start("+447400123464", ["sms", "voice"])
    sid = next(e for e in tacit.events(request_id) if e["label"] == "provider:accepted")["data"]["message_id"]
    assert fake.callback(sid, "undelivered", error_code=30003) == 204
    workflow = tacit.call("GET", f"/v1/verifications/{request_id}")[1]["workflow"]
    assert [s["status"] for s in workflow] == ["failed", "active"]
    failed = next(e for e in tacit.events(request_id) if e["label"] == "provider:failed")
    assert (failed["data"]["message_id"], failed["data"]["error_code"]) == (sid, 30003)
    call = last_request(fake, "Calls.json")
    assert check(tacit, request_id, voice_code(call)) == "completed"


def test_a_permanent_twilio_error_fails_the_step_with_its_reason(tacit, fake):
    fake.fail(400, 21211, "The 'To' number +447400123465 is not a valid phone number.", resource="Messages")
    request_id = tacit.start("+447400123465", ["sms", "voice"])
    state = tacit.call("GET", f"/v1/verifications/{request_id}")[1]
    assert [s["status"] for s in state["workflow"]] == ["failed", "active"]
    assert step_reason(tacit, request_id, "sms") == "invalid_number"
    refused = next(e for e in tacit.events(request_id) if e["label"] == "provider:refused")
    assert (refused["source"], refused["data"]["error_code"], refused["data"]["reason"]) == ("provider", 21211, "invalid_number")
    assert "7400123465" not in refused["note"]
    assert tacit.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


def test_a_twilio_500_with_no_other_provider_fails_the_step_over_to_the_next(tacit, fake):
    fake.fail(500, 20500, "Internal Server Error", resource="Messages")
    request_id = tacit.start("+447400123466", ["sms", "voice"])
    state = tacit.call("GET", f"/v1/verifications/{request_id}")[1]
    assert [s["status"] for s in state["workflow"]] == ["failed", "active"]
    assert step_reason(tacit, request_id, "sms") == "provider_error"
    assert "provider:failed" in labels(tacit, request_id)
    assert check(tacit, request_id, voice_code(last_request(fake, "Calls.json"))) == "completed"


@pytest.mark.parametrize("change,setting", [
    ({"TACIT_ROUTE_SMS": "twilio,vonage"}, "TACIT_ROUTE_SMS"),
    ({"TACIT_TWILIO_AUTH_TOKEN": ""}, "TACIT_TWILIO_AUTH_TOKEN"),
    ({"TACIT_TWILIO_ACCOUNT_SID": ""}, "TACIT_TWILIO_ACCOUNT_SID"),
    ({"TACIT_TWILIO_FROM": ""}, "TACIT_TWILIO_FROM"),
    ({"TACIT_TWILIO_API_URL": "not a url"}, "TACIT_TWILIO_API_URL"),
    ({"TACIT_ROUTE_SMS_GBR": "twilio"}, "TACIT_ROUTE_SMS_GBR"),
])
@pytest.mark.parametrize("by", ["environment", "config"])
def test_start_up_checks_exit_2_naming_the_setting_never_its_value(binary, fake, tmp_path, change, setting, by):
    settings = twilio_env(fake.url) | {"TACIT_SECRET": "x"} | change
    assert_start_refused(binary, tmp_path, settings, setting, (AUTH_TOKEN, ACCOUNT_SID, FROM, fake.url), by)


def test_no_code_full_number_or_auth_token_in_the_servers_log_timeline_or_export(binary, fake):
    number = "+447400123467"
    server = Tacit(binary, fake.url)
    try:
        request_id = server.start(number, ["sms", "voice"])
        first = sms_code(last_request(fake))
        sid = next(e for e in server.events(request_id) if e["label"] == "provider:accepted")["data"]["message_id"]
        assert fake.callback(sid, "undelivered", error_code=30005) == 204
        second = voice_code(last_request(fake, "Calls.json"))
        wrong = "000000" if second != "000000" else "111111"
        assert server.call("POST", f"/v1/verifications/{request_id}/check", {"code": wrong})[0] == 400
        assert check(server, request_id, second) == "completed"
        timeline = str(server.events(request_id))
        export = str(server.call("GET", f"/v1/verifications/{request_id}/timeline")[1])
    finally:
        server.stop()
    log = server.log()
    for where, text in (("log", log), ("timeline", timeline), ("export", export)):
        for secret in (first, second, number, number[1:], AUTH_TOKEN):
            assert secret not in text, f"{secret!r} in the {where}"


def test_a_german_sms_carries_the_autofill_lines_last_and_its_alphabet_and_parts_reach_the_timeline(binary, fake):
    # The application's SMS Retriever hash and origin, set from the command line before its
    # first start; the body Twilio receives ends with the hash line, then `@origin #code`.
    server = Tacit(binary, fake.url)
    try:
        subprocess.run([binary, "apps", "set", "default", "--sms-app-hash", "FA+9qCX9VSu", "--sms-origin",
                        "shop.example", "--db", server.db], env=server.env, capture_output=True, text=True,
                       timeout=30, check=True)
        status, body, _ = server.call("POST", "/v1/verifications", {
            "phone_number": "+4915112345670", "workflow": [{"channel": "sms"}], "brand": "Acme"})
        assert status == 202, body
        lines = last_request(fake)["form"]["Body"].split("\n")
        code = re.findall(r"\d+", lines[0])[-1]
        assert "Code" in lines[0] and lines[-2] == "FA+9qCX9VSu" and lines[-1] == f"@shop.example #{code}", lines
        sent = next(e for e in server.events(body["request_id"]) if e["label"] == "sms:code_sent")
        assert sent["data"]["locale"] == "de" and sent["data"]["encoding"] == "GSM-7" and sent["data"]["segments"] == 1
        assert check(server, body["request_id"], code) == "completed"
    finally:
        server.stop()
