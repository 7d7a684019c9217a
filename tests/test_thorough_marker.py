"""A test marked `thorough` (conftest) is skipped under the ci profile, with the reason, and
set up under the thorough one; the test beside it runs under both."""

from __future__ import annotations

import subprocess

import early
import pytest

SET_UPS = "the set-ups under ci and thorough"
MOVED = "tests/symbolic/test_softmax.py"  # 命題 3.2 at n = 256 is marked thorough


def set_up(profile: str) -> subprocess.CompletedProcess:
    """pytest --setup-only of the n = 256 test and the size limit's, under `profile`."""
    return early.run_pytest(
        "-rs", "--setup-only", MOVED, "-k", "n_256 or size_limit_is", HYPOTHESIS_PROFILE=profile
    )


@early.job(SET_UPS)
def set_ups(items: object) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    return set_up("ci"), set_up("thorough")


def output(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stdout[-2000:]
    return done.stdout


@pytest.mark.early(SET_UPS)
def test_a_thorough_test_is_skipped_under_ci_and_set_up_under_thorough():
    ci, thorough = map(output, early.result(SET_UPS))
    assert "1 skipped" in ci and "marked thorough" in ci
    assert ci.count("SETUP    F no_shrinking") == 1  # the size limit's test only
    assert "skipped" not in thorough
    assert thorough.count("SETUP    F no_shrinking") == 2
