"""Shared fixtures for the console's browser tests: a headless Chromium and a
static server for the console's files on an ephemeral loopback port."""
import contextlib
import functools
import http.server
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import threading

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONSOLE_DIR = ROOT / "Sources" / "TacitServer" / "Console"
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"
SCREENSHOTS = ROOT / ".build" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT_SECONDS = 10


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def console_url():
    """The Console folder served over HTTP on 127.0.0.1, port chosen by the OS."""
    handler = functools.partial(QuietHandler, directory=str(CONSOLE_DIR))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def tacit_url():
    """A real `tacit serve --dev`: the one at TACIT_URL, or one started here from the
    binary at TACIT_BIN on an ephemeral port with a fresh SQLite file."""
    if os.environ.get("TACIT_URL"):
        yield os.environ["TACIT_URL"].rstrip("/")
        return
    with serve_dev() as url:
        yield url


@contextlib.contextmanager
def serve_dev(env=None):
    """Starts `tacit serve --dev` from TACIT_BIN on an ephemeral port with a fresh SQLite file,
    with `env` added to its environment; yields its base URL and stops it afterwards."""
    binary = os.environ.get("TACIT_BIN")
    if not binary:
        pytest.skip("neither TACIT_URL nor TACIT_BIN is set: no server to test against")
    workdir = tempfile.mkdtemp(prefix="tacit-console-")
    log = open(os.path.join(workdir, "serve.log"), "w+")
    process = subprocess.Popen([binary, "serve", "--dev", "--port", "0", "--db", os.path.join(workdir, "tacit.db")],
                               stdout=subprocess.PIPE, stderr=log, text=True, env=dict(os.environ, **(env or {})))
    try:
        line = process.stdout.readline()
        match = re.search(r"(http://\S+)", line)
        if not match:
            pytest.fail(f"tacit serve did not print its URL: {line!r}")
        yield match.group(1).rstrip("/")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def downloads():
    path = pathlib.Path(tempfile.mkdtemp(prefix="tacit-console-downloads-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def browser(downloads):
    for binary in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(binary):
            pytest.fail(f"{binary} is missing: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1400,1000", "--no-first-run", "--disable-extensions"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {
        "download.default_directory": str(downloads),
        "download.prompt_for_download": False,
    })
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    yield driver
    driver.quit()


@pytest.fixture
def page(browser):
    """The browser with a fresh page for each test, and a screenshot helper."""
    yield Page(browser)
    browser.get("about:blank")


@pytest.fixture
def live(page, tacit_url):
    """A page on the server's console; a verification left pending is cancelled afterwards."""
    page.open(tacit_url + "/")
    yield page
    page.driver.execute_script("if (window.Tacit.app.session) window.Tacit.app.signOut();")


class Page:
    def __init__(self, driver):
        self.driver = driver

    def open(self, url):
        self.driver.get(url)
        self.wait(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))

    def wait(self, condition, seconds=WAIT_SECONDS, message=""):
        # The console redraws pills and bars as events land: a stale read just means "look again".
        ignored = (NoSuchElementException, StaleElementReferenceException)
        return WebDriverWait(self.driver, seconds, ignored_exceptions=ignored).until(condition, message)

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def text(self, css):
        return self.find(css).text

    def screenshot(self, name):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))

    def full_screenshot(self, name):
        """Resizes to the page's full height first, so the whole timeline is in the picture."""
        height = self.driver.execute_script("return document.documentElement.scrollHeight")
        size = self.driver.get_window_size()
        self.driver.set_window_size(size["width"], max(size["height"], height + 120))
        self.screenshot(name)
        self.driver.set_window_size(size["width"], size["height"])
