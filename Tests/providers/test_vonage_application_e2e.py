"""End to end over real HTTP: a non-dev `tacit serve` with an API key, WhatsApp and voice
routed to Vonage as a Vonage application (RS256 JWTs the fake checks with the public key),
the code read from what the fake received; signed status and call events land on the
timeline and in the engine, forged ones change nothing, and nothing secret reaches the log,
the timeline or the export."""
import re
import subprocess

import pytest

from conftest import Tacit, assert_start_refused, twilio_env
from vonage_support import API_SECRET, SIGNATURE_SECRET, TEMPLATE, VOICE_FROM, WHATSAPP_FROM, vonage_application_env


def application_server(binary, fake, vonage_fake):
    return Tacit(binary, fake.url, vonage_application_env(vonage_fake)
                 | {"TACIT_ROUTE_WHATSAPP": "vonage", "TACIT_ROUTE_VOICE": "vonage"})


@pytest.fixture(scope="module")
def app_server(binary, fake, vonage_fake):
    server = application_server(binary, fake, vonage_fake)
    yield server
    server.stop()


def last(vonage_fake, path):
    requests = [r for r in vonage_fake.requests() if r["path"].startswith(path)]
    assert requests, f"Vonage received nothing at {path}"
    assert requests[-1]["jwt_verified"], "Tacit's application JWT did not verify at the fake"
    return requests[-1]["json"]


def spoken_code(call):
    text = call["ncco"][0]["text"]
    return re.search(r"code is: ([\d, ]+)\.", text).group(1).replace(", ", "")


def check(server, request_id, code):
    status, body, _ = server.call("POST", f"/v1/verifications/{request_id}/check", {"code": code})
    assert status == 200, body
    return body["status"]


def workflow(server, request_id):
    return [s["status"] for s in server.call("GET", f"/v1/verifications/{request_id}")[1]["workflow"]]


def hops(server, request_id):
    return [e for e in server.events(request_id) if e["source"] == "provider"]


def test_a_whatsapp_template_through_vonage_checks_to_completed(app_server, vonage_fake):
    request_id = app_server.start("+447400123491", ["whatsapp"])
    sent = last(vonage_fake, "/v1/messages")
    assert (sent["to"], sent["from"], sent["template"]["name"]) == ("447400123491", WHATSAPP_FROM, TEMPLATE)
    assert sent["client_ref"] == f"{request_id}:0"
    assert sent["webhook_url"] == f"{app_server.url}/v1/callbacks/vonage"
    assert check(app_server, request_id, sent["template"]["parameters"][0]) == "completed"
    accepted = next(e for e in hops(app_server, request_id) if e["label"] == "provider:accepted")
    assert (accepted["data"]["provider"], accepted["data"]["message_id"]) == ("vonage", vonage_fake.whatsapp_ids()[-1])


def test_a_voice_call_through_vonage_speaks_the_code_twice_and_checks_to_completed(app_server, vonage_fake):
    request_id = app_server.start("+447400123492", ["voice"])
    call = last(vonage_fake, "/v1/calls")
    assert call["from"] == {"type": "phone", "number": VOICE_FROM}
    assert call["event_url"] == [f"{app_server.url}/v1/callbacks/vonage?ref={request_id}:0"]
    code = spoken_code(call)
    assert call["ncco"][0]["text"].count(", ".join(code)) == 2
    assert check(app_server, request_id, code) == "completed"


def test_a_signed_status_lands_and_a_forged_one_is_refused_without_a_change(app_server, vonage_fake):
    request_id = app_server.start("+447400123493", ["whatsapp", "voice"])
    message_uuid = vonage_fake.whatsapp_ids()[-1]
    before = app_server.events(request_id)
    assert vonage_fake.status("rejected", message_uuid=message_uuid, forge=True) == 401
    assert app_server.events(request_id) == before and workflow(app_server, request_id) == ["active", "unused"]
    assert vonage_fake.status("delivered", message_uuid=message_uuid) == 204
    delivered = [e for e in app_server.events(request_id) if e["label"] == "provider:delivered"]
    assert [(e["data"]["provider"], e["data"]["status"], e["data"]["message_id"]) for e in delivered] == [
        ("vonage", "delivered", message_uuid)]
    assert app_server.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


def test_a_rejected_whatsapp_status_moves_to_the_voice_step_at_once(app_server, vonage_fake):
    request_id = app_server.start("+447400123494", ["whatsapp", "voice"])
    assert vonage_fake.status("rejected", message_uuid=vonage_fake.whatsapp_ids()[-1], error_code=1340) == 204
    assert workflow(app_server, request_id) == ["failed", "active"]
    failed = next(e for e in hops(app_server, request_id) if e["label"] == "provider:failed")
    assert (failed["data"]["status"], failed["data"]["error_code"]) == ("rejected", 1340)
    assert len(vonage_fake.call_ids()) == 1, "the voice step placed its call at once"
    assert check(app_server, request_id, spoken_code(last(vonage_fake, "/v1/calls"))) == "completed"


