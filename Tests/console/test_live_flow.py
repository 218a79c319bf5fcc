"""The console against a real `tacit serve --dev` whose base URL is in TACIT_URL:
sign-ins with the virtual operator's numbers, in Dev Mode and as a plain product."""
import json
import os
import re

import pytest

LIVE_WAIT = 20


def sign_in(page, number, dev_mode, wifi=False):
    page.find("#phone").send_keys(number)
    if wifi:
        page.find('label[for="phone-net-wifi"]').click()
    if dev_mode:
        page.find('label[for="devmode"]').click()
        assert page.find("#devmode").is_selected()
    page.find("#signin-submit").click()


def wait_status(page, screen, status):
    page.wait(lambda d: page.find(screen).get_attribute("data-status") == status, seconds=LIVE_WAIT,
              message=f"{screen} never reached {status}")


def wait_step(page, channel, status):
    page.wait(lambda d: page.find(f"#tracker li[data-channel={channel}]").get_attribute("data-status") == status,
              seconds=LIVE_WAIT, message=f"{channel} never became {status}")


def labels(page, channel):
    return [li.get_attribute("data-label") for li in page.find_all(f'.group[data-channel={channel}] .event')]


def code_from_phone(page):
    page.wait(lambda d: page.find_all(".inbox .message.is-new"), seconds=LIVE_WAIT, message="no new message on the phone")
    body = page.find(".inbox .message.is-new .message-body").text
    return re.search(r"\b(\d{4,10})\b", body).group(1)


def type_code(page, prefix, code):
    box = page.find(f"#{prefix}-code")
    box.clear()
    box.send_keys(code)
    box.submit()


def assert_no_full_number(page, number):
    assert number[1:] not in page.find("body").text


def test_dev_mode_silent_success_over_the_cellular_path(live):
    sign_in(live, "+99012345670", dev_mode=True)
    wait_status(live, "#dev-screen", "completed")
    wait_step(live, "silent_auth", "completed")
    live.wait(lambda d: "verification:summary" in labels(live, "verification"), seconds=LIVE_WAIT)
    live.full_screenshot("live-dev-silent-success")
    assert "✓" in live.text("#tracker li[data-channel=silent_auth]")
    assert [li.get_attribute("data-status") for li in live.find_all("#tracker li")] == ["completed", "unused", "unused"]
    assert live.text("#dev-status").startswith("✓ Verified by Silent auth")
    silent = labels(live, "silent_auth")
    assert silent[0] == "silent_auth:started" and "silent_auth:completed" in silent
    assert "silent_auth:check_url_issued" in silent
    assert all(n.text.strip() for n in live.find_all(".event-note"))
    assert {b.text.lower() for b in live.find_all(".badge")} >= {"server", "operator"}
    assert labels(live, "sms") == [] and labels(live, "voice") == []
    assert "✓ Done" in live.text("#virtual-phone .silent-status")
    assert not live.find("#dev-screen .code-entry").is_displayed()
    assert re.fullmatch(r"\d+ ms|\d+\.\d\d s", live.text('.wf-row[data-channel=silent_auth] .wf-duration'))
    live.wait(lambda d: "Stream closed" in live.text(".dev-link"), message="the event stream was not closed")
    assert_no_full_number(live, "+99012345670")


