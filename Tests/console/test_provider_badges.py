"""Real providers on the timeline, seen through replay (Dev Mode has no real provider):
each stage a provider carried shows its provider trail (name, short message id, delivery
state in words, failover hops in order), each provider event its badge, the live region
says delivery failures and failovers, and axe finds nothing at desktop and phone size."""
import json

from audit import announcements, audit, set_size
from conftest import FIXTURES
from test_replay import finish_replay, start_replay

DELIVERED = FIXTURES / "twilio-sms-delivered-2671.json"
UNDELIVERED = FIXTURES / "twilio-undelivered-voice-2672.json"
FAILOVER = FIXTURES / "failover-twilio-vonage-2673.json"


def replay(page, console_url, export):
    start_replay(page, console_url, export)
    finish_replay(page)


def text(element):
    """Everything a screen reader reads, hidden helper words included, with spaces tidied."""
    return " ".join(element.get_attribute("textContent").split())


def trail(page, channel):
    return page.find_all(f'.group[data-channel={channel}] .provider-trail > li')


def hops(page, channel):
    return [(li.get_attribute("data-provider"), li.get_attribute("data-short-id"), li.get_attribute("data-state"))
            for li in trail(page, channel)]


def row_badge(page, label, index=0):
    return page.find_all(f'.event[data-label="{label}"] .provider-badge')[index]


def message_ids(export):
    return {e["data"]["message_id"] for e in json.loads(export.read_text())["events"] if "message_id" in e["data"]}


def test_a_delivered_twilio_sms_shows_its_provider_short_id_and_each_state(page, console_url):
    replay(page, console_url, DELIVERED)
    assert hops(page, "sms") == [("twilio", "…b4d81e", "delivered")]
    assert text(trail(page, "sms")[0]) == "✓ Twilio message …b4d81e accepted → sent → delivered"
    assert trail(page, "sms")[0].find_element("css selector", ".hop-state").text == "accepted → sent → delivered"
    assert not page.find(".group[data-channel=voice] .provider-trail").is_displayed()
    assert text(row_badge(page, "provider:accepted")) == "Twilio …b4d81e accepted"
    assert text(row_badge(page, "provider:status")) == "Twilio …b4d81e sent"
    assert text(row_badge(page, "provider:delivered")) == "Twilio …b4d81e delivered"
    assert page.find_all('.event[data-label="sms:code_sent"] .provider-badge') == []


def test_an_undeliverable_twilio_sms_says_why_and_the_voice_step_takes_over(page, console_url):
    replay(page, console_url, UNDELIVERED)
    assert hops(page, "sms") == [("twilio", "…07f2c4", "undeliverable")]
    assert trail(page, "sms")[0].find_element("css selector", ".hop-state").text == (
        "accepted → sent → undeliverable: the phone is switched off or out of reach (error 30003)")
    assert "is-bad" in trail(page, "sms")[0].get_attribute("class")
    assert hops(page, "voice") == [("twilio", "…c90b37", "delivered")]
    assert text(row_badge(page, "provider:failed")) == (
        "Twilio …07f2c4 undeliverable: the phone is switched off or out of reach (error 30003)")
    assert [li.get_attribute("data-status") for li in page.find_all("#tracker li")] == ["failed", "completed"]
    said = announcements(page)
    assert "SMS: Twilio could not deliver the message, the phone is switched off or out of reach (error 30003)." in said
    assert said.index("SMS failed.") < said.index("Voice started.")


def test_a_failover_within_a_step_shows_both_providers_in_the_order_tried(page, console_url):
    replay(page, console_url, FAILOVER)
    assert hops(page, "sms") == [("twilio", "", "failed_over"), ("vonage", "…7f30aa", "delivered")]
    first, second = trail(page, "sms")
    assert text(first) == "↪ Twilio could not take it, the provider answered with an error (error 20503); failed over to Vonage"
    assert text(second) == "→ then ✓ Vonage message …7f30aa accepted → delivered"
    assert second.location["x"] > first.location["x"] or second.location["y"] > first.location["y"]
    row = page.find(".wf-row[data-channel=sms]")
    assert row.find_element("css selector", ".wf-provider").text == "via Twilio, then Vonage"
    assert row.get_attribute("aria-label").endswith(", verified, via Twilio, then Vonage")
    assert page.find_all(".wf-row[data-channel=voice] .wf-provider") == []
    said = announcements(page)
    assert ("SMS: Twilio could not take the message, the provider answered with an error (error 20503). "
            "Failing over to Vonage.") in said
    assert len(said) == len(set(said)), f"something was said twice: {said}"


def test_a_receipt_arriving_before_the_hop_it_is_about_keeps_the_newest_state(page, console_url):
    """Live events can land out of order after a reconnect; the badge goes by seq, not arrival."""
    page.open(console_url + "/")
    said = page.driver.execute_script("""
        const trail = new Tacit.ProviderTrail(document.createElement('ol'));
        const e = (seq, label, data) => ({seq, label, source: 'provider', channel: 'whatsapp',
                                          data: Object.assign({provider: 'twilio', message_id: 'SMabcdef0123456789'}, data)});
        trail.add(e(7, 'provider:delivered', {status: 'read'}));
        trail.add(e(5, 'provider:status', {status: 'sent'}));
        trail.add(e(4, 'provider:accepted', {}));
        const li = trail.root.firstElementChild;
        return [trail.root.childElementCount, li.dataset.state, li.dataset.shortId, li.querySelector('.hop-state').textContent];""")
    assert said == [1, "delivered", "…456789", "accepted → sent → delivered"]


def test_no_full_message_id_or_number_reaches_the_page(page, console_url):
    for export in (DELIVERED, UNDELIVERED, FAILOVER):
        replay(page, console_url, export)
        seen = page.driver.execute_script("return document.body.innerText")
        for full in message_ids(export):
            assert full not in seen
        assert "+4477009026" not in seen


def test_provider_replays_have_no_axe_violations_at_either_size(page, console_url):
    for export, screen in ((DELIVERED, "replay-provider-delivered"), (UNDELIVERED, "replay-provider-undeliverable"),
                           (FAILOVER, "replay-provider-failover")):
        replay(page, console_url, export)
        audit(page, screen)
        stage_screenshot(page, screen + "-sms-stage")


def stage_screenshot(page, name):
    """The SMS stage's provider trail at the top of the screen, at both sizes, for a person to look at."""
    try:
        for size in ("desktop", "390x844"):
            set_size(page.driver, size)
            page.driver.execute_script(
                "const g = document.querySelector('.group[data-channel=sms]');"
                "window.scrollTo(0, g.getBoundingClientRect().top + window.scrollY"
                " - document.querySelector('.dev-top').offsetHeight - 8);")
            page.screenshot(f"{name}-{size}")
    finally:
        set_size(page.driver, "desktop")
