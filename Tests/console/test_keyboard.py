"""Every flow with the keyboard alone: keys go through ActionChains to whatever has
focus, nothing is clicked. Each Tab stop must show a focus ring (tab_to checks it),
buttons answer Enter and Space, and focus moves where the next step is."""
from selenium.webdriver.common.keys import Keys

from audit import audit, focus_ring, focused, press, tab_to, wait_announced
from test_live_flow import LIVE_WAIT, code_from_phone, wait_status, wait_step
from test_replay import CASCADE, SILENT, finish_replay


def focused_is(page, css):
    return page.driver.execute_script("return document.activeElement.matches(arguments[0])", css)


def wait_focus(page, css):
    page.wait(lambda d: focused_is(page, css), seconds=LIVE_WAIT,
              message=f"focus never reached {css}; it is on {focused(page.driver).get_attribute('outerHTML')[:80]}")


def type_number(page, number, dev_mode):
    """Tab into the form, type the number, and (Space) turn Dev Mode on."""
    press(page.driver, Keys.TAB)
    assert focused_is(page, "#phone")
    press(page.driver, number)
    if dev_mode:
        tab_to(page, "#devmode")
        press(page.driver, Keys.SPACE)
        assert page.find("#devmode").is_selected()


def device_events(page):
    return len(page.find_all(".event[data-source=device]"))


def test_sign_in_tab_order_follows_the_page(live):
    press(live.driver, Keys.TAB)
    assert focused_is(live, "#phone") and focus_ring(live.driver, live.find("#phone")) >= 2
    press(live.driver, "+99012345680")
    stops = tab_to(live, "#phone-refresh")
    assert stops == [
        "email", "devmode", "signin-submit", "summary", "overview-link", "phone-net-cellular", "phone-refresh",
    ]


def test_silent_sign_in_on_the_virtual_phone_by_keyboard(live):
    type_number(live, "+99012345682", dev_mode=True)
    tab_to(live, "#phone-net-cellular")
    press(live.driver, Keys.ARROW_RIGHT)
    assert live.find("#phone-net-wifi").is_selected() and live.text(".net-indicator") == "Wi-Fi"
    press(live.driver, Keys.ARROW_LEFT)
    assert live.find("#phone-net-cellular").is_selected()
    tab_to(live, "#signin-submit", back=True)
    press(live.driver, Keys.ENTER)
    live.wait(lambda d: live.find("#dev-screen").is_displayed(), seconds=LIVE_WAIT)
    wait_status(live, "#dev-screen", "completed")
    assert focused_is(live, "#dev-title")
    assert "✓ Done" in live.text("#virtual-phone .silent-status")
    # The flow is here anyway: the phone's finished check is one of the states axe must pass.
    audit(live, "dev-silent-verified")


def test_run_the_phone_again_type_a_code_try_the_next_channel_cancel_and_export_by_keyboard(live, downloads):
    type_number(live, "+99012345797", dev_mode=True)
    tab_to(live, "#phone", back=True)
    press(live.driver, Keys.ENTER)
    live.wait(lambda d: live.find("#phone-run").is_enabled(), seconds=LIVE_WAIT, message="the phone's first try never ended")
    assert focused_is(live, "#dev-title")

    before = device_events(live)
    tab_to(live, "#phone-run")
    press(live.driver, Keys.ENTER)
    live.wait(lambda d: device_events(live) > before, seconds=LIVE_WAIT, message="Enter on Run silent check did nothing")
    # A check link works once: opened again, the server takes it for a replay and moves on to SMS.
    wait_step(live, "sms", "active")
    wait_focus(live, "#virtual-phone .silent-status")

    code = code_from_phone(live)
    assert tab_to(live, "#dev-code", back=True)[-3:] == ["dev-next", "dev-code-submit", "dev-code"]
    press(live.driver, code[:-1] + str((int(code[-1]) + 1) % 10), Keys.ENTER)
    wait_announced(live, "4 attempts left.")
    assert focused_is(live, "#dev-code")

    tab_to(live, "#dev-next")
    press(live.driver, Keys.ENTER)
    wait_step(live, "voice", "active")
    tab_to(live, "#dev-cancel")
    press(live.driver, Keys.SPACE)
    wait_status(live, "#dev-screen", "cancelled")

    request_id = live.driver.execute_script("return window.Tacit.app.session.id")
    target = downloads / f"tacit-timeline-{request_id}.json"
    tab_to(live, "#dev-export")
    press(live.driver, Keys.ENTER)
    live.wait(lambda d: target.exists() and target.stat().st_size > 0, message="Enter on Export downloaded nothing")


def test_plain_sign_in_by_keyboard_lands_in_the_code_box_and_back(live):
    type_number(live, "+99012345683", dev_mode=False)
    press(live.driver, Keys.ENTER)
    live.wait(lambda d: live.find("#plain-screen").get_attribute("data-view") == "code", seconds=LIVE_WAIT)
    wait_focus(live, "#plain-entry-code")
    press(live.driver, code_from_phone(live), Keys.ENTER)
    live.wait(lambda d: live.find("#plain-screen").get_attribute("data-view") == "done", seconds=LIVE_WAIT)
    wait_focus(live, "#plain-done h1")
    tab_to(live, "#plain-done .plain-restart")
    press(live.driver, Keys.ENTER)
    live.wait(lambda d: live.find("#signin-screen").is_displayed())
    assert focused_is(live, "#phone")


def test_load_and_replay_by_keyboard(page, console_url):
    page.open(console_url + "/")
    tab_to(page, "summary")
    press(page.driver, Keys.ENTER)
    assert page.find(".replay-entry").get_attribute("open") is not None
    tab_to(page, "#signin-load")
    # No keyboard drives a native file dialog: WebDriver hands the focused file input its file.
    focused(page.driver).send_keys(str(CASCADE))
    page.wait(lambda d: page.find("#dev-screen").is_displayed())
    assert focused_is(page, "#dev-title")

    tab_to(page, "#replay-speed")
    press(page.driver, Keys.END)
    assert page.find("#replay-speed").get_attribute("value") == "0"
    finish_replay(page)

    page.driver.execute_script("document.querySelectorAll('#timeline .event').forEach((e) => { e.dataset.old = '1'; })")
    tab_to(page, "#dev-replay-again")
    press(page.driver, Keys.SPACE)
    page.wait(lambda d: not page.find_all(".event[data-old]") and len(page.find_all(".event")) == 20,
              message="Space on Replay again did not replay")

    tab_to(page, "#dev-load", back=True)
    focused(page.driver).send_keys(str(SILENT))
    page.wait(lambda d: page.text("#dev-status").startswith("Replay · ✓ Verified by Silent auth"))
