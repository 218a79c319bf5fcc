"""At a phone's 390 × 844 the channel tracker keeps to one row, the header stays
small, and when a code is expected its box is on screen without scrolling; code
boxes keep the attributes that let a phone offer the SMS code itself. Motion stops
for people whose system asks for less of it."""
import pytest
from selenium.webdriver.support.ui import Select

from audit import PHONE, set_size
from test_audit_replay import expired_export
from test_live_flow import LIVE_WAIT, sign_in, wait_step
from test_replay import CASCADE, finish_replay, start_replay


@pytest.fixture
def phone_size(page):
    set_size(page.driver, "390x844")
    yield page
    set_size(page.driver, "desktop")


def rect(page, css):
    return page.driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", page.find(css))


def assert_compact_header(page):
    pills = [page.driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", li)
             for li in page.find_all("#tracker li")]
    assert len(pills) == 3
    assert len({round(p["top"]) for p in pills}) == 1, f"the tracker wraps: {pills}"
    assert all(p["left"] >= 0 and p["right"] <= PHONE["width"] for p in pills)
    header = rect(page, ".dev-top")
    assert header["height"] <= PHONE["height"] / 5, f"the header takes {header['height']} px"


def assert_code_box_on_screen(page, prefix):
    assert page.driver.execute_script("return window.scrollY") == 0
    top = rect(page, ".dev-top")["bottom"] if page.find("#dev-screen").is_displayed() else 0
    for css in (f"#{prefix}-code", f"#{prefix}-code-submit", f"#{prefix}-code-title"):
        box = rect(page, css)
        assert box["top"] >= top and box["bottom"] <= PHONE["height"], f"{css} is off screen: {box}"
    code = page.find(f"#{prefix}-code")
    assert code.get_attribute("inputmode") == "numeric"
    assert code.get_attribute("autocomplete") == "one-time-code"


@pytest.mark.parametrize("export", ["cascade", "expired"])
def test_the_tracker_fits_one_row_at_phone_size(phone_size, console_url, tmp_path, export):
    start_replay(phone_size, console_url, CASCADE if export == "cascade" else expired_export(tmp_path))
    finish_replay(phone_size)
    assert_compact_header(phone_size)


def test_dev_mode_code_box_is_on_screen_at_phone_size(phone_size, tacit_url):
    phone_size.open(tacit_url + "/")
    try:
        sign_in(phone_size, "+99012345689", dev_mode=True)
        wait_step(phone_size, "sms", "active")
        phone_size.wait(lambda d: phone_size.find("#dev-screen .code-entry").is_displayed(), seconds=LIVE_WAIT)
        assert_compact_header(phone_size)
        assert_code_box_on_screen(phone_size, "dev")
    finally:
        phone_size.driver.execute_script("if (window.Tacit.app.session) window.Tacit.app.signOut();")


def test_plain_code_box_is_on_screen_at_phone_size(phone_size, tacit_url):
    phone_size.open(tacit_url + "/")
    try:
        sign_in(phone_size, "+99012345691", dev_mode=False)
        phone_size.wait(lambda d: phone_size.find("#plain-screen").get_attribute("data-view") == "code", seconds=LIVE_WAIT)
        assert_code_box_on_screen(phone_size, "plain-entry")
    finally:
        phone_size.driver.execute_script("if (window.Tacit.app.session) window.Tacit.app.signOut();")


MOVING = """
    const moving = [];
    for (const el of document.querySelectorAll('*')) {
      for (const pseudo of [null, '::before', '::after']) {
        const s = getComputedStyle(el, pseudo);
        const timed = s.transitionDuration.split(',').some((d) => parseFloat(d) > 0);
        if (s.animationName !== 'none' || timed) moving.push((el.id || el.className || el.tagName) + (pseudo || ''));
      }
    }
    return moving;"""


def test_reduced_motion_stops_every_animation_and_transition(page, console_url):
    start_replay(page, console_url, CASCADE, speed="1")
    page.wait(lambda d: page.find_all('.event[data-label="sms:code_sent"]'))
    pulse = ".step.is-active .step-icon"
    assert page.find(pulse).value_of_css_property("animation-name") == "pulse"
    assert page.driver.execute_script(MOVING)
    try:
        page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                    {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        assert page.driver.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches")
        assert page.driver.execute_script(MOVING) == []
    finally:
        page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    Select(page.find("#replay-speed")).select_by_value("0")
    finish_replay(page)
