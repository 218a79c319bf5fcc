"""End to end against a real SMPP peer: a non-dev `tacit serve` with TACIT_ROUTE_SMS=smpp
bound to the smpp34 SMSC (through smsc_peer.py's relay), the code read from the submit_sm
the SMSC took, receipts sent by the SMSC as deliver_sm, and the link cut from the SMSC's side."""
import re

import pytest

from conftest import Tacit, assert_start_refused
from smpp_support import PASSWORD, SOURCE, SYSTEM_ID, SYSTEM_TYPE, smpp_env, wait_for_label
from test_twilio_e2e import check, last_request, voice_code


def code_of(submit):
    return re.findall(r"\d{4,}", submit["text"])[-1]


def accepted(tacit, request_id):
    return next(e for e in tacit.events(request_id) if e["label"] == "provider:accepted")


def test_an_sms_through_smpp_binds_as_a_transceiver_and_checks_to_completed(smpp_tacit, smsc):
    number = "+447400123456"
    request_id = smpp_tacit.start(number, ["sms"])
    [submit] = smsc.submits("447400123456")
    assert (submit["source"], submit["source_ton"], submit["dest_ton"], submit["dest_npi"]) == (SOURCE, 5, 1, 1)
    assert (submit["registered_delivery"], submit["data_coding"], submit["esm_class"]) == (1, 0, 0)
    assert "Acme" in submit["text"]
    hop = accepted(smpp_tacit, request_id)
    assert (hop["source"], hop["data"]["provider"], hop["data"]["message_id"]) == ("provider", "smpp", submit["message_id"])
    assert check(smpp_tacit, request_id, code_of(submit)) == "completed"
    bind = smsc.listing("binds")[-1]
    assert bind == {"system_id": SYSTEM_ID, "password": PASSWORD, "system_type": SYSTEM_TYPE, "interface_version": 0x34}


def test_a_text_outside_gsm_goes_as_ucs2(smpp_tacit, smsc):
    status, body, _ = smpp_tacit.call("POST", "/v1/verifications", {
        "phone_number": "+447400123457", "workflow": [{"channel": "sms"}], "brand": "Acme Ωmega 東京"})
    assert status == 202, body
    [submit] = smsc.submits("447400123457")
    assert submit["data_coding"] == 8 and "東京" in submit["text"]
    assert smpp_tacit.call("DELETE", f"/v1/verifications/{body['request_id']}")[0] == 204


def test_a_delivery_receipt_lands_on_the_timeline(smpp_tacit, smsc):
    number = "+447400123458"
    request_id = smpp_tacit.start(number, ["sms", "voice"])
    message_id = accepted(smpp_tacit, request_id)["data"]["message_id"]
    assert smsc.receipt(message_id, "DELIVRD", number) == 0
    delivered = wait_for_label(smpp_tacit, request_id, "provider:delivered")
    assert (delivered["source"], delivered["data"]["provider"], delivered["data"]["message_id"]) == ("provider", "smpp", message_id)
    assert delivered["data"]["status"] == "delivrd"
    workflow = smpp_tacit.call("GET", f"/v1/verifications/{request_id}")[1]["workflow"]
    assert workflow[0]["status"] == "active"
    assert smpp_tacit.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


def test_an_undeliv_receipt_fails_over_to_the_next_step_at_once(smpp_tacit, smsc, fake):
    number = "+447400123459"
    request_id = smpp_tacit.start(number, ["sms", "voice"])
    message_id = accepted(smpp_tacit, request_id)["data"]["message_id"]
    assert smsc.receipt(message_id, "UNDELIV", number, err="021") == 0
    failed = wait_for_label(smpp_tacit, request_id, "provider:failed")
    assert (failed["data"]["message_id"], failed["data"]["status"], failed["data"]["error_code"]) == (message_id, "undeliv", 21)
    wait_for_label(smpp_tacit, request_id, "voice:code_sent")
    workflow = smpp_tacit.call("GET", f"/v1/verifications/{request_id}")[1]["workflow"]
    assert [s["status"] for s in workflow] == ["failed", "active"]
    assert check(smpp_tacit, request_id, voice_code(last_request(fake, "Calls.json"))) == "completed"


def test_a_forged_or_unmatched_receipt_changes_nothing(smpp_tacit, smsc):
    number = "+447400123460"
    request_id = smpp_tacit.start(number, ["sms", "voice"])
    message_id = accepted(smpp_tacit, request_id)["data"]["message_id"]
    # An id the SMSC never gave, and the right id from another number: the SMSC acks both, Tacit drops both.
    assert smsc.receipt("msg-9999", "UNDELIV", number) == 0
    assert smsc.receipt(message_id, "UNDELIV", "+447400999999") == 0
    # A receipt that is matched afterwards proves the two before it were read and dropped, not still queued.
    assert smsc.receipt(message_id, "ENROUTE", number) == 0
    wait_for_label(smpp_tacit, request_id, "provider:status")
    labels = [e["label"] for e in smpp_tacit.events(request_id)]
    assert "provider:failed" not in labels
    workflow = smpp_tacit.call("GET", f"/v1/verifications/{request_id}")[1]["workflow"]
    assert [s["status"] for s in workflow] == ["active", "unused"]
    assert smpp_tacit.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


