"""The replay viewer in a real headless browser (Debian's Chromium driven by
Playwright): for a trace of each game, `boardlab view` writes a page that
must load without console errors or requests, change its board when stepped,
hide another seat's cards in a seat's point of view, and show the search's
candidates of a trace written with --trace-search. A screenshot of each
game's board is kept in BOARDLAB_ARTEFACTS (default: a temporary folder).

Run from the repository root after `cargo build`:
    python -m pytest -q tests/browser
"""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from test_report import ARGS, BINARY, CHROMIUM, ROOT, boardlab

ARTEFACTS = Path(
    os.environ.get("BOARDLAB_ARTEFACTS")
    or Path(tempfile.gettempdir()) / "boardlab-view-artefacts"
)

# (game spec, agents, seed): short games keep the test quick.
GAMES = {
    "fox": ("fox", "random,random", 1),
    "karmaka": ("karmaka", "random,random", 1),
    "karmox": ("karmox(max_rounds=6)", "random,random", 1),
    "hamunaptra": ("hamunaptra", "random,random", 1),
    "connect4": ("connect4", "mcts(iterations=40),random", 1),
}


@pytest.fixture(scope="module")
def pages():
    assert BINARY.exists(), "build the binary first: cargo build"
    tmp = Path(tempfile.mkdtemp(prefix="boardlab-view-"))
    out = {}
    for name, (spec, agents, seed) in GAMES.items():
        traces = tmp / name
        boardlab("run", "--game", spec, "--agents", agents, "--games", "1",
                 "--seed", str(seed), "--threads", "1", "--trace", str(traces),
                 "--trace-search", "-q")
        page = tmp / f"{name}.html"
        boardlab("view", str(traces / "game-00000000.jsonl"), "--out", str(page))
        out[name] = page
    yield out
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
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


def open_page(context, path):
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri(), wait_until="load")
    return page, errors


def board(page):
    return page.locator("#board").inner_html()


