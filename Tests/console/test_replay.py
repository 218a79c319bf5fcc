"""Replays exported timelines in the console with no server behind it, and checks
what a newcomer sees: the tracker, the stage groups, notes, badges and the waterfall."""
import json

import pytest
from selenium.webdriver.support.ui import Select

from conftest import FIXTURES

CASCADE = FIXTURES / "silent-rejected-sms-5671.json"
SILENT = FIXTURES / "silent-success-5670.json"


def start_replay(page, console_url, export, speed="0"):
    page.open(console_url + "/")
    page.find(".replay-entry summary").click()
    page.find("#signin-load").send_keys(str(export))
    page.wait(lambda d: page.find("#dev-screen").is_displayed(), message="Dev Mode did not open")
    Select(page.find("#replay-speed")).select_by_value(speed)


def finish_replay(page):
    page.wait(lambda d: page.find("#dev-screen").get_attribute("data-replay") == "done",
              message="the replay did not finish")


def step(page, channel):
    return page.find(f"#tracker li[data-channel={channel}]")


def event(page, label):
    return page.find(f'.event[data-label="{label}"]')


def test_cascade_tracker_crosses_out_silent_auth_and_checks_sms(page, console_url):
    start_replay(page, console_url, CASCADE)
    finish_replay(page)
    page.full_screenshot("replay-cascade")

    silent, sms, voice = step(page, "silent_auth"), step(page, "sms"), step(page, "voice")
    assert silent.get_attribute("data-status") == "rejected"
    assert "is-crossed" in silent.get_attribute("class")
    assert "✗" in silent.text and "rejected" in silent.text
    name = silent.find_element("css selector", ".step-name")
    assert "line-through" in name.value_of_css_property("text-decoration-line")
    assert sms.get_attribute("data-status") == "completed"
    assert "is-winner" in sms.get_attribute("class")
    assert "✓" in sms.text and "verified" in sms.text
    assert voice.get_attribute("data-status") == "unused"
    assert "is-crossed" not in voice.get_attribute("class") and "not used" in voice.text
    assert [li.text.split("\n")[1] for li in page.find_all("#tracker li")] == ["SILENT AUTH", "SMS", "VOICE"]
    assert page.text("#dev-status").startswith("Replay · ✓ Verified by SMS")


def test_cascade_groups_events_by_stage_in_workflow_order(page, console_url):
    start_replay(page, console_url, CASCADE)
    finish_replay(page)
    groups = page.find_all("#timeline .group")
    assert [g.get_attribute("data-channel") for g in groups] == ["verification", "silent_auth", "sms", "voice"]

    def labels(channel):
        return [li.get_attribute("data-label") for li in page.find_all(f'.group[data-channel={channel}] .event')]

    assert labels("silent_auth") == [
        "silent_auth:started", "silent_auth:coverage_checked", "silent_auth:check_url_issued",
        "device:check_started", "silent_auth:check_url_fetched", "silent_auth:cellular_path",
        "silent_auth:sim_match", "silent_auth:rejected"]
    assert labels("sms") == ["sms:started", "sms:code_sent", "sms:code_checked", "sms:code_checked", "sms:completed"]
    assert labels("voice") == []
    assert page.find('.group[data-channel=voice] .group-empty').is_displayed()
    assert labels("verification")[0] == "api:create"
    assert labels("verification")[-1] == "verification:summary"
    assert len(page.find_all(".event")) == 20


def test_each_event_shows_its_note_first_then_label_badge_and_time(page, console_url):
    start_replay(page, console_url, CASCADE)
    finish_replay(page)
    sent = event(page, "sms:code_sent")
    body = sent.find_element("css selector", ".event-body")
    first, second = body.find_elements("css selector", ":scope > p")
    assert first.get_attribute("class") == "event-note"
    assert first.text == "A 6-digit code was sent by SMS to +99•••••5671."
    assert "sms:code_sent" in second.text
    assert float(first.value_of_css_property("font-size")[:-2]) > float(
        second.find_element("css selector", ".event-label").value_of_css_property("font-size")[:-2])
    assert sent.find_element("css selector", ".badge").text.lower() == "provider"
    assert sent.find_element("css selector", ".event-time").text == "+0.35 s"
    assert event(page, "api:create").find_element("css selector", ".event-time").text == "+0.00 s"
    assert event(page, "verification:summary").find_element("css selector", ".event-time").text == "+14.93 s"
    badges = {label: event(page, label).find_element("css selector", ".badge").text.lower() for label in (
        "silent_auth:check_url_fetched", "device:check_started", "webhook:delivered", "silent_auth:started")}
    assert badges == {"silent_auth:check_url_fetched": "operator", "device:check_started": "device",
                      "webhook:delivered": "webhook", "silent_auth:started": "server"}
    failure = event(page, "silent_auth:rejected")
    assert "outcome-failure" in failure.get_attribute("class")
    assert failure.find_element("css selector", ".event-icon").text == "✗"


