"""`boardlab play --html` in a real headless browser (Debian's Chromium driven
by Playwright): the binary serves the game on a free localhost port; the page
must load without console errors, show the human seat's legal moves as
buttons, change its board when one is clicked, play a tic-tac-toe game
against random to its result (the human's own moves in the log, the status
line stating the outcome, one word, "seat", for a seat, and the server
stopping by itself with the page saying so), hide the other seat's cards in
Karmaka, and end the process cleanly when Quit is clicked, the page showing
that the game stopped. A page of another origin cannot play.

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
    page.wait_for_selector("#stopped:not([hidden])")
    assert "You quit" in page.locator("#stopped").inner_text()
    assert "stopped" in page.locator("#stopped").inner_text()
    assert page.locator("#moves button").count() == 0
    assert page.locator("#quit").is_disabled() and page.locator("#undo").is_disabled()
    assert proc.wait(timeout=20) == 0, proc.stderr.read()
    assert "game ended: you quit" in proc.stdout.read()


def test_tictactoe_against_random_to_the_end(browser):
    proc, url = serve("--game", "tictactoe", "--agents", "human,random", "--seed", "3")
    try:
        page, errors = open_page(browser, url)
        status = page.locator("#status").inner_text()
        assert status.startswith("your move: you hold seat 0"), status
        keys = [b.get_attribute("data-key") for b in page.locator("#moves button").all()]
        assert keys == [str(k) for k in range(1, 10)]
        start = page.locator("#board").inner_html()
        # The centre; random answers on cell 8 with this seed.
        page.locator('#moves button[data-key="5"]').click()
        page.wait_for_function("document.querySelectorAll('#log li').length >= 2")
        # The human's own move is in the log, before the answer.
        lines = page.locator("#log li").all_inner_texts()
        assert lines[0].startswith("seat 0 (you): cell 5"), lines
        assert lines[1].startswith("seat 1 (random): cell 8"), lines
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
        # The status states the outcome; no seat is "to move" any more.
        status = page.locator("#status").inner_text()
        assert re.fullmatch(r"game over: you \(seat 0\) (won|lost|drew)", status), status
        lines = page.locator("#log li").all_inner_texts()
        mine = [l for l in lines if l.startswith("seat 0 (you): ")]
        assert len(mine) >= 3, lines
        # One word for a seat on the whole page.
        assert "Player" not in page.locator("body").inner_text()
        # The server stops by itself, and the page says so.
        page.wait_for_selector("#stopped:not([hidden])")
        assert "game is over" in page.locator("#stopped").inner_text()
        assert page.locator("#quit").is_disabled()
        assert proc.wait(timeout=20) == 0, proc.stderr.read()
        assert errors == [], errors
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


def test_another_origin_cannot_play(browser):
    """A page of another origin (another localhost port) posting a move (a
    simple request, sent without preflight) is refused, and the game does not
    move."""
    import http.server
    import threading

    class Other(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"<p>another site</p>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    other_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Other)
    threading.Thread(target=other_server.serve_forever, daemon=True).start()
    proc, url = serve("--game", "tictactoe", "--agents", "human,random", "--seed", "3")
    try:
        page, errors = open_page(browser, url)
        other = browser.new_page()
        other.goto(f"http://127.0.0.1:{other_server.server_address[1]}/")
        sent = other.evaluate(
            """async (url) => {
                for (const path of ["move", "undo"]) {
                    await fetch(url + path, { method: "POST", mode: "no-cors",
                        headers: { "Content-Type": "text/plain" }, body: "5" });
                }
                return "sent";
            }""",
            url,
        )
        assert sent == "sent"
        other.close()
        # The human's page still offers every move: nothing was played.
        page.wait_for_timeout(500)
        assert page.locator("#moves button").count() == 9
        assert page.locator("#log li").count() == 0
        assert errors == [], errors
        quit_and_wait(page, proc)
    finally:
        proc.kill()
        other_server.shutdown()


def test_tictactoe_move_by_clicking_a_cell(browser):
    # The empty cells are highlighted on the board; clicking one plays there.
    proc, url = serve("--game", "tictactoe", "--agents", "human,random", "--seed", "3")
    try:
        page, errors = open_page(browser, url)
        assert page.locator("#board [data-pick].cand").count() == 9
        page.locator('#board [data-pick="cell:5"]').click()
        page.wait_for_function("document.querySelectorAll('#log li').length >= 2")
        lines = page.locator("#log li").all_inner_texts()
        assert lines[0].startswith("seat 0 (you): cell 5"), lines
        assert lines[1].startswith("seat 1 (random): cell 8"), lines
        page.wait_for_selector("#moves button:not([disabled])")
        # The taken cells are no longer offered, the free ones are.
        cands = page.eval_on_selector_all(
            "#board [data-pick].cand", "els => els.map(e => e.getAttribute('data-pick'))")
        assert sorted(cands) == [f"cell:{k}" for k in (1, 2, 3, 4, 6, 7, 9)], cands
        # A taken cell does nothing when clicked.
        page.locator('#board [data-pick="cell:5"]').click()
        page.wait_for_timeout(300)
        assert page.locator("#log li").count() == 2
        assert errors == [], errors
        quit_and_wait(page, proc)
    finally:
        proc.kill()


def test_connect4_move_by_clicking_a_column(browser):
    proc, url = serve("--game", "connect4", "--agents", "human,random", "--seed", "3")
    try:
        page, errors = open_page(browser, url)
        assert page.locator("#board [data-pick].cand").count() == 7
        start = page.locator("#board .discs").inner_html()
        page.locator('#board [data-pick="column:4"]').click()
        page.wait_for_function("document.querySelectorAll('#log li').length >= 2")
        lines = page.locator("#log li").all_inner_texts()
        assert lines[0].startswith("seat 0 (you): column 4"), lines
        page.wait_for_selector("#moves button:not([disabled])")
        assert page.locator("#board .discs").inner_html() != start
        assert errors == [], errors
        quit_and_wait(page, proc)
    finally:
        proc.kill()


def play_by_clicks(page):
    """Plays the offered move with the most picks by clicking its parts of
    the board in order (a button among those left highlighted when the
    parts allow several); an unfinished choice is cancelled once by Escape.
    Returns the move's label."""
    choice = page.evaluate("boardlabChoice()")
    offered, picks = choice["offered"], choice["picks"]
    i = max(range(len(offered)), key=lambda k: len(picks[k]))
    assert picks[i], ("no move is chosen on the board", offered)
    key, label = offered[i]
    first = page.locator(f'#board [data-pick="{picks[i][0]}"]').first
    assert "cand" in first.get_attribute("class")
    cancelled = False
    n = len(page.locator("#log li").all())
    for j, p in enumerate(picks[i]):
        page.locator(f'#board [data-pick="{p}"].cand').first.click()
        left = sum(1 for q in picks if q[: j + 1] == picks[i][: j + 1])
        if left > 1 and not cancelled:
            # Escape forgets the parts chosen: the first click again.
            assert page.locator("#board [data-pick].picked").count() >= 1
            page.keyboard.press("Escape")
            assert page.locator("#board [data-pick].picked").count() == 0
            cancelled = True
            for q in picks[i][: j + 1]:
                page.locator(f'#board [data-pick="{q}"].cand').first.click()
    if page.locator("#log li").count() == n and sum(1 for q in picks if q == picks[i]) > 1:
        button = page.locator(f'#moves button.cand[data-key="{key}"]')
        assert button.count() == 1
        button.click()
    page.wait_for_function(
        "([n, label]) => [...document.querySelectorAll('#log li')].slice(n)"
        ".some(li => li.textContent.startsWith('seat 0 (you): ' + label))",
        arg=[n, label],
    )
    return label


