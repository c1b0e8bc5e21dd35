"""pip install ./python either builds the library into the package or
refuses with the command to run: it never installs a package that cannot
be imported (a newcomer's pip install before make python once reported
success, then import symbo failed)."""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _pip():
    return subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode == 0


pytestmark = pytest.mark.skipif(not _pip(), reason="needs pip (Debian: python3-pip)")


def _copy_package(tmp_path):
    """A copy of python/ without the library, beside a capi/ link when
    with_capi (the clone's layout)."""
    pkg = tmp_path / "python"
    shutil.copytree(os.path.join(ROOT, "python"), pkg,
                    ignore=shutil.ignore_patterns("libsymbo.*", "tests", "bench", "field", "__pycache__", "*.egg-info",
                                                  "build"))
    return pkg


def _install(pkg, target, env):
    return subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
                           "--target", str(target), str(pkg)], capture_output=True, text=True, env=env, timeout=900)


def test_install_without_library_or_go_refuses_with_the_command(tmp_path):
    pkg = _copy_package(tmp_path)
    env = dict(os.environ, PATH="/usr/bin:/bin")  # no Go toolchain
    env.pop("GOROOT", None)
    if shutil.which("go", path=env["PATH"]):
        pytest.skip("go is on the minimal PATH")
    r = _install(pkg, tmp_path / "site", env)
    assert r.returncode != 0
    assert "make python" in r.stdout + r.stderr
    assert not (tmp_path / "site" / "symbo").exists()


@pytest.mark.skipif(shutil.which("go") is None, reason="needs the Go toolchain")
@pytest.mark.long
def test_install_from_a_clone_builds_the_library(tmp_path):
    # The clone's layout: python/ beside capi/ and the module's go.mod.
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in ("go.mod", "go.sum"):
        shutil.copy(os.path.join(ROOT, name), clone / name)
    for d in ("capi", "bo", "gp", "kernel", "linalg", "orbit", "internal"):
        os.symlink(os.path.join(ROOT, d), clone / d)
    pkg = _copy_package(clone)
    r = _install(pkg, tmp_path / "site", dict(os.environ))
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "site" / "symbo" / "libsymbo.so").exists()
    out = subprocess.run([sys.executable, "-c", "import symbo; print(symbo.version())"], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(tmp_path / "site")))
    assert out.returncode == 0 and out.stdout.strip(), out.stderr