def test_an_unanswered_call_event_moves_to_the_next_step_at_once(app_server, fake, vonage_fake):
    request_id = app_server.start("+447400123495", ["voice", "sms"])
    assert vonage_fake.status("unanswered", call_uuid=vonage_fake.call_ids()[-1]) == 204
    assert workflow(app_server, request_id) == ["failed", "active"]
    failed = next(e for e in hops(app_server, request_id) if e["label"] == "provider:failed")
    assert (failed["data"]["status"], failed["data"]["message_id"]) == ("unanswered", vonage_fake.call_ids()[-1])
    assert app_server.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


def test_vonages_problem_answers_fail_over_or_fail_the_step(app_server, fake, vonage_fake):
    vonage_fake.fail_api("messages", 422, 1050, "Number barred")
    request_id = app_server.start("+447400123496", ["whatsapp", "voice"])
    assert workflow(app_server, request_id) == ["failed", "active"]
    refused = next(e for e in hops(app_server, request_id) if e["label"] == "provider:refused")
    assert (refused["data"]["reason"], refused["data"]["error_code"]) == ("number_blocked", 1050)
    assert app_server.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


@pytest.mark.parametrize("change,setting", [
    ({"TACIT_VONAGE_APPLICATION_ID": ""}, "TACIT_VONAGE_APPLICATION_ID"),
    ({"TACIT_VONAGE_PRIVATE_KEY_FILE": ""}, "TACIT_VONAGE_PRIVATE_KEY_FILE"),
    ({"TACIT_VONAGE_PRIVATE_KEY_FILE": "/nonexistent/app.key"}, "TACIT_VONAGE_PRIVATE_KEY_FILE"),
    ("ec", "TACIT_VONAGE_PRIVATE_KEY_FILE"),
    ({"TACIT_VONAGE_WHATSAPP_FROM": "Acme"}, "TACIT_VONAGE_WHATSAPP_FROM"),
    ({"TACIT_VONAGE_API_URL": "not a url"}, "TACIT_VONAGE_API_URL"),
    ({"TACIT_TWILIO_WHATSAPP_CONTENT_SID": "HX-not-a-sid"}, "TACIT_TWILIO_WHATSAPP_CONTENT_SID"),
])
def test_application_start_up_checks_exit_2_naming_the_setting_never_its_value(binary, fake, vonage_fake, tmp_path,
                                                                               change, setting):
    if change == "ec":
        ec = tmp_path / "ec.key"
        subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", str(ec)],
                       check=True, capture_output=True)
        change = {"TACIT_VONAGE_PRIVATE_KEY_FILE": str(ec)}
    env = twilio_env(fake.url) | vonage_application_env(vonage_fake) | {"TACIT_SECRET": "x"} | change
    key_line = open(vonage_fake.key_file).read().splitlines()[1]
    assert_start_refused(binary, tmp_path, env, setting, (SIGNATURE_SECRET, vonage_fake.key_file, key_line, "/nonexistent/app.key", "HX-not-a-sid", vonage_fake.url))


def test_no_code_number_key_token_or_secret_in_the_log_timeline_or_export(binary, fake, vonage_fake):
    number = "+447400123497"
    server = application_server(binary, fake, vonage_fake)
    try:
        request_id = server.start(number, ["whatsapp", "voice"])
        first = last(vonage_fake, "/v1/messages")["template"]["parameters"][0]
        assert vonage_fake.status("undeliverable", message_uuid=vonage_fake.whatsapp_ids()[-1]) == 204
        second = spoken_code(last(vonage_fake, "/v1/calls"))
        assert vonage_fake.status("answered", call_uuid=vonage_fake.call_ids()[-1]) == 204
        assert check(server, request_id, second) == "completed"
        timeline = str(server.events(request_id))
        export = str(server.call("GET", f"/v1/verifications/{request_id}/timeline")[1])
    finally:
        server.stop()
    tokens = [r["headers"]["authorization"].split(" ", 1)[1] for r in vonage_fake.requests()]
    tokens += [c["authorization"].split(" ", 1)[1] for c in vonage_fake.callbacks()]
    key_lines = open(vonage_fake.key_file).read().splitlines()[1:-1]
    for where, text in (("log", server.log()), ("timeline", timeline), ("export", export)):
        for secret in [first, second, number, number[1:], API_SECRET, SIGNATURE_SECRET, *tokens, *key_lines]:
            assert secret not in text, f"a secret ({secret[:4]}…) in the {where}"