def test_an_invalid_destination_fails_the_step_with_its_reason(smpp_tacit, smsc):
    smsc.control("reject", {"status": 0x0B})
    request_id = smpp_tacit.start("+447400123461", ["sms", "voice"])
    refused = next(e for e in smpp_tacit.events(request_id) if e["label"] == "provider:refused")
    assert (refused["data"]["provider"], refused["data"]["reason"], refused["data"]["error_code"]) == ("smpp", "invalid_number", 11)
    workflow = smpp_tacit.call("GET", f"/v1/verifications/{request_id}")[1]["workflow"]
    assert [s["status"] for s in workflow] == ["failed", "active"]
    assert smpp_tacit.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


def test_a_throttled_smsc_fails_over_to_the_next_provider_in_the_same_step(binary, fake, smsc):
    server = Tacit(binary, fake.url, smpp_env(smsc, TACIT_ROUTE_SMS="smpp,twilio"))
    try:
        smsc.control("reject", {"status": 0x58})
        request_id = server.start("+447400123462", ["sms"])
        hop = next(e for e in server.events(request_id) if e["label"] == "provider:failed_over")
        assert (hop["data"]["provider"], hop["data"]["reason"], hop["data"]["error_code"]) == ("smpp", "provider_throttled", 0x58)
        assert hop["data"]["next_provider"] == "twilio"
        assert accepted(server, request_id)["data"]["provider"] == "twilio"
        code = re.findall(r"\d+", last_request(fake)["form"]["Body"])[-1]
        assert check(server, request_id, code) == "completed"
    finally:
        server.stop()
    assert "unbind" in smsc.listing("commands"), "a stopping server ends its session with unbind"


def test_the_link_dropped_between_messages_reconnects_and_the_next_goes_out_exactly_once(smpp_tacit, smsc):
    first = smpp_tacit.start("+447400123463", ["sms"])
    binds = len(smsc.listing("binds"))
    assert smsc.control("drop")["dropped"] >= 1
    second = smpp_tacit.start("+447400123464", ["sms"])
    assert len(smsc.listing("binds")) == binds + 1
    [submit] = smsc.submits("447400123464")
    assert check(smpp_tacit, second, code_of(submit)) == "completed"
    assert len(smsc.submits("447400123463")) == 1
    assert smpp_tacit.call("DELETE", f"/v1/verifications/{first}")[0] == 204


def test_the_link_dropped_before_the_smsc_answered_is_not_sent_again_and_the_step_fails_over(smpp_tacit, smsc, fake):
    smsc.control("drop_next_submit")
    request_id = smpp_tacit.start("+447400123465", ["sms", "voice"])
    workflow = smpp_tacit.call("GET", f"/v1/verifications/{request_id}")[1]["workflow"]
    assert [s["status"] for s in workflow] == ["failed", "active"]
    assert len(smsc.submits("447400123465")) == 1, "the SMSC has the message once and is not handed it again"
    assert check(smpp_tacit, request_id, voice_code(last_request(fake, "Calls.json"))) == "completed"
    # The session came back: the next SMS goes out on a new link.
    again = smpp_tacit.start("+447400123466", ["sms"])
    [submit] = smsc.submits("447400123466")
    assert check(smpp_tacit, again, code_of(submit)) == "completed"


@pytest.mark.parametrize("change,setting", [
    ({"TACIT_SMPP_HOST": ""}, "TACIT_SMPP_HOST"),
    ({"TACIT_SMPP_PASSWORD": ""}, "TACIT_SMPP_PASSWORD"),
    ({"TACIT_SMPP_PASSWORD": "longer-than-eight"}, "TACIT_SMPP_PASSWORD"),
    ({"TACIT_SMPP_SYSTEM_ID": ""}, "TACIT_SMPP_SYSTEM_ID"),
    ({"TACIT_SMPP_SOURCE_ADDR": ""}, "TACIT_SMPP_SOURCE_ADDR"),
    ({"TACIT_SMPP_PORT": "70000"}, "TACIT_SMPP_PORT"),
    ({"TACIT_SMPP_WINDOW": "0"}, "TACIT_SMPP_WINDOW"),
])
@pytest.mark.parametrize("by", ["environment", "config"])
def test_smpp_start_up_checks_exit_2_naming_the_setting_never_its_value(binary, smsc, tmp_path, change, setting, by):
    settings = {"PATH": "/usr/bin:/bin", "TACIT_SECRET": "x"} | smpp_env(smsc) | {"TACIT_ROUTE_VOICE": ""} | change
    assert_start_refused(binary, tmp_path, settings, setting, (PASSWORD, "longer-than-eight", SYSTEM_ID, "70000"), by)


def test_no_code_full_number_or_password_in_the_servers_log_or_timeline(binary, fake, smsc):
    number = "+447400123467"
    server = Tacit(binary, fake.url, smpp_env(smsc))
    try:
        request_id = server.start(number, ["sms", "voice"])
        [submit] = smsc.submits(number[1:])
        first = code_of(submit)
        assert smsc.receipt(submit["message_id"], "UNDELIV", number, err="021") == 0
        wait_for_label(server, request_id, "voice:code_sent")
        second = voice_code(last_request(fake, "Calls.json"))
        assert smsc.control("drop")["dropped"] >= 1
        assert check(server, request_id, second) == "completed"
        timeline = str(server.events(request_id))
        export = str(server.call("GET", f"/v1/verifications/{request_id}/timeline")[1])
    finally:
        server.stop()
    log = server.log()
    assert "smpp" in log, "the log says what the link did"
    for where, text in (("log", log), ("timeline", timeline), ("export", export)):
        for secret in (first, second, number, number[1:], PASSWORD):
            assert secret not in text, f"{secret!r} in the {where}"
