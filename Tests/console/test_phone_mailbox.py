"""The virtual phone's mailbox against a real `tacit serve --dev`: a sign-in with an email
address gets a last email step, whose message (subject and text) shows on the phone, and
its code completes the verification."""
import re

from audit import audit
from test_live_flow import LIVE_WAIT, sign_in, type_code, wait_status, wait_step

ADDRESS = "console.person@example.com"


def test_the_email_step_shows_in_the_phones_mailbox_and_its_code_verifies(live):
    live.find("#email").send_keys(ADDRESS)
    sign_in(live, "+99012345671", dev_mode=True)
    wait_step(live, "sms", "active")
    assert live.find(".phone-mail").is_displayed()
    assert live.find(".phone-mail .inbox-empty").is_displayed()
    live.find("#dev-next").click()
    wait_step(live, "voice", "active")
    live.find("#dev-next").click()
    wait_step(live, "email", "active")
    live.wait(lambda d: live.find_all(".mail .message.is-new"), seconds=LIVE_WAIT, message="no new email on the phone")
    assert live.text(".mail .message.is-new .message-subject") == "Your Tacit Demo code"
    body = live.text(".mail .message.is-new .message-body")
    code = re.search(r"\b(\d{4,10})\b", body).group(1)
    assert live.text("#dev-code-title") == "Enter the code we sent by email"
    audit(live, "dev-email-mailbox")
    assert ADDRESS not in live.find("#timeline").text
    type_code(live, "dev", code)
    wait_status(live, "#dev-screen", "completed")
    wait_step(live, "email", "completed")
