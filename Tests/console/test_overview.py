"""The overview screen against its own `tacit serve --dev` with a price table: a small known
history made through /v1 (silent successes and rejections, SMS and voice codes typed from
the handset inbox, verifications left pending or cancelled), then the charts' tables read
back, the table toggle, the period selector, and axe at desktop and at 390 × 844."""
import json
import re
import time
import urllib.request

import pytest

from selenium.webdriver.common.keys import Keys

from audit import PHONE, audit, focused, press, set_size, tab_to, wait_announced
from conftest import serve_dev

PRICES = "# channel,provider,country,price,currency\nsms,*,*,0.0500,USD\nvoice,*,*,0.0130,EUR\n"
HISTORY_WAIT = 20


def call(url, method="GET", body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def until(condition, what):
    """Polls the server (not the page) until `condition()` is true; the history is made asynchronously."""
    deadline = time.monotonic() + HISTORY_WAIT
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"the server never showed {what}")


def inbox(url, number):
    return call(f"{url}/v1/dev/handsets/%2B{number[1:]}/inbox")["messages"]


def code_in(url, number):
    """The code of the newest message, as the handset shows it (a voice call reads it digit by digit)."""
    body = until(lambda: inbox(url, number), f"a message to {number}")[-1]["body"]
    return re.sub(r"\D", "", re.search(r"is:? (\d(?:[ ,]*\d){3,9})", body).group(1))


def start(url, number, workflow=None):
    body = {"phone_number": number, "brand": "Overview"}
    if workflow:
        body["workflow"] = [{"channel": c} for c in workflow]
    return call(f"{url}/v1/verifications", "POST", body)


def silent_check(url, number, started):
    call(f"{url}/v1/dev/handsets/%2B{number[1:]}/silent-check", "POST", {
        "request_id": started["request_id"], "check_url": started["check_url"],
        "client_token": started["client_token"], "path": "cellular"})


def complete_with_code(url, number, workflow):
    started = start(url, number, workflow)
    call(f"{url}/v1/verifications/{started['request_id']}/check", "POST", {"code": code_in(url, number)})


def make_history(url):
    """Six verifications: two start silent (one confirmed, one rejected and left pending on SMS),
    two on SMS (one completed, one left pending), two on voice (one completed, one cancelled)."""
    silent_check(url, "+99012345670", start(url, "+99012345670"))
    silent_check(url, "+99012345671", start(url, "+99012345671"))
    complete_with_code(url, "+99012345681", ["sms", "voice"])
    start(url, "+99012345683", ["sms"])
    complete_with_code(url, "+99012345685", ["voice"])
    cancelled = start(url, "+99012345687", ["voice"])
    until(lambda: inbox(url, "+99012345687"), "the cancelled verification's call")
    call(f"{url}/v1/verifications/{cancelled['request_id']}", "DELETE")
    until(lambda: inbox(url, "+99012345671"), "the SMS after the rejected silent check")

    def settled():
        hour = lambda t: time.strftime("%Y-%m-%dT%H:00:00Z", time.gmtime(t))
        query = f"from={hour(time.time() - 2 * 86400)}&to={hour(time.time() + 3600)}&group_by=channel"
        totals = call(f"{url}/v1/insights/summary?{query}")["totals"]
        return totals["starts"] == 6 and totals["sends"] == 5 and totals["conversions"] == 3
    until(settled, "the whole history in the summary")


@pytest.fixture(scope="module")
def overview_url(tmp_path_factory):
    prices = tmp_path_factory.mktemp("prices") / "prices.csv"
    prices.write_text(PRICES)
    with serve_dev({"TACIT_PRICES": str(prices)}) as url:
        make_history(url)
        yield url


def open_overview(page, url):
    page.open(url + "/#overview")
    page.wait(lambda d: page.find("#overview-screen").get_attribute("data-state") == "ready",
              message="the overview never finished loading")


def table(page, css):
    """A chart's table as rows of cell texts, read from the page's text whether or not it is shown."""
    return page.driver.execute_script("""
        return Array.from(document.querySelectorAll(arguments[0] + ' tr'),
          (tr) => Array.from(tr.cells, (c) => c.textContent));""", css)


def total_row(page, channel):
    return table(page, f"#chart-funnel-{channel}-table")[-1]


def test_overview_charts_show_the_history_in_their_tables(page, overview_url):
    open_overview(page, overview_url)
    assert page.find("#period-7d").is_selected()
    funnels = [f.get_attribute("id") for f in page.find_all("#overview-charts figure[id^=chart-funnel-]")]
    # In the summary's order: most starts first, then most sends.
    assert funnels == ["chart-funnel-sms", "chart-funnel-voice", "chart-funnel-silent_auth"]
    assert table(page, "#chart-funnel-sms-table")[0] == ["Period", "Starts", "Sends", "Conversions"]
    assert total_row(page, "silent_auth") == ["Total", "2", "0", "1"]
    assert total_row(page, "sms") == ["Total", "2", "3", "1"]
    assert total_row(page, "voice") == ["Total", "2", "2", "1"]
    # The whole history is today's: the last day's row carries it, every other day is zero.
    days = table(page, "#chart-funnel-sms-table")[1:-1]
    assert len(days) == 7
    assert days[-1][1:] == ["2", "3", "1"] and all(row[1:] == ["0", "0", "0"] for row in days[:-1])

    headline = dict(zip([dt.text for dt in page.find_all("#overview-headline dt")],
                        [dd.text for dd in page.find_all("#overview-headline dd")]))
    assert headline["Starts"] == "6"
    assert headline["Conversions"] == "3"
    assert headline["Conversion rate"] == "50%"
    assert headline["Silent-auth success"] == "1 of 2 (50%)"
    assert headline["Spend"] == "0.026000 EUR, 0.150000 USD"

    assert table(page, "#chart-silent-country-table")[1:] == [["No country (virtual numbers)", "2", "1", "50%"]]
    providers = table(page, "#chart-providers-table")[1:]
    # The dev inbox sends no delivery receipts: its sends, and nothing delivered, undelivered or timed.
    assert providers == [["dev", "5", "0", "0", "–", "–"]]
    assert table(page, "#chart-providers-table")[0] == [
        "Provider", "Sends", "Delivered", "Undelivered", "Delivery rate", "Median delivery time"]
    assert table(page, "#chart-spend-table")[1:] == [["Voice", "EUR", "0.026000"], ["SMS", "USD", "0.150000"]]
    assert table(page, "#chart-blocked-table")[1:] == [["+990123", "0", "6"]]
    assert "blocked no send" in page.text("#chart-blocked-desc")
    assert "latency" in page.text("#chart-providers-desc")