def test_waterfall_shows_each_stage_duration(page, console_url):
    start_replay(page, console_url, CASCADE)
    finish_replay(page)
    rows = {r.get_attribute("data-channel"): r for r in page.find_all(".wf-row")}
    assert list(rows) == ["silent_auth", "sms", "voice"]
    assert rows["silent_auth"].find_element("css selector", ".wf-duration").text == "294 ms"
    assert rows["sms"].find_element("css selector", ".wf-duration").text == "14.58 s"
    assert rows["voice"].find_element("css selector", ".wf-duration").text == "not used"
    assert rows["voice"].find_elements("css selector", ".wf-bar") == []
    silent_bar = rows["silent_auth"].find_element("css selector", ".wf-bar").size["width"]
    sms_bar = rows["sms"].find_element("css selector", ".wf-bar").size["width"]
    assert sms_bar > 20 * silent_bar > 0
    assert "rejected" in rows["silent_auth"].text
    assert page.text(".wf-total") == "total 14.93 s"


def test_silent_success_checks_silent_auth_and_leaves_the_rest_unused(page, console_url):
    start_replay(page, console_url, SILENT)
    finish_replay(page)
    page.full_screenshot("replay-silent-success")
    assert step(page, "silent_auth").get_attribute("data-status") == "completed"
    assert "✓" in step(page, "silent_auth").text
    assert step(page, "sms").get_attribute("data-status") == "unused"
    assert step(page, "voice").get_attribute("data-status") == "unused"
    assert page.text("#dev-status") == "Replay · ✓ Verified by Silent auth in 404 ms."
    assert page.find(".wf-row[data-channel=silent_auth] .wf-duration").text == "358 ms"
    assert not page.find("#dev-screen .code-entry").is_displayed()


def test_replay_keeps_original_timing_until_sped_up(page, console_url):
    start_replay(page, console_url, CASCADE, speed="1")
    page.wait(lambda d: len(page.find_all('.event[data-label="sms:code_sent"]')) == 1)
    page.screenshot("replay-in-progress")
    # The first wrong code was typed 9 s after the SMS went out: at 1× it can't be here yet.
    assert page.find_all('.event[data-label="sms:code_checked"]') == []
    assert step(page, "sms").get_attribute("data-status") == "active"
    assert "is-active" in step(page, "sms").get_attribute("class")
    assert step(page, "silent_auth").get_attribute("data-status") == "rejected"
    assert "Replaying" in page.text(".dev-link")
    Select(page.find("#replay-speed")).select_by_value("0")
    finish_replay(page)
    assert len(page.find_all(".event")) == 20


def test_export_in_replay_downloads_the_loaded_timeline(page, console_url, downloads):
    start_replay(page, console_url, SILENT)
    finish_replay(page)
    page.find("#dev-export").click()
    target = downloads / "tacit-timeline-4f6c0a8e-2d1b-4c55-9a31-7b3e2f0d9c15.json"
    page.wait(lambda d: target.exists() and target.stat().st_size > 0, message="no download")
    assert json.loads(target.read_text()) == json.loads(SILENT.read_text())


def test_event_text_is_inserted_as_text_not_markup(page, console_url, tmp_path):
    doc = json.loads(SILENT.read_text())
    doc["events"][0]["note"] = '<img src=x onerror="document.body.dataset.owned=1">Injected'
    doc["events"][0]["label"] = "api:<b>create</b>"
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(doc))
    start_replay(page, console_url, hostile)
    finish_replay(page)
    note = page.find('.event[data-seq="1"] .event-note')
    assert note.text.startswith("<img src=x")
    assert page.find_all(".event img, .event b") == []
    assert page.driver.execute_script("return document.body.dataset.owned") is None


def test_a_file_that_is_not_an_export_shows_an_error(page, console_url, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    page.open(console_url + "/")
    page.find(".replay-entry summary").click()
    page.find("#signin-load").send_keys(str(bad))
    page.wait(lambda d: page.find("#signin-error").is_displayed())
    assert "isn't a Tacit timeline export" in page.text("#signin-error")
    assert not page.find("#dev-screen").is_displayed()


@pytest.mark.parametrize("export", [CASCADE, SILENT], ids=["cascade", "silent"])
def test_fixtures_never_hold_a_full_number_or_code(export):
    text = export.read_text()
    assert "1234567" not in text and "code\":" not in text
    doc = json.loads(text)
    assert doc["summary"]["workflow"] == doc["events"][-1]["data"]["workflow"]
