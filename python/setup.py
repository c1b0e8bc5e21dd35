"""Builds the package with libsymbo.so inside it.

pyproject.toml holds the metadata; this file only makes sure the shared
library is there before it is packaged: when python/symbo/libsymbo.so is
missing and the package is built from a clone with the Go toolchain on
PATH, it builds it (what `make python` does); otherwise it stops with the
command to run, instead of installing a package that cannot be imported.
"""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, "symbo", "libsymbo.so")
CAPI = os.path.join(os.path.dirname(HERE), "capi")


class BuildWithLibrary(build_py):
    def run(self):
        if not os.path.exists(LIB):
            go = shutil.which("go")
            if go is None or not os.path.isdir(CAPI):
                raise SystemExit("symbo: python/symbo/libsymbo.so is missing; build it first with `make python` "
                                 "in the repository root (it needs Go 1.26 and gcc), then install again")
            print("symbo: building libsymbo.so with go build -buildmode=c-shared ./capi")
            subprocess.run([go, "build", "-buildmode=c-shared", "-o", LIB, "./capi"], cwd=os.path.dirname(HERE),
                           check=True)
            header = os.path.splitext(LIB)[0] + ".h"
            if os.path.exists(header):
                os.remove(header)
        super().run()


setup(cmdclass={"build_py": BuildWithLibrary})
