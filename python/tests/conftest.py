"""Shared fixtures: golab's session and python-lifelib's (the oracle), and the bundled
B3/S23 patterns both read."""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PATTERNS = ROOT / "assets" / "patterns"


def life_patterns():
    """(name, text) of every bundled pattern under B3/S23."""
    out = []
    for path in sorted(PATTERNS.glob("*.rle")):
        text = path.read_text()
        rule = re.search(r"rule\s*=\s*([^\s,]+)", text)
        if rule is None or rule.group(1).lower().replace("/", "") == "b3s23":
            out.append((path.stem, text))
    return out


@pytest.fixture(scope="session")
def golab_lt():
    import golab

    return golab.load_rules("b3s23").lifetree(memory=500)


@pytest.fixture(scope="session")
def lifelib_lt():
    # The oracle: python-lifelib 2.5.6 (compiles its C++ with g++ on first use).
    import lifelib

    return lifelib.load_rules("b3s23").lifetree(memory=500)
