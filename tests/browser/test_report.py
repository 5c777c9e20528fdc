"""The dashboard in a real headless browser (Debian's Chromium driven by
Playwright): a small run, a small experiment and a balance-against-skill study are made with the release
binary, `boardlab report` writes their pages, and each page must load without
console errors or failed requests and show its headline table and charts.

Run from the repository root after `cargo build --release`:
    python -m pytest -q tests/browser
"""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
# BOARDLAB_BIN names the binary (CI uses the debug build that `cargo test`
# made); by default the release build, else the debug one.
BINARY = Path(
    os.environ.get("BOARDLAB_BIN")
    or next(
        (p for p in (ROOT / "target" / "release" / "boardlab",) if p.exists()),
        ROOT / "target" / "debug" / "boardlab",
    )
)
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOT = os.environ.get("BOARDLAB_SCREENSHOT")


def boardlab(*args):
    out = subprocess.run(
        [str(BINARY), *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out


@pytest.fixture(scope="module")
def studies():
    assert BINARY.exists(), "build the binary first: cargo build --release"
    tmp = Path(tempfile.mkdtemp(prefix="boardlab-browser-"))
    run = tmp / "run"
    boardlab("run", "--game", "karmox", "--agents", "random,random",
             "--games", "30", "--seed", "2", "--threads", "1", "--out", str(run), "-q")
    boardlab("summarize", str(run))
    boardlab("quality", "--game", "karmox", "--agents", "random,random",
             "--games", "6", "--threads", "1", "--out", str(run / "quality"))
    boardlab("report", str(run))
    exp_file = tmp / "tiles.toml"
    exp_file.write_text(
        'description = "Fox tile sets"\ngame = "fox"\ngames = 40\nseed = 5\n'
        'sweep = { tiles = ["experiments/fox-tiles/standard.toml", '
        '"experiments/fox-tiles/orthogonal.toml"] }\nlineups = [["random"]]\n'
    )
    exp = tmp / "exp"
    boardlab("experiment", str(exp_file), "--out", str(exp), "--threads", "1", "-q")
    boardlab("report", str(exp))
    # Three-player Fox: the two guardians' seats share every result.
    guard_file = tmp / "guardians.toml"
    guard_file.write_text(
        'description = "Fox for three"\ngame = "fox(players=3)"\ngames = 30\nseed = 5\n'
        'sweep = { tiles = ["experiments/fox-tiles/standard.toml", '
        '"experiments/fox-tiles/orthogonal.toml"] }\nlineups = [["random"]]\n'
    )
    guard = tmp / "guard"
    boardlab("experiment", str(guard_file), "--out", str(guard), "--threads", "1", "-q")
    boardlab("report", str(guard))
    # A balance-against-skill study alone in its folder (balance.csv).
    skill = tmp / "balance"
    boardlab("balance", "--game", "planted", "--agent", "mcts", "--budgets", "16,32",
             "--max-games", "200", "--ladder-games", "20", "--threads", "1",
             "--out", str(skill))
    boardlab("report", str(skill))
    # Four-player Fox: seats 0 and 2 (the foxes) share every result, and so
    # do seats 1 and 3.
    teams = tmp / "teams"
    boardlab("balance", "--game", "fox(players=4)", "--agent", "mcts", "--budgets", "4,8",
             "--max-games", "40", "--ladder-games", "4", "--threads", "1",
             "--out", str(teams))
    boardlab("report", str(teams))
    yield {"run": run, "exp": exp, "balance": skill, "guard": guard, "teams": teams}
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
            viewport={"width": 1100, "height": 900},
        )
        yield context
        context.close()
    shutil.rmtree(user_data, ignore_errors=True)


def open_page(context, path):
    page = context.new_page()
    errors, failed = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.goto(path.as_uri(), wait_until="load")
    return page, errors, failed


def check(page, errors, failed):
    assert errors == [], errors
    assert failed == [], failed
    # The headline table comes first, with one row per run or cell.
    first = page.locator("section").first
    assert first.get_attribute("id") == "headline"
    assert page.locator("#headline-table tbody tr").count() >= 1
    assert "capped" in page.locator("#headline-table thead").inner_text()
    # Charts are inline SVG that the browser lays out with a real size.
    charts = page.locator("figure svg")
    assert charts.count() >= 3
    for i in range(charts.count()):
        box = charts.nth(i).bounding_box()
        assert box and box["width"] > 200 and box["height"] > 100, box
    # Nothing is fetched: every resource is the page itself.
    urls = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert urls == [], urls


def test_run_page(studies, browser):
    page, errors, failed = open_page(browser, studies["run"] / "report.html")
    check(page, errors, failed)
    # Drafted characters: one row per character, never a combination.
    roles = page.locator("#roles figure svg circle")
    assert roles.count() >= 6
    labels = page.locator("#roles tbody tr td:nth-child(2)").all_inner_texts()
    assert labels and all("+" not in l for l in labels), labels
    assert page.locator("section[id^=quality]").count() == 1


def test_experiment_page(studies, browser):
    page, errors, failed = open_page(browser, studies["exp"] / "report.html")
    check(page, errors, failed)
    assert page.locator("#headline-table tbody tr").count() == 2
    assert page.locator("#comparisons figure svg").count() == 1
    # The tile-set sweep: categories on their own axis, by file name.
    sweep = page.locator("#sweeps figure svg").first.inner_html()
    assert "standard.toml" in sweep and "orthogonal.toml" in sweep
    if SCREENSHOT:
        page.set_viewport_size({"width": 1200, "height": 1500})
        page.screenshot(path=SCREENSHOT, full_page=False)


def test_balance_page(studies, browser):
    page, errors, failed = open_page(browser, studies["balance"] / "report.html")
    assert errors == [], errors
    assert failed == [], failed
    # The skill curve: a chart for the seats and one for the roles, each with
    # a line per group through a point per budget and the fair share dashed.
    charts = page.locator("#balance-0 figure svg.skill-curve")
    assert charts.count() == 2
    for i in range(2):
        chart = charts.nth(i)
        box = chart.bounding_box()
        assert box and box["width"] > 200 and box["height"] > 100, box
        assert chart.locator("polyline.curve").count() == 2
        assert chart.locator("g.point").count() == 4
        assert chart.locator("line.fair").count() == 1
        # Drawn, not just present: each line joins its two budgets, and every
        # point's dot is laid out inside the chart.
        points = chart.locator("polyline.curve").first.get_attribute("points")
        assert len(points.split()) == 2, points
        for j in range(4):
            dot = chart.locator("g.point circle").nth(j).bounding_box()
            assert dot and dot["width"] > 0, dot
            assert box["x"] <= dot["x"] <= box["x"] + box["width"], (dot, box)
    assert "Elo" in charts.first.inner_html()
    # Two seats and two roles at two budgets, then the one ending at each
    # budget (a table row each; a single ending draws no chart).
    rows = page.locator("#balance-0 tbody tr")
    assert rows.count() == 10
    assert rows.nth(9).inner_text().startswith("ending")


def test_titles_name_the_study_not_its_folder(studies, browser):
    # The folders are called run, exp and balance; each page is titled by
    # what its study recorded: the run's game and agents, the experiment's
    # file, the balance study's game and agent.
    expected = {
        "run": "karmox(players=2) with random, random: dashboard",
        "exp": "experiment tiles: dashboard",
        "balance": "balance of planted with mcts: dashboard",
    }
    for key, title in expected.items():
        page, errors, failed = open_page(browser, studies[key] / "report.html")
        assert page.locator("h1").inner_text() == title, key
        assert page.title() == title, key
        assert errors == [] and failed == [], (errors, failed)


def test_identical_seats_share_one_named_line(studies, browser):
    # In four-player Fox seats 0 and 2 share every result, as do seats 1 and
    # 3: their curves would draw on top of each other, so the skill chart
    # draws one line for each pair, whose legend names both seats, and the
    # caption says so.
    page, errors, failed = open_page(browser, studies["teams"] / "report.html")
    assert errors == [] and failed == [], (errors, failed)
    chart = page.locator("figure").filter(has_text="Seat win rates against skill").first
    svg = chart.locator("svg.skill-curve")
    texts = svg.locator("text").evaluate_all("els => els.map(e => e.textContent)")
    seats = [t for t in texts if t.startswith("seat ")]
    assert seats == ["seat 0 = seat 2 (identical)", "seat 1 = seat 3 (identical)"], texts
    assert svg.locator("polyline.curve").count() == 2
    caption = chart.locator("figcaption").inner_text()
    assert "share one line: seat 0 = seat 2 (identical); seat 1 = seat 3 (identical)" in caption


def test_a_side_of_seats_is_one_line_in_a_sweep(studies, browser):
    # Three-player Fox: the guardians' seats 1 and 2 are read as one side,
    # one line in the sweep chart, never two lines on top of each other.
    page, errors, failed = open_page(browser, studies["guard"] / "report.html")
    assert errors == [] and failed == [], (errors, failed)
    chart = page.locator("#sweeps figure").first
    texts = chart.locator("svg text").evaluate_all("els => els.map(e => e.textContent)")
    seats = [t for t in texts if "seat" in t and "against" not in t]
    assert len(seats) == 2 and seats[0] == "seat 0", texts
    assert seats[1].startswith("side of seats 1"), texts
