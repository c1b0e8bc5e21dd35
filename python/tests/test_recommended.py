"""Python's default is Go's bo.Recommended, bit for bit.

symbo.Optimizer with no settings must propose exactly what a Go program
using bo.Recommended proposes for the same seed and history: the front
ends hold no copy of a default value. The Go side is
testdata/recommended/main.go, run with the Go toolchain that built the
library."""

import json
import os
import shutil
import struct
import subprocess

import numpy as np
import pytest

import symbo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def f(x):
    return float(np.sum((np.sort(np.abs(x)) - np.array([0.5, 1.0, 1.5])) ** 2))


def bits(v):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", float(v)))[0]


@pytest.mark.skipif(shutil.which("go") is None, reason="needs the Go toolchain")
def test_default_is_go_recommended_bit_for_bit():
    out = subprocess.run(["go", "run", "./python/tests/testdata/recommended"], cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=600).stdout
    want = [json.loads(line) for line in out.splitlines()]
    assert len(want) == 9
    o = symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", seed=4, minimize=True)
    for i, w in enumerate(want):
        x = o.ask()
        assert [bits(v) for v in x] == w, "ask %d: Python %r, Go bo.Recommended %r" % (i, list(x), w)
        o.tell(x, f(x))
