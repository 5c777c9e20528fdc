"""`boardlab play --html` in a real headless browser (Debian's Chromium driven
by Playwright): the binary serves the game on a free localhost port; the page
must load without console errors, show the human seat's legal moves as
buttons, change its board when one is clicked, play a tic-tac-toe game
against random to its result, hide the other seat's cards in Karmaka, and end
the process cleanly when Quit is clicked.

Run from the repository root after `cargo build`:
    python -m pytest -q tests/browser
"""

import re
import shutil
import subprocess
import tempfile

import pytest
from playwright.sync_api import sync_playwright

from test_report import ARGS, BINARY, CHROMIUM, ROOT


@pytest.fixture(scope="module")
def browser():
    assert BINARY.exists(), "build the binary first: cargo build"
    user_data = tempfile.mkdtemp(prefix="boardlab-chromium-")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            user_data,
            executable_path=CHROMIUM,
            headless=True,
            args=ARGS,
            viewport={"width": 1400, "height": 1000},
        )
        yield context
        context.close()
    shutil.rmtree(user_data, ignore_errors=True)


def serve(*args):
    """Starts `boardlab play --html` on a free port; returns it and its URL."""
    proc = subprocess.Popen(
        [str(BINARY), "play", "--html", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert m, line + proc.stderr.read()
    return proc, m.group(0)


def open_page(context, url):
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="load")
    page.wait_for_selector("#moves button")
    return page, errors


def quit_and_wait(page, proc):
    page.locator("#quit").click()
    page.wait_for_function("document.getElementById('notice').textContent === 'game closed'")
    assert proc.wait(timeout=20) == 0, proc.stderr.read()


def test_tictactoe_against_random_to_the_end(browser):
    proc, url = serve("--game", "tictactoe", "--agents", "human,random", "--seed", "3")
    try:
        page, errors = open_page(browser, url)
        assert "you hold seat 0" in page.locator("#seat").inner_text()
        keys = [b.get_attribute("data-key") for b in page.locator("#moves button").all()]
        assert keys == [str(k) for k in range(1, 10)]
        start = page.locator("#board").inner_html()
        # The centre; random answers on cell 8 with this seed.
        page.locator('#moves button[data-key="5"]').click()
        page.wait_for_function("document.querySelectorAll('#log li').length >= 1")
        assert "seat 1 (random): cell 8" in page.locator("#log").inner_text()
        page.wait_for_selector("#moves button")
        assert page.locator("#board").inner_html() != start
        keys = [b.get_attribute("data-key") for b in page.locator("#moves button").all()]
        assert "5" not in keys and "8" not in keys and len(keys) == 7
        # Play the first listed move until the game ends.
        for _ in range(5):
            if page.locator("#result").is_visible():
                break
            page.locator("#moves button").first.click()
            page.wait_for_function(
                "!document.getElementById('result').hidden"
                " || (document.querySelectorAll('#moves button').length > 0"
                " && ![...document.querySelectorAll('#moves button')].some(b => b.disabled))"
            )
        result = page.locator("#result").inner_text()
        assert "game over" in result and "seat 0 (human)" in result, result
        assert page.locator("#moves button").count() == 0
        assert errors == [], errors
        quit_and_wait(page, proc)
    finally:
        proc.kill()


def test_karmaka_shows_only_the_human_seat(browser):
    proc, url = serve("--game", "karmaka", "--agents", "human,random", "--seed", "1")
    try:
        page, errors = open_page(browser, url)
        board = page.locator("#board").inner_html()
        # The other seat's Hand and Deck are card backs; the moves name cards
        # by the codes the board prints.
        assert 'href="#kback"' in board
        keys = [b.get_attribute("data-key") for b in page.locator("#moves button").all()]
        assert "pass" in keys and any(k.endswith("-points") for k in keys), keys
        code = next(k for k in keys if k.endswith("-points"))[:3]
        page.locator(f'#moves button[data-key="{code}-points"]').click()
        page.wait_for_function("(b) => document.getElementById('board').innerHTML !== b", arg=board)
        assert errors == [], errors
        quit_and_wait(page, proc)
    finally:
        proc.kill()
