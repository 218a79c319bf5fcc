"""Accessibility audits for the console's browser tests: axe-core (from the
selenium-axe-python package, read from disk, never fetched) run at desktop size
and at a phone's 390 × 844, with a screenshot of each and, on failure, the full
axe result saved beside it."""
import json
import pathlib

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium_axe_python import Axe

from conftest import SCREENSHOTS

PHONE = {"width": 390, "height": 844}
SIZES = ("desktop", "390x844")
AXE_SCRIPT = pathlib.Path(Axe(None).script_url)


def set_size(driver, size):
    """The phone size is an emulated viewport of exactly 390 × 844 CSS pixels; desktop is the window itself."""
    if size == "390x844":
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", dict(PHONE, deviceScaleFactor=1, mobile=True))
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def run_axe(driver, full=True):
    """Every rule axe runs by default, every impact; the page gets the script only once.
    Without `full`, only violations carry their nodes (much quicker; the verdict is the same)."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(AXE_SCRIPT.read_text(encoding="utf8"))
    options = {} if full else {"resultTypes": ["violations"]}
    # A row that has just arrived is still fading in, and axe would measure its colours
    # half-way; the page is judged as it stands once every finite animation has ended
    # (the pulse of the active step repeats forever and is left running).
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const finite = document.getAnimations().filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);"
        "Promise.all(finite.map((a) => a.finished.catch(() => null)))"
        ".then(() => axe.run(document, arguments[0])).then(done, (e) => done({error: String(e)}));", options)


def audit(page, screen):
    """Audits the page as it stands at both sizes; screenshots are named by screen and size.
    Fails with every violation found, after saving each size's full axe result."""
    found = []
    try:
        for size in SIZES:
            set_size(page.driver, size)
            name = f"{screen}-{size}"
            page.screenshot(name)
            saved = SCREENSHOTS / f"{name}.axe.json"
            saved.unlink(missing_ok=True)
            result = run_axe(page.driver, full=False)
            assert "error" not in result, result.get("error")
            violations = result["violations"]
            if violations:
                saved.write_text(json.dumps(run_axe(page.driver), indent=2))
                found.append(f"{size}: " + Axe.report(violations))
    finally:
        set_size(page.driver, "desktop")
    assert not found, f"axe found violations on {screen}:\n" + "\n".join(found)


def press(driver, *keys):
    """Keys go to whatever has focus, as a person's keyboard would send them."""
    ActionChains(driver).send_keys(*keys).perform()


def focused(driver):
    return driver.switch_to.active_element


def focus_ring(driver, element):
    """The width of the ring a sighted keyboard user sees on `element` (its outline or box-shadow,
    or its label's when the control itself is visually hidden), 0 when there is none."""
    return driver.execute_script("""
        let el = arguments[0];
        if (el.classList.contains('visually-hidden') && el.labels && el.labels.length) el = el.labels[0];
        const s = getComputedStyle(el);
        const outline = s.outlineStyle !== 'none' ? parseFloat(s.outlineWidth) : 0;
        const shadow = s.boxShadow !== 'none' ? 3 : 0;
        return Math.max(outline, shadow);""", element)


def tab_to(page, css, back=False, limit=40):
    """Presses Tab (Shift+Tab when `back`) until an element matching `css` has focus; every
    stop on the way must show a focus ring. Returns the ids (or tag names) of the stops, the target last."""
    stops = []
    for _ in range(limit):
        keys = ActionChains(page.driver)
        keys = keys.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT) if back else keys.send_keys(Keys.TAB)
        keys.perform()
        el = focused(page.driver)
        stops.append(el.get_attribute("id") or el.tag_name)
        assert focus_ring(page.driver, el) >= 2, f"no visible focus ring on {stops[-1]}"
        if page.driver.execute_script("return arguments[0].matches(arguments[1])", el, css):
            return stops
    raise AssertionError(f"Tab never reached {css}; it went {stops}")


def announcements(page):
    """What the console's polite live region has said, oldest first (it keeps the last few)."""
    return page.driver.execute_script(
        "return Array.from(document.querySelectorAll('#announcer > p'), (p) => p.textContent)")


def wait_announced(page, text, seconds=20):
    """Waits until the live region has said something containing `text`; returns everything said."""
    page.wait(lambda d: any(text in line for line in announcements(page)), seconds=seconds,
              message=f"the live region never said {text!r}; it said {announcements(page)}")
    return announcements(page)
