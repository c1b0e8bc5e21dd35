"""The analysis scripts under scripts/ that check themselves (--self-test:
their statistics and scoring rules on made-up inputs) still pass: they
write the committed analyses of docs/results, and run nowhere else in CI."""
import os
import subprocess
import sys

import pytest

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
SELF_TESTED = sorted(
    f for f in os.listdir(SCRIPTS)
    if f.endswith(".py") and "--self-test" in open(os.path.join(SCRIPTS, f)).read()
)


def test_self_tested_scripts_found():
    assert {"defaults.py", "portfolio.py", "winners.py"} <= set(SELF_TESTED)


@pytest.mark.parametrize("script", SELF_TESTED)
def test_self_test(script):
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, script), "--self-test"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "self-test: ok" in r.stdout