def test_each_chart_is_a_named_image_with_its_table_for_screen_readers(page, overview_url):
    open_overview(page, overview_url)
    svgs = page.find_all("#overview-charts svg")
    assert len(svgs) >= 6
    for svg in svgs:
        assert svg.get_attribute("role") == "img"
        names = svg.get_attribute("aria-labelledby").split()
        assert all(page.find_all("#" + n) for n in names), names
        figure = page.driver.execute_script("return arguments[0].closest('figure')", svg)
        assert figure.find_elements("css selector", "table caption")
    # Tables are in the page (and the accessibility tree) before anyone asks to see them.
    wrap = page.find("#chart-funnel-sms-numbers")
    assert "visually-hidden" in wrap.get_attribute("class")
    toggle = page.find("#chart-funnel-sms .table-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.find("#chart-funnel-sms-table").is_displayed()
    assert page.find("#chart-funnel-sms-table tbody tr:last-child").text.split() == ["Total", "2", "3", "1"]
    # Every line ends in its name and value, so no legend (and no colour) is needed to tell them apart.
    labels = [t.text for t in page.find_all("#chart-funnel-sms-svg .end-label")]
    assert sorted(labels) == ["Conversions 1", "Sends 3", "Starts 2"]
    # Sends and delivered bars differ by fill pattern as well as colour, as drawn (the computed fill).
    fills = page.driver.execute_script(
        "return Array.from(document.querySelectorAll('#chart-providers-svg rect.bar'), (r) => getComputedStyle(r).fill)")
    assert len(fills) == 2 and fills[0].startswith("url(") and not fills[1].startswith("url("), fills


def test_the_period_selector_reloads_the_overview(page, overview_url):
    open_overview(page, overview_url)
    page.find('label[for="period-24h"]').click()
    page.wait(lambda d: "24 hours" in page.text("#overview-status") and
              page.find("#overview-screen").get_attribute("data-state") == "ready")
    wait_announced(page, "Overview of the last 24 hours loaded.")
    assert len(table(page, "#chart-funnel-sms-table")) == 1 + 6 + 1
    assert total_row(page, "sms") == ["Total", "2", "3", "1"]
    page.find('label[for="period-30d"]').click()
    page.wait(lambda d: "30 days" in page.text("#overview-status") and
              page.find("#overview-screen").get_attribute("data-state") == "ready")
    assert len(table(page, "#chart-funnel-voice-table")) == 1 + 30 + 1
    assert total_row(page, "voice") == ["Total", "2", "2", "1"]


def test_overview_passes_axe_at_desktop_and_phone_size(page, overview_url):
    open_overview(page, overview_url)
    page.find("#chart-funnel-sms .table-toggle").click()
    audit(page, "overview")
    # A full-height picture of each size too, so the charts below the fold are seen.
    set_size(page.driver, "390x844")
    try:
        width = page.driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the overview scrolls sideways at phone size ({width} px)"
        height = page.driver.execute_script("return document.documentElement.scrollHeight")
        page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    dict(PHONE, height=height, deviceScaleFactor=1, mobile=True))
        page.screenshot("overview-full-390x844")
    finally:
        set_size(page.driver, "desktop")
    page.full_screenshot("overview-full-desktop")


def test_the_overview_is_reached_from_the_sign_in_page_and_back(page, overview_url):
    page.open(overview_url + "/")
    page.find("#overview-link").click()
    page.wait(lambda d: page.find("#overview-screen").get_attribute("data-state") == "ready")
    assert not page.find("#signin-screen").is_displayed()
    page.find("#overview-back").click()
    page.wait(lambda d: page.find("#signin-screen").is_displayed())
    assert not page.find("#overview-screen").is_displayed()


def test_the_overview_works_with_the_keyboard_alone(page, overview_url):
    open_overview(page, overview_url)
    assert focused(page.driver).tag_name == "h1"
    tab_to(page, "#period-7d")
    press(page.driver, Keys.ARROW_RIGHT)
    assert page.find("#period-30d").is_selected()
    page.wait(lambda d: "30 days" in page.text("#overview-status") and
              page.find("#overview-screen").get_attribute("data-state") == "ready")
    tab_to(page, "#chart-funnel-sms .table-toggle")
    press(page.driver, Keys.ENTER)
    assert page.find("#chart-funnel-sms .table-toggle").get_attribute("aria-expanded") == "true"
    assert page.find("#chart-funnel-sms-table").is_displayed()
    # The shown table is the next stop, so a keyboard can scroll it sideways on a phone.
    tab_to(page, "#chart-funnel-sms-numbers")
    tab_to(page, "#overview-back", back=True)
    press(page.driver, Keys.ENTER)
    page.wait(lambda d: page.find("#signin-screen").is_displayed())
