"""The design search's dashboard in a real headless browser: a small search
of Planted's seat advantage is made with the binary, `boardlab report` writes
its page, and the page must load without console errors or fetches and show
the verdict, the chart of each variant's rate against the fair share, and one
ranked row per variant.

Run from the repository root after `cargo build --release`:
    python -m pytest -q tests/browser
"""

import shutil
import tempfile
from pathlib import Path

import pytest

from test_report import boardlab, browser, open_page  # noqa: F401 (fixture)

SPACE = """
game = "planted(card=0,skill=0)"
[params]
p = [0.5, 0.6, 0.9]
[fairness]
by = "seats"
tolerance = 0.1
[[stage]]
agent = "random"
games = 400
batch = 200
"""


@pytest.fixture(scope="module")
def design():
    tmp = Path(tempfile.mkdtemp(prefix="boardlab-design-"))
    space = tmp / "space.toml"
    space.write_text(SPACE)
    out = tmp / "design"
    boardlab("design", str(space), "--seed", "3", "--threads", "1", "--quiet", "--out", str(out))
    boardlab("report", str(out))
    yield out
    shutil.rmtree(tmp, ignore_errors=True)


def test_design_page(design, browser):  # noqa: F811 (fixture)
    page, errors, failed = open_page(browser, design / "report.html")
    assert errors == [], errors
    assert failed == [], failed
    ids = [s.get_attribute("id") for s in page.locator("section").all()]
    assert ids == ["verdict", "closest", "ranking"], ids
    # The chart of each variant's rate, laid out at a real size.
    chart = page.locator("#closest svg")
    assert chart.count() == 1
    box = chart.bounding_box()
    assert box and box["width"] > 300 and box["height"] > 80, box
    # One ranked row per variant; p = 0.9 is dropped and says why.
    rows = page.locator("#ranking tbody tr")
    assert rows.count() == 3
    assert "dropped" in page.locator("#ranking").inner_text()
    urls = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert urls == [], urls