def test_dev_mode_falls_back_to_sms_and_takes_the_code_from_the_phone(live, downloads):
    sign_in(live, "+99012345671", dev_mode=True)
    wait_step(live, "silent_auth", "rejected")
    wait_step(live, "sms", "active")
    assert "is-crossed" in live.find("#tracker li[data-channel=silent_auth]").get_attribute("class")
    live.wait(lambda d: live.find("#dev-screen .code-entry").is_displayed(), seconds=LIVE_WAIT)
    assert live.text("#dev-code-title") == "Enter the code we sent by SMS"
    code = code_from_phone(live)
    assert "sms:code_sent" in labels(live, "sms")
    live.screenshot("live-dev-sms-code")

    wrong = code[:-1] + str((int(code[-1]) + 1) % 10)
    type_code(live, "dev", wrong)
    live.wait(lambda d: live.find("#dev-screen .code-entry .error").is_displayed(), seconds=LIVE_WAIT)
    assert re.search(r"4 attempts left\.$", live.text("#dev-screen .code-entry .error"))

    type_code(live, "dev", code)
    wait_status(live, "#dev-screen", "completed")
    wait_step(live, "sms", "completed")
    live.wait(lambda d: "verification:summary" in labels(live, "verification"), seconds=LIVE_WAIT)
    live.full_screenshot("live-dev-sms-verified")
    assert [li.get_attribute("data-status") for li in live.find_all("#tracker li")] == ["rejected", "completed", "unused"]
    assert "✓" in live.text("#tracker li[data-channel=sms]")
    assert not live.find("#dev-screen .code-entry").is_displayed()
    assert live.text("#dev-status").startswith("✓ Verified by SMS")
    assert live.find(".wf-row[data-channel=voice] .wf-duration").text == "not used"
    assert code not in live.find("#timeline").text
    assert_no_full_number(live, "+99012345671")

    request_id = live.driver.execute_script("return window.Tacit.app.session.id")
    target = downloads / f"tacit-timeline-{request_id}.json"
    live.find("#dev-export").click()
    live.wait(lambda d: target.exists() and target.stat().st_size > 0, message="no export downloaded")
    doc = json.loads(target.read_text())
    assert doc["request_id"] == request_id
    assert doc["events"][-1]["label"] == "verification:summary"
    assert code not in json.dumps(doc) and "12345671" not in json.dumps(doc)


def test_wifi_path_is_refused_and_the_flow_falls_back_to_sms(live):
    sign_in(live, "+99012345674", dev_mode=True, wifi=True)
    live.wait(lambda d: "device_not_cellular" in live.text("#virtual-phone .silent-status"), seconds=LIVE_WAIT)
    assert live.text("#virtual-phone .silent-status").startswith("✗")
    # A check_url opened over Wi-Fi fails the silent step at once and the server moves on.
    wait_step(live, "silent_auth", "failed")
    wait_step(live, "sms", "active")
    live.wait(lambda d: "Wi-Fi" in live.text("#timeline"), seconds=LIVE_WAIT,
              message="the timeline never explained the Wi-Fi refusal")
    live.screenshot("live-dev-wifi-refused")
    live.find("#dev-next").click()
    wait_step(live, "voice", "active")
    live.find("#dev-cancel").click()
    wait_status(live, "#dev-screen", "cancelled")
    assert live.text("#dev-status").startswith("✗ Not verified")


def test_plain_sign_in_completes_silently_without_a_timeline(live):
    sign_in(live, "+99012345672", dev_mode=False)
    live.wait(lambda d: live.find("#plain-screen").get_attribute("data-view") == "done", seconds=LIVE_WAIT)
    live.screenshot("live-plain-verified")
    assert live.find("#plain-done h1").text == "You're verified"
    assert "with nothing to type" in live.text("#plain-done")
    assert not live.find("#dev-screen").is_displayed()
    assert live.find_all(".event") == []


def test_plain_sign_in_falls_back_to_a_code_box(live):
    sign_in(live, "+99012345673", dev_mode=False)
    live.wait(lambda d: live.find("#plain-screen").get_attribute("data-view") == "code", seconds=LIVE_WAIT)
    assert live.text("#plain-entry-code-title") == "Enter the code we sent by SMS"
    live.screenshot("live-plain-code")
    type_code(live, "plain-entry", code_from_phone(live))
    live.wait(lambda d: live.find("#plain-screen").get_attribute("data-view") == "done", seconds=LIVE_WAIT)
    assert "with the code we sent by SMS" in live.text("#plain-done")
    assert not live.find("#dev-screen").is_displayed()


def test_a_bad_number_shows_the_servers_detail_on_the_form(live):
    sign_in(live, "+12", dev_mode=False)
    live.wait(lambda d: live.find("#signin-error").is_displayed(), seconds=LIVE_WAIT)
    assert live.text("#signin-error").strip()
    assert live.find("#phone").get_attribute("aria-invalid") == "true"
    assert live.find("#signin-screen").is_displayed()
