"""axe-core finds nothing on the screens that need no server: the sign-in page with
the virtual phone and the replay entry open, a file that isn't an export, and replays
running, finished and ending in expiry. Also: the axe script comes from the installed
package and running it fetches nothing."""
import copy
import json
import re

from selenium.webdriver.support.ui import Select

from audit import AXE_SCRIPT, audit, run_axe
from test_replay import CASCADE, finish_replay, start_replay


def expired_export(tmp_path):
    """The cascade export as it would read had nobody typed the SMS code, nor the voice one."""
    doc = json.loads(CASCADE.read_text())
    kept = [e for e in doc["events"] if e["seq"] <= 12]
    template = kept[-1]

    def event(seq, at, channel, label, outcome, note, data=None):
        e = copy.deepcopy(template)
        e.update(seq=seq, at=at, channel=channel, label=label, outcome=outcome, note=note, data=data or {}, source="server")
        return e

    workflow = [{"channel": "silent_auth", "status": "rejected"}, {"channel": "sms", "status": "expired"},
                {"channel": "voice", "status": "expired"}]
    kept += [
        event(13, "2026-11-30T04:13:40.801Z", "sms", "sms:timed_out", "failure", "No code was typed within 60 seconds."),
        event(14, "2026-11-30T04:13:40.803Z", "voice", "voice:started", "info", "Voice call started."),
        event(15, "2026-11-30T04:13:41.100Z", "voice", "voice:code_sent", "success", "A code was read out by voice call."),
        event(16, "2026-11-30T04:14:40.803Z", "voice", "voice:timed_out", "failure", "No code was typed within 60 seconds."),
        event(17, "2026-11-30T04:14:40.805Z", None, "verification:expired", "failure", "The verification expired."),
        event(18, "2026-11-30T04:14:40.806Z", None, "verification:summary", "info", "Summary.",
              {"status": "expired", "workflow": workflow}),
    ]
    doc["events"] = kept
    doc["summary"] = dict(doc["summary"], status="expired", workflow=workflow)
    doc["stages"] = []
    path = tmp_path / "expired.json"
    path.write_text(json.dumps(doc))
    return path


def test_the_installed_package_carries_axe_core_4_9(page, console_url):
    assert AXE_SCRIPT.is_file() and AXE_SCRIPT.stat().st_size > 100_000
    assert re.match(r"/\*! axe v4\.9\.", AXE_SCRIPT.read_text(encoding="utf8")[:40])
    page.open(console_url + "/")
    run_axe(page.driver)
    assert page.driver.execute_script("return axe.version").startswith("4.9.")
    fetched = page.driver.execute_script(
        "return performance.getEntriesByType('resource').map((r) => r.name).filter((n) => !n.startsWith(location.origin))")
    assert fetched == []


def test_sign_in_with_the_virtual_phone_and_replay_entry_has_no_axe_violations(page, console_url):
    page.open(console_url + "/")
    page.find("#phone").send_keys("+99012345671")
    page.find(".replay-entry summary").click()
    audit(page, "signin")


def test_a_file_that_is_not_an_export_has_no_axe_violations(page, console_url, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    page.open(console_url + "/")
    page.find(".replay-entry summary").click()
    page.find("#signin-load").send_keys(str(bad))
    page.wait(lambda d: page.find("#signin-error").is_displayed())
    audit(page, "signin-file-error")


def test_a_running_replay_has_no_axe_violations(page, console_url):
    start_replay(page, console_url, CASCADE, speed="1")
    page.wait(lambda d: page.find_all('.event[data-label="sms:code_sent"]'))
    audit(page, "replay-running")
    Select(page.find("#replay-speed")).select_by_value("0")
    finish_replay(page)
    audit(page, "replay-verified")


def test_an_expired_replay_and_a_bad_file_loaded_in_dev_mode_have_no_axe_violations(page, console_url, tmp_path):
    start_replay(page, console_url, expired_export(tmp_path))
    finish_replay(page)
    assert page.find("#dev-screen").get_attribute("data-status") == "expired"
    assert [li.get_attribute("data-status") for li in page.find_all("#tracker li")] == ["rejected", "expired", "expired"]
    assert page.text("#dev-status") == "Replay · ✗ Not verified: the verification expired."
    audit(page, "replay-expired")

    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    page.find("#dev-load").send_keys(str(bad))
    page.wait(lambda d: page.find("#dev-error").is_displayed())
    audit(page, "replay-file-error")
