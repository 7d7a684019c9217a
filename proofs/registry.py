"""Every element of the two chapters, registered under its id with its number.

An element's check runs everything that verifies it and returns the evidence
(one line per fact established); it raises `CheckFailed` when the chapter's
statement does not hold for what it is given. Checks take the objects they
judge as keyword arguments with the package's own as defaults, so a test can
hand a check a deliberately wrong variant and see it rejected.
"""

from __future__ import annotations

import difflib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

KINDS = (
    "definition",
    "proposition",
    "lemma",
    "theorem",
    "corollary",
    "example",
    "remark",
    "exercise",
)
METHODS = ("symbolic", "numeric", "witness", "high precision", "not a theorem")


@dataclass(frozen=True)
class Chapter:
    key: str
    file: str
    title: str
    short: str  # the name used in cross references: 命題 7.2［自己注意］


CHAPTERS = {
    "self-attention": Chapter(
        "self-attention",
        "000_ce182fefa314a82b.txt",
        "自己注意：スケール付き内積注意・マルチヘッド・因果マスク",
        "自己注意",
    ),
    "transformer-block": Chapter(
        "transformer-block",
        "002_1f7cf506cffefce0.txt",
        "Transformer ブロック：残差接続・層正規化・MLP とパラメータ数",
        "Transformer ブロック",
    ),
}


class CheckFailed(AssertionError):
    """A chapter's statement does not hold for the objects the check was given."""


@dataclass(frozen=True)
class Element:
    id: str
    number: str  # as the chapter prints it: "命題 3.2"
    title: str
    chapter: str  # a key of CHAPTERS
    kind: str  # one of KINDS
    methods: tuple[str, ...]  # a subset of METHODS
    description: str  # what is proved and how
    check: Callable[..., list[str]] = field(compare=False, repr=False)

    @property
    def test_name(self) -> str:
        """The id as it appears in test names: `pytest -k prop_softmax_jacobian`."""
        return self.id.replace("-", "_")


@dataclass(frozen=True)
class CheckRun:
    """The outcome of one check: passed, failed (CheckFailed) or error (anything else)."""

    result: str  # "passed" | "failed" | "error"
    message: str  # why it failed or raised (one line per failure)
    evidence: tuple[str, ...]
    seconds: float


def run_check(check: Callable[[], list[str]]) -> CheckRun:
    """Run a check, classifying what it raises; several properties failing at once
    (an ExceptionGroup of CheckFailed) is one failure with every message."""
    start = time.perf_counter()
    evidence: tuple[str, ...] = ()
    message = ""
    try:
        evidence = tuple(check())
        result = "passed"
    except CheckFailed as failure:
        result, message = "failed", str(failure)
    except Exception as exc:  # noqa: BLE001 - any other exception is reported, not raised
        failures, others = (
            exc.split(CheckFailed) if isinstance(exc, ExceptionGroup) else (None, exc)
        )
        if others is None:
            result, message = "failed", "; ".join(str(f) for f in failures.exceptions)
        else:
            first = (str(exc).strip().splitlines() or [""])[0]
            result, message = "error", f"{type(exc).__name__}: {first}"
    return CheckRun(result, message, evidence, time.perf_counter() - start)


REGISTRY: dict[str, Element] = {}


def element(
    id: str, number: str, title: str, chapter: str, kind: str, methods: tuple[str, ...]
) -> Callable[[Callable[..., list[str]]], Callable[..., list[str]]]:
    """Register the decorated check; its docstring is the element's description."""
    if chapter not in CHAPTERS:
        raise ValueError(f"chapter must be one of {tuple(CHAPTERS)}, got {chapter!r}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    unknown = set(methods) - set(METHODS)
    if unknown or not methods:
        raise ValueError(f"methods must be a non-empty subset of {METHODS}, got {methods!r}")

    def register(check: Callable[..., list[str]]) -> Callable[..., list[str]]:
        if id in REGISTRY:
            raise ValueError(f"element id {id!r} is registered twice")
        doc = " ".join((check.__doc__ or "").split())
        if not doc:
            raise ValueError(f"the check of {id!r} needs a docstring saying what it proves")
        REGISTRY[id] = Element(id, number, title, chapter, kind, methods, doc, check)
        return check

    return register


FINDING = "FINDING: "


def finding(message: str) -> str:
    """An evidence line reporting that the chapter prints a wrong value.

    The check still passes when the statement itself holds (a slip in a printed
    intermediate); `verify` and the audit list every finding.
    """
    return FINDING + message


def findings(evidence: list[str]) -> list[str]:
    """The findings among a check's evidence lines, without the prefix."""
    return [line[len(FINDING):] for line in evidence if line.startswith(FINDING)]


def require(condition: bool, message: str) -> None:
    """Raise CheckFailed with `message` unless `condition` holds."""
    if not condition:
        raise CheckFailed(message)


def load_all() -> dict[str, Element]:
    """Import the chapter modules (which register their checks) and return the registry."""
    from proofs import self_attention, transformer_block  # noqa: F401

    return REGISTRY


_NUMBER = re.compile(r"^\s*(\S+?)\s*(\d+(?:\.\d+)?|[A-Z]\.\d+)\s*(?:[［\[](.+?)[］\]])?\s*$")


def find(query: str) -> list[Element]:
    """Elements named by an id (with - or _), a number ("命題 3.3", "命題 3.3［自己注意］"),
    or a chapter key; an empty list when nothing matches."""
    registry = load_all()
    key = query.strip().replace("_", "-")
    if key in registry:
        return [registry[key]]
    if key in CHAPTERS:
        return [e for e in registry.values() if e.chapter == key]
    match = _NUMBER.match(query)
    if match:
        label, num, chapter_name = match.groups()
        number = f"{label} {num}"
        found = [e for e in registry.values() if e.number == number]
        if chapter_name:
            found = [e for e in found if CHAPTERS[e.chapter].short == chapter_name.strip()]
        return found
    return []


def nearest_ids(query: str, n: int = 3) -> list[str]:
    """The registered ids closest to a mistyped one."""
    key = query.strip().replace("_", "-")
    return difflib.get_close_matches(key, list(load_all()), n=n, cutoff=0.4)
