"""Hypothesis profiles, chosen by the HYPOTHESIS_PROFILE environment variable.

ci        derandomised: the same examples on every run, so CI cannot flake;
dev       random examples, the default;
thorough  ten times the examples of dev, for a deep run (`verify --profile thorough`).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

BASE_EXAMPLES = 30
PROFILES = ("ci", "dev", "thorough")

_common = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("ci", _common, max_examples=BASE_EXAMPLES, derandomize=True)
settings.register_profile("dev", _common, max_examples=BASE_EXAMPLES)
settings.register_profile("thorough", _common, max_examples=10 * BASE_EXAMPLES)


class ProfileError(ValueError):
    """An unknown profile name: the message says where it came from (the argument or
    the HYPOTHESIS_PROFILE variable) and the names there are."""


def load_profile(name: str | None = None) -> str:
    """Load `name`, else $HYPOTHESIS_PROFILE (unset or empty: "dev"); return the name
    loaded. ProfileError when the name is not one of PROFILES."""
    variable = os.environ.get("HYPOTHESIS_PROFILE")
    chosen = name or variable or "dev"
    if chosen not in PROFILES:
        source = f"profile {name!r}" if name else f"HYPOTHESIS_PROFILE={variable!r}"
        raise ProfileError(
            f"{source} is not a Hypothesis profile; expected one of {', '.join(PROFILES)}"
        )
    settings.load_profile(chosen)
    return chosen


def scaled(factor: float) -> settings:
    """Settings with `factor` times the loaded profile's examples (for costly properties)."""
    current = settings.default
    assert current is not None  # a profile is always loaded (conftest, the CLI)
    return settings(max_examples=max(1, round(current.max_examples * factor)))
