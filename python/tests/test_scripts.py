"""The analysis scripts under lab/scripts/ and lab/results/ that check
themselves (--self-test: their statistics and scoring rules on made-up
inputs) still pass: they write the committed analyses of lab/results, and
run nowhere else in CI."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def _self_tested():
    out = []
    for top in (os.path.join("lab", "scripts"), os.path.join("lab", "results"), os.path.join("lab", "suite")):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                p = os.path.join(d, f)
                if f.endswith(".py") and "--self-test" in open(p).read():
                    out.append(os.path.relpath(p, ROOT))
    return sorted(out)


SELF_TESTED = _self_tested()


def test_self_tested_scripts_found():
    names = {os.path.join("lab", "scripts", f) for f in ("defaults.py", "portfolio.py", "winners.py")}
    names.add(os.path.join("lab", "results", "baseline", "pairs.py"))
    names.add(os.path.join("lab", "suite", "split.py"))
    assert names <= set(SELF_TESTED)


@pytest.mark.parametrize("script", SELF_TESTED)
def test_self_test(script):
    r = subprocess.run([sys.executable, os.path.join(ROOT, script), "--self-test"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "self-test: ok" in r.stdout
