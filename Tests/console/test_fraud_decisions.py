"""Fraud decisions on the console's timeline: the start's line type on `api:create`, and
`fraud:bypassed`, `fraud:monitored` and `fraud:blocked` each with a line giving the rule and its
figures (country, channel, prefix and counts), replayed from an export with no server behind it."""
import json

from conftest import FIXTURES
from test_replay import event, finish_replay, start_replay

SOURCE = FIXTURES / "silent-rejected-sms-5671.json"


def with_decisions(tmp_path):
    """The SMS fallback export with the decisions a start may carry, renumbered in order."""
    export = json.loads(SOURCE.read_text())
    events = export["events"]
    base = dict(events[0], data={})
    events[0]["data"]["line_type"] = "fixed_line_or_mobile"
    added = [
        dict(base, label="fraud:bypassed", note="The start skipped the automatic rules.",
             data={"reason": "risk_check", "rules": ["address_limit", "geo"]}),
        dict(base, label="fraud:monitored", note="Geo permissions would have refused this.",
             data={"rule": "geo", "channel": "sms", "country": "DE"}),
        dict(base, label="fraud:blocked", channel="sms", outcome="failure", note="Geo refused the SMS step.",
             data={"rule": "geo", "channel": "sms", "country": "DE"}),
        dict(base, label="fraud:blocked", channel="voice", outcome="failure", note="A blocked range.",
             data={"rule": "prefix_volume", "prefix": "44791113", "sends": 12, "conversions": 1,
                   "baseline": 0.82, "retry_after": 3600}),
    ]
    export["events"] = events[:1] + added + events[1:]
    for seq, item in enumerate(export["events"], start=1):
        item["seq"] = seq
    path = tmp_path / "decisions.json"
    path.write_text(json.dumps(export))
    return path


def facts(page, label, nth=0):
    nodes = page.find_all(f'.event[data-label="{label}"] .fraud-facts')
    return nodes[nth].get_attribute("textContent")


def test_fraud_decisions_read_as_lines_with_their_rule_and_figures(page, console_url, tmp_path):
    start_replay(page, console_url, with_decisions(tmp_path))
    finish_replay(page)
    page.full_screenshot("replay-fraud-decisions")

    assert facts(page, "api:create") == "line: fixed line or mobile"
    assert facts(page, "fraud:bypassed") == "trusted by risk check off · skipped address limit, geo permissions"
    assert facts(page, "fraud:monitored") == "would be blocked by geo permissions · SMS · country DE"
    blocked = page.find_all('.group[data-channel=sms] .event[data-label="fraud:blocked"] .fraud-facts')
    assert [b.get_attribute("textContent") for b in blocked] == ["blocked by geo permissions · SMS · country DE"]
    prefix = page.find('.group[data-channel=voice] .event[data-label="fraud:blocked"] .fraud-facts')
    assert prefix.get_attribute("textContent") == (
        "blocked by prefix volume · prefix +44791113 · 12 sends · 1 conversion · baseline 82 % · retry after 1 h")
    # A decision stays a failure where it refused something, and reads with its note.
    assert "outcome-failure" in event(page, "fraud:blocked").get_attribute("class")
    assert event(page, "fraud:monitored").find_element("css selector", ".event-note").text
    # An event that decides nothing gets no such line.
    assert not page.find_all('.event[data-label="sms:code_sent"] .fraud-facts')
