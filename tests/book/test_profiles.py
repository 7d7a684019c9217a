"""The Hypothesis profiles draw what their name and seed say, however the package is
installed: `verify --json` gives the same evidence figures from the checkout and from a
copy of the package under a site-packages folder (where pip puts it, and where Hypothesis
collects no constants), and other figures from the checkout when Hypothesis is let
collect the literals of the modules it calls local (what the profiles turn off). The three
runs are made in the background (tests/early.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import early
import pytest
from places import ROOT

from proofs.book.profiles import without_local_constants

INSTALLED = "verify from the checkout and installed"
ELEMENTS = ("def-softmax", "def-attention", "rem-cross-attention", "def-layer-norm")
PACKAGES = ("spec", "symbolic", "numeric", "proofs")

# verify run by a Python that imports the package from the folder it is given first
VERIFY = """
import sys
import proofs
assert proofs.__file__.startswith(sys.argv[1]), proofs.__file__
from proofs.cli import main
sys.exit(main(["verify", *sys.argv[2:], "--json", "--jobs", "1", "--profile", "ci"]))
"""
# the same, with Hypothesis let collect local constants again after the profiles loaded
COLLECTING = (
    """
import sys
from hypothesis.internal.conjecture import providers
collect = providers._get_local_constants
import proofs.book.profiles
providers._get_local_constants = collect
"""
    + VERIFY
)


@early.job(INSTALLED)
def installed_runs(items: Sequence[pytest.Item]) -> dict[str, dict]:
    """The evidence of ELEMENTS by run: "checkout", "installed" (a copy of the packages
    under lib/site-packages, imported first), "collecting" (the checkout, local constants
    collected)."""
    scratch = early.scratch("installed-")
    site = scratch / "lib" / "site-packages"
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, site / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    runs = {
        "checkout": (ROOT, VERIFY),
        "installed": (site, VERIFY),
        "collecting": (ROOT, COLLECTING),
    }
    out = {}
    for name, (first, script) in runs.items():
        done = subprocess.run(
            [sys.executable, "-P", "-c", script, str(first), *ELEMENTS],
            cwd=scratch,
            env=early.environment(PYTHONPATH=str(first)),
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            raise RuntimeError(f"verify ({name}) exited {done.returncode}: {done.stderr[-2000:]}")
        report = json.loads(done.stdout)
        out[name] = {e["id"]: (e["result"], e["evidence"]) for e in report["elements"]}
    shutil.rmtree(scratch, ignore_errors=True)
    return out


@pytest.mark.early(INSTALLED)
def test_verify_prints_the_same_figures_installed_as_in_the_checkout():
    runs = early.result(INSTALLED)
    assert sorted(runs["checkout"]) == sorted(ELEMENTS)
    assert runs["installed"] == runs["checkout"]


@pytest.mark.early(INSTALLED)
def test_collecting_local_constants_would_change_the_figures_of_the_checkout():
    runs = early.result(INSTALLED)
    changed = [i for i in ELEMENTS if runs["collecting"][i] != runs["checkout"][i]]
    assert changed and all(runs["collecting"][i][0] == runs["checkout"][i][0] for i in ELEMENTS)


def test_the_profiles_leave_hypothesis_no_local_constants():
    from hypothesis.internal.conjecture import providers

    without_local_constants()  # a second time changes nothing
    assert len(providers._get_local_constants()) == 0
    assert Path(providers.__file__).parent.name == "conjecture"
