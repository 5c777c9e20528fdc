"""The page of a variant against its base (`boardlab compare`, then
`boardlab report` on the variant's folder) in a real headless browser: two
small balance studies of Planted, one with a komi, are made with the binary;
the page must load without console errors or fetches, open with the paired
differences (verdict, one chart per budget at a real size, the table with
Holm's correction), and keep the study's own balance curve after it.

Run from the repository root after `cargo build --release`:
    python -m pytest -q tests/browser
"""

import shutil
import tempfile
from pathlib import Path

import pytest

from test_report import boardlab, browser, open_page  # noqa: F401 (fixture)


@pytest.fixture(scope="module")
def compared():
    tmp = Path(tempfile.mkdtemp(prefix="boardlab-compare-"))
    for name, game in (("base", "planted"), ("variant", "planted(komi=0.2)")):
        boardlab("balance", "--game", game, "--agent", "mcts", "--budgets", "4",
                 "--max-games", "400", "--ladder-games", "0", "--threads", "1",
                 "--out", str(tmp / name))
    boardlab("compare", "--base", str(tmp / "base"), "--variant", str(tmp / "variant"))
    boardlab("report", str(tmp / "variant"))
    yield tmp / "variant"
    shutil.rmtree(tmp, ignore_errors=True)


def test_compare_page(compared, browser):  # noqa: F811 (fixture)
    page, errors, failed = open_page(browser, compared / "report.html")
    assert errors == [], errors
    assert failed == [], failed
    ids = [s.get_attribute("id") for s in page.locator("section").all()]
    assert ids[0] == "paired", ids
    assert any(i.startswith("balance") for i in ids[1:]), ids
    paired = page.locator("#paired")
    text = paired.inner_text()
    # The komi moves seat 0 by about -0.12: beyond chance after correction.
    assert "Beyond chance once corrected" in text, text
    assert "seat 0 at budget 4" in text, text
    chart = page.locator("#paired svg")
    assert chart.count() == 1
    box = chart.bounding_box()
    assert box and box["width"] > 300 and box["height"] > 80, box
    head = [h.inner_text() for h in page.locator("#paired thead th").all()]
    assert "Holm p" in head, head
    assert page.locator("#paired tbody tr").count() >= 3
    urls = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert urls == [], urls
