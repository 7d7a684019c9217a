"""Hypothesis profiles, chosen by the HYPOTHESIS_PROFILE environment variable.

ci        derandomised: the same examples on every run, so CI cannot flake;
dev       random examples, the default;
thorough  ten times the examples of dev, for a deep run (`verify --profile thorough`).

Hypothesis keeps the examples that failed in a database, and caches of its own. The tests
keep them where pytest runs (`.hypothesis/`); the command line keeps them in the user's
cache directory ($XDG_CACHE_HOME or ~/.cache, under transformer-proofs/hypothesis), so that
a command writes nothing in the directory it runs in; where that cache cannot be made (a
read-only home), in a temporary folder removed at exit, without a database.

What a profile draws depends on the profile and its seed only. Hypothesis (6.131 and
later) would also mix into its draws literals it collects from the modules it takes for
the user's own, which it tells by where they are: outside site-packages. The same report
then held other figures in a checkout than installed with pip (in 11 of 47 elements), and
others again after other imports; the profiles collect none (`without_local_constants`).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase


def without_local_constants() -> None:
    """Make Hypothesis draw without the constants it collects from the modules it calls
    local, so that the same profile and seed draw the same examples however the package is
    installed and whatever was imported before (there is no setting for it: its provider
    asks hypothesis.internal.conjecture.providers._get_local_constants, here answered with
    no constants, and its cache of the constants allowed per choice is emptied)."""
    from hypothesis.internal.conjecture import providers

    if not hasattr(providers, "_get_local_constants"):  # a Hypothesis that collects none
        return
    none = providers.Constants()
    providers._get_local_constants = lambda *args: none
    providers.CONSTANTS_CACHE.cache.clear()


without_local_constants()

BASE_EXAMPLES = 30
PROFILES = ("ci", "dev", "thorough")

# Every phase but explain, which runs a failing test again under sys.settrace to say which
# lines it took: on CPython 3.11.7, in a process that had run the suite's language-server
# tests, the first call after the tracer was switched on spun forever (both pytest-xdist
# workers, every full run). A failure is still shrunk and printed with its blob.
_PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink)
_common = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
    phases=_PHASES,
)
settings.register_profile(
    "ci", _common, max_examples=BASE_EXAMPLES, derandomize=True, database=None
)  # no database: a saved failure replayed would make two runs differ
settings.register_profile("dev", _common, max_examples=BASE_EXAMPLES)
settings.register_profile("thorough", _common, max_examples=10 * BASE_EXAMPLES)


class ProfileError(ValueError):
    """An unknown profile name: the message says where it came from (the argument or
    the HYPOTHESIS_PROFILE variable) and the names there are."""


def load_profile(name: str | None = None, in_cache: bool = False) -> str:
    """Load `name`, else $HYPOTHESIS_PROFILE (unset or empty: "dev"); return the name
    loaded. ProfileError when the name is not one of PROFILES. `in_cache`: the examples'
    database in the user's cache directory (the command line), not where it runs."""
    variable = os.environ.get("HYPOTHESIS_PROFILE")
    chosen = name or variable or "dev"
    if chosen not in PROFILES:
        source = f"profile {name!r}" if name else f"HYPOTHESIS_PROFILE={variable!r}"
        raise ProfileError(
            f"{source} is not a Hypothesis profile; expected one of {', '.join(PROFILES)}"
        )
    if in_cache:
        folder = _storage()
        database = (
            None
            if folder is None or settings.get_profile(chosen).database is None
            else DirectoryBasedExampleDatabase(folder / "examples")
        )
        settings.register_profile(
            f"{chosen}-cached", settings.get_profile(chosen), database=database
        )
        settings.load_profile(f"{chosen}-cached")
    else:
        settings.load_profile(chosen)
    return chosen


def _storage() -> Path | None:
    """Where Hypothesis keeps what it stores (the examples' database, its caches) for the
    command line: $HYPOTHESIS_STORAGE_DIRECTORY when set, else the user's cache; without
    either, a temporary folder removed at exit, and no database."""
    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        return Path(os.environ["HYPOTHESIS_STORAGE_DIRECTORY"])
    folder = cache_directory("hypothesis")
    if folder is None:
        scratch = tempfile.mkdtemp(prefix="transformer-proofs-hypothesis-")
        atexit.register(shutil.rmtree, scratch, ignore_errors=True)
        set_hypothesis_home_dir(scratch)
        return None
    set_hypothesis_home_dir(str(folder))
    return folder


def cache_directory(name: str) -> Path | None:
    """The folder `name` of the package in the user's cache directory, made if need be;
    None when it cannot be made or written."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = root / "transformer-proofs" / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def scaled(factor: float) -> settings:
    """Settings with `factor` times the loaded profile's examples (for costly properties)."""
    current = settings.default
    assert current is not None  # a profile is always loaded (conftest, the CLI)
    return settings(max_examples=max(1, round(current.max_examples * factor)))