WAIT_TURN = (
    "!document.getElementById('result').hidden"
    " || [...document.querySelectorAll('#moves button')].some(b => !b.disabled)"
)


@pytest.mark.parametrize(
    "spec", ["tictactoe", "connect4", "fox", "karmaka", "karmox", "hamunaptra"])
def test_moves_by_clicking_the_board(browser, spec):
    # Two of the human's moves are made by clicking the board (a move no
    # part of the board chooses, such as a draft, by its button).
    proc, url = serve("--game", spec, "--agents", "human,random", "--seed", "2")
    try:
        page, errors = open_page(browser, url)
        clicked = 0
        for _ in range(60):
            page.wait_for_function(WAIT_TURN)
            if clicked == 2 or page.locator("#result").is_visible():
                break
            if any(page.evaluate("boardlabChoice().picks")):
                play_by_clicks(page)
                clicked += 1
            else:
                n = page.locator("#log li").count()
                page.locator("#moves button").first.click()
                page.wait_for_function(
                    "(n) => document.querySelectorAll('#log li').length > n", arg=n)
        assert clicked == 2, spec
        assert errors == [], errors
        quit_and_wait(page, proc)
    finally:
        proc.kill()


def test_hamunaptra_card_chosen_by_clicking_it_in_the_hand(browser):
    # A card to lay (or offer, give back, discard) is chosen by clicking it
    # in the human's hand; moves the board does not choose go by button.
    proc, url = serve("--game", "hamunaptra", "--agents", "human,random", "--seed", "2")
    try:
        page, errors = open_page(browser, url)
        played = None
        for _ in range(150):
            page.wait_for_function(WAIT_TURN)
            if page.locator("#result").is_visible():
                break
            choice = page.evaluate("boardlabChoice()")
            hand = [k for k, p in enumerate(choice["picks"]) if p and p[0].startswith("hand0:")]
            n = page.locator("#log li").count()
            if hand:
                key, label = choice["offered"][hand[0]]
                pick = choice["picks"][hand[0]][0]
                card = page.locator(f'#board .hand [data-pick="{pick}"].cand')
                assert card.count() >= 1
                card.first.click()
                page.wait_for_function(
                    "([n, label]) => [...document.querySelectorAll('#log li')].slice(n)"
                    ".some(li => li.textContent.startsWith('seat 0 (you): ' + label))",
                    arg=[n, label],
                )
                played = label
                break
            page.locator("#moves button").first.click()
            page.wait_for_function(
                "(n) => document.querySelectorAll('#log li').length > n", arg=n)
        assert played, "no card of the hand was offered"
        assert errors == [], errors
        quit_and_wait(page, proc)
    finally:
        proc.kill()
