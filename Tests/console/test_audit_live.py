"""axe-core finds nothing, at desktop size and at 390 × 844, on every screen a person
meets against a real `tacit serve --dev`: Dev Mode in each channel state with the
virtual phone beside it, each way a verification ends, the plain product flow and its
error states. Each state is photographed at both sizes under .build/screenshots."""
import re

from audit import audit, wait_announced
from test_live_flow import LIVE_WAIT, code_from_phone, sign_in, type_code, wait_status, wait_step


def wrong(code):
    return code[:-1] + str((int(code[-1]) + 1) % 10)


def voice_code(page):
    """The code the virtual phone's newest call spoke, its digits read one by one."""
    page.wait(lambda d: page.find(".inbox .message-channel").text.lower().startswith("voice"), seconds=LIVE_WAIT,
              message="no voice call on the phone")
    spoken = re.search(r"code is: ([\d, ]+)\.", page.find(".inbox .message-body").text).group(1)
    return re.sub(r"\D", "", spoken)


def wait_shown(page, css):
    page.wait(lambda d: page.find(css).is_displayed(), seconds=LIVE_WAIT, message=f"{css} never showed")


def wrong_codes_until_failed(page, prefix, screen, code):
    """Five wrong codes fail the verification (docs/api.md#the-engines-rules); each waits for the server's answer."""
    for left in (4, 3, 2, 1):
        type_code(page, prefix, wrong(code))
        page.wait(lambda d: f"{left} attempt" in page.text(f"#{prefix}-code-error"), seconds=LIVE_WAIT)
    type_code(page, prefix, wrong(code))
    wait_status(page, screen, "failed")


def test_dev_mode_in_every_channel_state_and_its_errors_has_no_axe_violations(live):
    # …97: the carrier never answers, so the silent step stays active with the phone's refusal shown.
    sign_in(live, "+99012345697", dev_mode=True)
    live.wait(lambda d: live.find("#phone-run").is_enabled(), seconds=LIVE_WAIT, message="the phone never finished its try")
    audit(live, "dev-silent-auth")

    live.find("#dev-next").click()
    wait_step(live, "sms", "active")
    wait_shown(live, "#dev-screen .code-entry")
    code = code_from_phone(live)
    audit(live, "dev-sms")

    type_code(live, "dev", wrong(code))
    wait_shown(live, "#dev-code-error")
    audit(live, "dev-code-wrong")

    live.find("#dev-next").click()
    wait_step(live, "voice", "active")
    live.wait(lambda d: live.text("#dev-code-title") == "Enter the code we sent by voice call", seconds=LIVE_WAIT)
    audit(live, "dev-voice")

    live.find("#dev-next").click()
    wait_shown(live, "#dev-error")
    audit(live, "dev-error")

    live.find("#dev-cancel").click()
    wait_status(live, "#dev-screen", "cancelled")
    audit(live, "dev-cancelled")


def test_dev_mode_verified_by_sms_has_no_axe_violations(live):
    sign_in(live, "+99012345675", dev_mode=True)
    wait_step(live, "sms", "active")
    type_code(live, "dev", code_from_phone(live))
    wait_status(live, "#dev-screen", "completed")
    live.wait(lambda d: "Stream closed" in live.text(".dev-link"), seconds=LIVE_WAIT)
    audit(live, "dev-verified")


def test_a_failure_on_the_next_channel_is_announced_and_has_no_axe_violations(live):
    sign_in(live, "+99012345677", dev_mode=True)
    wait_step(live, "sms", "active")
    live.find("#dev-next").click()
    said = wait_announced(live, "A code was sent by voice call.")
    assert said[-3:] == ["SMS failed.", "Voice started.", "A code was sent by voice call."]
    wrong_codes_until_failed(live, "dev", "#dev-screen", voice_code(live))
    wait_announced(live, "Too many wrong codes")
    said = wait_announced(live, "Not verified")
    # The fifth refusal and the failure race (the answer to the check, the event stream): both are said.
    assert "Not verified: the verification failed." in said[-2:]
    assert any(line.startswith("Code not accepted. Too many wrong codes") for line in said[-2:])
    audit(live, "dev-failed")


def test_plain_checking_code_and_verified_views_have_no_axe_violations(live):
    sign_in(live, "+99012345597", dev_mode=False)
    wait_shown(live, "#plain-instead")
    audit(live, "plain-checking")

    live.find("#plain-instead").click()
    live.wait(lambda d: live.find("#plain-screen").get_attribute("data-view") == "code", seconds=LIVE_WAIT)
    code = code_from_phone(live)
    audit(live, "plain-code")

    type_code(live, "plain-entry", wrong(code))
    wait_shown(live, "#plain-entry-code-error")
    audit(live, "plain-code-wrong")

    type_code(live, "plain-entry", code)
    live.wait(lambda d: live.find("#plain-screen").get_attribute("data-view") == "done", seconds=LIVE_WAIT)
    audit(live, "plain-verified")


def test_plain_failed_view_has_no_axe_violations(live):
    sign_in(live, "+99012345679", dev_mode=False)
    live.wait(lambda d: live.find("#plain-screen").get_attribute("data-view") == "code", seconds=LIVE_WAIT)
    wrong_codes_until_failed(live, "plain-entry", "#plain-screen", code_from_phone(live))
    live.wait(lambda d: live.find("#plain-screen").get_attribute("data-view") == "failed", seconds=LIVE_WAIT)
    audit(live, "plain-failed")


def test_sign_in_refused_by_the_server_has_no_axe_violations(live):
    sign_in(live, "+12", dev_mode=False)
    wait_shown(live, "#signin-error")
    audit(live, "signin-error")
