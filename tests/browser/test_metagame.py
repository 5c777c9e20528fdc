"""The meta-game's dashboard in a real headless browser: a small cross-play
study at two budgets is made with the binary, `boardlab report` writes its
page, and the page must load without console errors or fetches and show the
value against budget and each budget's payoff matrix as a heat map.

Run from the repository root after `cargo build --release`:
    python -m pytest -q tests/browser
"""

import shutil
import tempfile
from pathlib import Path

import pytest

from test_report import boardlab, browser, open_page  # noqa: F401 (fixture)


@pytest.fixture(scope="module")
def metagame():
    tmp = Path(tempfile.mkdtemp(prefix="boardlab-metagame-"))
    out = tmp / "meta"
    boardlab("metagame", "--game", "kuhn", "--agents",
             "random,greedy,ismcts(iterations={budget})", "--budgets", "8,16",
             "--games", "60", "--payoff", "return", "--bootstrap", "100",
             "--threads", "1", "--quiet", "--out", str(out))
    boardlab("report", str(out))
    yield out
    shutil.rmtree(tmp, ignore_errors=True)


def test_metagame_page(metagame, browser):  # noqa: F811 (fixture)
    page, errors, failed = open_page(browser, metagame / "report.html")
    assert errors == [], errors
    assert failed == [], failed
    assert page.locator("section").first.get_attribute("id") == "convergence"
    # The value against budget: one row per budget.
    assert page.locator("#convergence tbody tr").count() == 2
    # One heat map per budget, one rectangle per cell (3 members: 9 cells),
    # laid out at a real size.
    for budget in (8, 16):
        heat = page.locator(f"#metagame-{budget} svg.heatmap")
        assert heat.count() == 1
        assert heat.locator("rect.cell").count() == 9
        box = heat.bounding_box()
        assert box and box["width"] > 150 and box["height"] > 150, box
        assert "value of the meta-game" in page.locator(f"#metagame-{budget}").inner_text().lower()
    urls = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert urls == [], urls
