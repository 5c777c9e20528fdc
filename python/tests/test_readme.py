"""The READMEs' Python blocks run as written, as tests/readme.rs runs the shell
blocks marked `sh ci`: each fenced ```python block, in a fresh namespace, in a
temporary working directory."""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
READMES = [ROOT / "README.md", ROOT / "python" / "README.md"]


def python_blocks():
    return list(_blocks())


def _blocks():
    for readme in READMES:
        text = readme.read_text(encoding="utf-8")
        for i, block in enumerate(re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)):
            yield pytest.param(block, id=f"{readme.relative_to(ROOT)}-{i}")


def test_the_main_readme_has_a_python_block():
    # Losing the fence's language would silently skip the snippet.
    assert any("README.md-" in p.id and "python/" not in p.id for p in python_blocks())


@pytest.mark.parametrize("block", python_blocks())
def test_block_runs_as_written(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "<readme>", "exec"), {"__name__": "__readme__"})