@pytest.mark.parametrize("name", list(GAMES))
def test_viewer(pages, browser, name):
    page, errors = open_page(browser, pages[name])
    assert errors == [], errors
    # Nothing is fetched: every resource is the page itself.
    assert page.evaluate("performance.getEntriesByType('resource').length") == 0
    box = page.locator("#board").bounding_box()
    assert box and box["width"] > 300 and box["height"] > 200, box
    total = int(page.locator("#total").inner_text())
    assert total > 3
    log = page.locator("#log li")
    assert log.count() == total
    # Stepping forward changes the board; stepping back restores it.
    start = board(page)
    changed = False
    for _ in range(min(total, 12)):
        page.locator("#fwd").click()
        changed |= board(page) != start
    assert changed, "stepping never changed the board"
    page.keyboard.press("Home")
    assert board(page) == start
    page.keyboard.press("ArrowRight")
    assert page.locator("#jump").input_value() == "1"
    page.keyboard.press("ArrowLeft")
    assert board(page) == start
    # Jump to a step, by its number.
    page.locator("#jump").fill(str(total // 2))
    page.locator("#jump").dispatch_event("change")
    assert page.locator("#log li.current").count() == 1
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.locator("#board").screenshot(path=str(ARTEFACTS / f"{name}.png"))
    # The last state shows the result.
    page.locator("#last").click()
    assert "game over" in page.locator("#status").inner_text()
    assert errors == [], errors


def test_seat_view_hides_other_hands(pages, browser):
    page, errors = open_page(browser, pages["karmaka"])
    total = int(page.locator("#total").inner_text())
    page.locator("#jump").fill(str(total // 2))
    page.locator("#jump").dispatch_event("change")
    everything = board(page)
    # Everything is face up in the omniscient view (the Well aside).
    assert 'href="#kback"' not in everything
    page.select_option("#pov", "1")
    seat0 = board(page)
    # Seat 0 does not know seat 1's Deck or Hand: card backs.
    assert 'href="#kback"' in seat0
    assert errors == [], errors


def test_search_candidates_are_shown(pages, browser):
    page, errors = open_page(browser, pages["connect4"])
    # The first decision is seat 0's, the searching agent's.
    rows = page.locator("#search table tr")
    assert rows.count() > 2
    assert page.locator("#search tr.chosen").count() == 1
    # Seat 1's point of view does not see seat 0's thoughts.
    page.select_option("#pov", "2")
    assert page.locator("#search table").count() == 0
    assert errors == [], errors


def test_link_names_a_state_and_a_seat_counted_from_zero(pages, browser):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(pages["karmaka"].as_uri() + "#step=6&pov=1", wait_until="load")
    # pov=1 is seat 1's view: the select shows it and the status the state.
    assert page.locator("#pov").input_value() == "2"
    assert "1" in page.locator("#pov option:checked").inner_text()
    assert page.locator("#jump").input_value() == "6"
    # Stepping keeps the address in step, so a copied link opens the same view.
    page.locator("#fwd").click()
    assert page.evaluate("location.hash") == "#step=7&pov=1"
    page.select_option("#pov", "0")
    assert page.evaluate("location.hash") == "#step=7&pov=all"
    # A seat the game does not have falls back to everything.
    page.goto(pages["karmaka"].as_uri() + "#pov=9", wait_until="load")
    page.reload(wait_until="load")
    assert page.locator("#pov").input_value() == "0"
    assert errors == [], errors


# Every <text> of the board's SVG, laid out by the browser, inside the SVG's
# view box: the texts that run past its edge (cut off on the page).
OUTSIDE = """() => {
  const svg = document.querySelector('svg');
  const vb = svg.viewBox.baseVal;
  return [...svg.querySelectorAll('text')].filter((t) => {
    const b = t.getBBox();
    return b.x < vb.x - 1 || b.x + b.width > vb.x + vb.width + 1 ||
      b.y < vb.y - 1 || b.y + b.height > vb.y + vb.height + 1;
  }).map((t) => t.textContent);
}"""


@pytest.mark.parametrize("name", [n for n in GAMES if n != "connect4"])
def test_no_text_runs_off_the_picture(pages, browser, name):
    page, errors = open_page(browser, pages[name])
    total = int(page.locator("#total").inner_text())
    for step in (0, total // 2, total):
        page.locator("#jump").fill(str(step))
        page.locator("#jump").dispatch_event("change")
        assert page.evaluate(OUTSIDE) == [], (name, step)
    assert errors == [], errors


def test_the_log_marks_each_seat_in_its_colour_on_the_board(pages, browser):
    # Connect Four's seat 0 plays yellow discs: its log lines are marked
    # yellow, not the blue of the page's palette; seat 1 red.
    page, errors = open_page(browser, pages["connect4"])
    colour = "(s) => getComputedStyle(document.querySelector('#log li.' + s)).borderLeftColor"
    assert page.evaluate(colour, "seat0") == "rgb(242, 194, 48)"
    assert page.evaluate(colour, "seat1") == "rgb(214, 39, 40)"
    # A game drawn in the page's own palette keeps it (Fox: seat 0 blue).
    fox, _ = open_page(browser, pages["fox"])
    assert fox.evaluate(colour, "seat0") == "rgb(31, 119, 180)"
    assert errors == [], errors


def test_hamunaptra_cards_show_their_whole_names(pages, browser):
    # A card's name runs on to a second line rather than being cut: every
    # name of up to 24 characters reads whole under its id.
    page, errors = open_page(browser, pages["hamunaptra"])
    cut = page.evaluate("""() => [...document.querySelectorAll('symbol[id^="h"]')]
      .filter((s) => s.id !== 'hback')
      .map((s) => [s.querySelector('title').textContent,
                   [...s.querySelectorAll('text')].slice(1).map((t) => t.textContent).join(' ')])
      .filter(([name, shown]) => shown && name.length <= 24 && shown !== name)""")
    assert cut == [], cut
    shown = page.evaluate("document.querySelectorAll('symbol[id^=\"h\"]').length")
    assert shown > 10, shown
    assert errors == [], errors


# The board's tiles as the browser lays them out: [x, y, width, height] in
# pixels, and the top of the first seat's panel.
TILES = """() => {
  const tiles = [...document.querySelectorAll('#board .map rect[fill="#8c7350"]')]
    .map((r) => { const b = r.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; });
  const seat = document.querySelector('#board .seat0 rect').getBoundingClientRect();
  return { tiles, seatTop: seat.y };
}"""


def test_hamunaptra_early_board_is_drawn_large(pages, browser):
    # The first turns' few tiles fill the map area instead of keeping the
    # scale of the whole game's map: at this window a tile is at least
    # 90 pixels across (55 at the final map's scale), and at every step the
    # tiles stay above the seats' panels.
    page, errors = open_page(browser, pages["hamunaptra"])
    total = int(page.locator("#total").inner_text())
    sizes = []
    for step in (0, 1, total // 2, total):
        page.locator("#jump").fill(str(step))
        page.locator("#jump").dispatch_event("change")
        laid = page.evaluate(TILES)
        assert laid["tiles"], step
        for x, y, w, h in laid["tiles"]:
            assert y + h <= laid["seatTop"] + 1, (step, y, h, laid["seatTop"])
        sizes.append(min(w for _, _, w, _ in laid["tiles"]))
    assert sizes[0] >= 90, sizes
    assert errors == [], errors
