"""What a message was written in, on the console's timeline: the locale chosen and why on
`api:create`, the SMS's locale, alphabet and parts on `sms:code_sent`; the code box still
asks the browser for `one-time-code`."""
from test_live_flow import LIVE_WAIT, labels, sign_in, wait_step


def facts(page, label):
    return page.find(f".event[data-label=\"{label}\"] .message-facts").get_attribute("textContent")


def test_locale_and_sms_encoding_show_on_the_timeline(live):
    sign_in(live, "+99012345671", dev_mode=True)
    wait_step(live, "sms", "active")
    live.wait(lambda d: "sms:code_sent" in labels(live, "sms"), seconds=LIVE_WAIT, message="no sms:code_sent")
    created = facts(live, "api:create")
    assert created.startswith("locale ") and any(why in created for why in ("asked for", "from the number", "the default"))
    sent = facts(live, "sms:code_sent")
    assert "GSM-7" in sent and "1 segment" in sent, sent
    assert live.find("#dev-code").get_attribute("autocomplete") == "one-time-code"
    live.screenshot("live-message-facts")
