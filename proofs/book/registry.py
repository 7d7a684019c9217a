"""The book: every chapter package and every element's check, found by discovery.

A chapter is a package under `proofs.chapters` (or a module another installed
package names in the entry-point group `transformer_proofs.chapters`) whose
`CHAPTER` is a `Chapter`. Its modules register, through that object, one check
per element of the chapter (`@CHAPTER.element(...)`), the tables it prints
(`@CHAPTER.table(...)`), its formulas, the lines its listings print, the figures
it draws in its own SVG (`@CHAPTER.figure(...)`) and the plots of its results
(`@CHAPTER.plot(...)`). No list here names a chapter: `load_all` imports
whatever it discovers.

An element's check runs everything that verifies it and returns the evidence
(one line per fact established); it raises `CheckFailed` when the chapter's
statement does not hold for what it is given. Checks take the objects they
judge as keyword arguments with the package's own as defaults, so a test can
hand a check a deliberately wrong variant and see it rejected.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import inspect
import os
import pkgutil
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from proofs.book.claims import Claim
from proofs.book.judge import CheckFailed, Finding, Unchecked

if TYPE_CHECKING:
    from proofs.book.formulas import Formula
    from proofs.tex.symbolic import Evaluator
    from proofs.typeset.tables import ListingLine, Table

ENTRY_POINT_GROUP = "transformer_proofs.chapters"

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
RESULTS = ("passed", "failed", "error", "unchecked")

Check = Callable[..., Sequence[str | Finding]]  # evidence lines and findings


@dataclass(frozen=True)
class RegisteredElement:
    """An element of a chapter as the registry holds it: its id, number and title, and the
    check that proves it with the claims the check reads from the chapter (the element as
    a file prints it is proofs.reader.records.Element)."""

    id: str
    number: str  # as the chapter prints it: "命題 3.2"
    title: str
    chapter: str  # the key of its Chapter
    kind: str  # one of KINDS
    methods: tuple[str, ...]  # a subset of METHODS; empty for an unchecked stub
    description: str  # what is proved and how
    check: Check = field(compare=False, repr=False)
    claims: tuple[Claim, ...] = field(default=(), compare=False, repr=False)

    def arguments(self) -> dict:
        """The keyword arguments the check's claims feed, as transcribed."""
        return claim_arguments(self.claims)

    @property
    def test_name(self) -> str:
        """The id as it appears in test names: `pytest -k prop_softmax_jacobian`."""
        return self.id.replace("-", "_")


@dataclass(frozen=True)
class TableEntry:
    """A table a chapter registers: how to build it and how the chapter prints it."""

    name: str
    chapter: str
    title: str  # where the chapter has it and what it holds: 例 5.3［Transformer ブロック］ …
    build: Callable[..., Table]
    columns: tuple[str, ...] | None  # the chapter's header, when the chapter prints it
    keyed_by: str | None  # the argument the chapter's first column sets (its d_k, its n)


@dataclass(frozen=True)
class FigureEntry:
    """A figure a chapter registers: the function giving its SVG, and how the chapter's
    caption of it opens, which finds the figure in a file."""

    name: str
    chapter: str
    caption: str
    build: Callable[[], str]


@dataclass(frozen=True)
class PlotEntry:
    """A plot a chapter registers: a picture of a result the chapter gives as a table or
    in words, drawn with matplotlib (proofs.typeset.plotting) from the package's own values."""

    name: str
    chapter: str
    title: str  # the element it draws and what: 例 4.5［自己注意］ …
    build: Callable[[], Any]  # a matplotlib Figure


REGISTRY: dict[str, RegisteredElement] = {}
CHAPTERS: dict[str, Chapter] = {}


@dataclass(eq=False)
class Chapter:
    """A chapter of the book and what its package registers.

    `title` is the chapter file's first line (without `#`), which identifies a
    file as this chapter's; `short` is the name cross references use
    (命題 7.2［自己注意］). `load_all` adds the chapters it discovers to CHAPTERS.
    """

    key: str
    file: str  # the chapter's file name among the seeds
    title: str
    short: str
    tables: dict[str, TableEntry] = field(default_factory=dict)
    formulas: dict[str, Formula] = field(default_factory=dict)
    listings: list[Callable[[], list[ListingLine]]] = field(default_factory=list)
    figures: dict[str, FigureEntry] = field(default_factory=dict)
    plots: dict[str, PlotEntry] = field(default_factory=dict)
    # the notation's names at an element (its number), for deciding its formulas
    environment: Callable[[str], Evaluator] | None = None

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", self.key):
            raise ValueError(f"chapter key must be lower-case words joined by -, got {self.key!r}")

    def element(
        self,
        id: str,
        number: str,
        title: str,
        kind: str,
        methods: tuple[str, ...],
        claims: tuple[Claim, ...] = (),
    ) -> Callable[[Check], Check]:
        """Register the decorated check; its docstring is the element's description.

        The registered check (and the name the decorator returns) fills every keyword
        argument a claim feeds with the claim's transcription unless it is given, so
        `check()` judges the chapter as transcribed and `check(stated=…)` another version.
        """
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        unknown = set(methods) - set(METHODS)
        if unknown:
            raise ValueError(f"methods must be a subset of {METHODS}, got {methods!r}")

        def register(check: Check) -> Check:
            if id in REGISTRY:
                raise ValueError(f"element id {id!r} is registered twice")
            doc = " ".join((check.__doc__ or "").split())
            if not doc:
                raise ValueError(f"the check of {id!r} needs a docstring saying what it proves")
            if check.__name__ != id.replace("-", "_"):  # a helper between decorator and check
                raise ValueError(
                    f"the check of {id!r} must be named {id.replace('-', '_')}, "
                    f"got {check.__name__!r}"
                )
            with_claims = _filling(check, claims) if any(c.argument for c in claims) else check
            REGISTRY[id] = RegisteredElement(
                id, number, title, self.key, kind, tuple(methods), doc, with_claims, claims
            )
            return with_claims

        return register

    def table(
        self,
        name: str,
        number: str,
        title: str,
        columns: tuple[str, ...] | None = None,
        keyed_by: str | None = None,
    ) -> Callable[[Callable[..., Table]], Callable[..., Table]]:
        """Register the decorated builder of a table the chapter has at `number` under
        `name` (unique in the book)."""

        def register(build: Callable[..., Table]) -> Callable[..., Table]:
            if any(name in c.tables for c in (self, *CHAPTERS.values())):
                raise ValueError(f"table {name!r} is registered twice")
            where = f"{number}［{self.short}］ {title}"
            self.tables[name] = TableEntry(name, self.key, where, build, columns, keyed_by)
            return build

        return register

    def figure(self, name: str, caption: str) -> Callable[[Callable[[], str]], Callable[[], str]]:
        """Register the decorated builder of a figure's SVG (the text between the chapter's
        `<Figure>` tags) under `name` (unique in the book); the chapter's caption of the
        figure opens with `caption`."""

        def register(build: Callable[[], str]) -> Callable[[], str]:
            self._require_new_picture(name)
            self.figures[name] = FigureEntry(name, self.key, caption, build)
            return build

        return register

    def plot(self, name: str, number: str, title: str) -> Callable[[Callable], Callable]:
        """Register the decorated builder of a matplotlib figure drawing the element at
        `number` under `name` (unique among the book's figures and plots)."""

        def register(build: Callable[[], Any]) -> Callable[[], Any]:
            self._require_new_picture(name)
            self.plots[name] = PlotEntry(name, self.key, f"{number}［{self.short}］ {title}", build)
            return build

        return register

    def _require_new_picture(self, name: str) -> None:
        if any(name in c.figures or name in c.plots for c in (self, *CHAPTERS.values())):
            raise ValueError(f"figure {name!r} is registered twice")

    def formula(
        self, name: str, number: str, title: str, printer: str = "chapter_latex"
    ) -> Callable[[Callable[[], object]], Callable[[], object]]:
        """Register the decorated builder of a formula the chapter states at `number`.
        Its name is lower-case words of letters joined by -, as it also names a LaTeX
        macro (softmax-jacobian-two is \\SoftmaxJacobianTwo), where digits cannot be."""
        from proofs.book.formulas import Formula

        if not re.fullmatch(r"[a-z]+(-[a-z]+)*", name):
            raise ValueError(
                f"formula name must be lower-case words of letters joined by - (it names a "
                f"LaTeX macro), got {name!r}"
            )

        def register(build: Callable[[], object]) -> Callable[[], object]:
            if any(name in c.formulas for c in (self, *CHAPTERS.values())):
                raise ValueError(f"formula {name!r} is registered twice")
            where = f"{number}［{self.short}］ {title}"
            self.formulas[name] = Formula(name, where, build, printer)
            return build

        return register

    def notation(self, environment: Callable[[str], Evaluator]) -> Callable[[str], Evaluator]:
        """Register the function giving the chapter's names their meanings (proofs.tex.decide)."""
        self.environment = environment
        return environment

    def listing(self, lines: Callable[[], list[ListingLine]]) -> Callable[[], list[ListingLine]]:
        """Register a function giving lines the chapter's listings print, regenerated."""
        self.listings.append(lines)
        return lines


def claim_arguments(claims: tuple[Claim, ...], texts: dict[Claim, str] | None = None) -> dict:
    """The keyword arguments the claims feed, read from `texts` (a claim's text as the
    chapter states it) or from the transcriptions. An argument named `printed.sigma`
    is the entry "sigma" of the dict argument `printed` (and `printed.exp.e^1` an entry
    of its entry "exp")."""
    out: dict[str, Any] = {}
    for claim in claims:
        if claim.argument is None:
            continue
        value = claim.value((texts or {}).get(claim))
        *path, last = claim.argument.split(".")
        target = out
        for part in path:
            target = target.setdefault(part, {})
        target[last] = value
    return out


def _filling(check: Check, claims: tuple[Claim, ...]) -> Check:
    names = {c.argument.partition(".")[0] for c in claims if c.argument}
    parameters = inspect.signature(check).parameters
    unknown = names - set(parameters)
    if unknown:
        raise ValueError(f"{check.__name__} takes no argument {sorted(unknown)} its claims feed")

    @functools.wraps(check)
    def with_claims(*args: Any, **kwargs: Any) -> Sequence[str | Finding]:
        if args:
            given = ", ".join(f"{name}=…" for name in sorted(names))
            raise TypeError(
                f"{check.__name__} takes its claims by keyword ({check.__name__}({given})), "
                f"got {len(args)} positional argument{'s' if len(args) > 1 else ''}"
            )
        defaults = claim_arguments(claims)
        return check(**{**defaults, **kwargs})

    return with_claims


# Running a check ---------------------------------------------------------------------


@dataclass(frozen=True)
class CheckRun:
    """The outcome of one check: one of RESULTS."""

    result: str
    message: str  # why it failed, raised or is unchecked (one line per failure)
    evidence: tuple[str, ...]
    seconds: float
    findings: tuple[Finding, ...] = ()  # wrong printed values where the statement holds


def run_check(element: RegisteredElement) -> CheckRun:
    """Run an element's check, classifying what it raises; several properties failing at
    once (an ExceptionGroup of CheckFailed) is one failure with every message. A check
    with no methods (a stub) is never "passed"."""
    start = time.perf_counter()
    returned: tuple[str | Finding, ...] = ()
    message = ""
    try:
        returned = tuple(element.check())
        result = "passed"
        if not element.methods:
            result, message = "error", "a check that declares no methods cannot pass"
    except Unchecked as stub:
        result, message = "unchecked", str(stub)
    except CheckFailed as failure:
        result, message = "failed", str(failure)
    except Exception as exc:  # noqa: BLE001 - any other exception is reported, not raised
        failures, others = (
            exc.split(CheckFailed) if isinstance(exc, ExceptionGroup) else (None, exc)
        )
        if others is None and failures is not None:
            result, message = "failed", "; ".join(str(f) for f in failures.exceptions)
        else:
            result, message = "error", raised(exc)
    evidence = tuple(line for line in returned if not isinstance(line, Finding))
    findings = tuple(line for line in returned if isinstance(line, Finding))
    return CheckRun(result, message, evidence, time.perf_counter() - start, findings)


def raised(exc: BaseException) -> str:
    """An exception on one line: its type and the first line of its message."""
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}"


# Discovery ---------------------------------------------------------------------------


def chapter_modules() -> Iterator[str]:
    """The modules that define chapters: the packages under proofs.chapters, then the
    entry points of the group ENTRY_POINT_GROUP."""
    import proofs.chapters

    for module in pkgutil.iter_modules(proofs.chapters.__path__):
        if module.ispkg:
            yield f"proofs.chapters.{module.name}"
    yield from _entry_point_values(_import_path_state())


def _import_path_state() -> tuple[tuple[str, int], ...]:
    """Each folder of the import path with the time it last changed: a distribution
    installed or removed adds or drops an entry in one of them."""
    state = []
    for folder in sys.path:
        try:
            state.append((folder, os.stat(folder or ".").st_mtime_ns))
        except OSError:
            state.append((folder, -1))
    return tuple(state)


@functools.lru_cache(maxsize=16)
def _entry_point_values(path_state: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """The modules the entry points of ENTRY_POINT_GROUP name, read once per state of the
    import path (reading every installed distribution's metadata takes milliseconds, and
    an audit asks for the chapters several times)."""
    return tuple(point.value for point in entry_points(group=ENTRY_POINT_GROUP))


_loaded: set[str] = set()


def load_all() -> dict[str, RegisteredElement]:
    """Import every chapter module (their modules register the checks); the registry, in
    the chapters' order and, within a chapter, in the order of the element numbers."""
    for name in chapter_modules():
        if name in _loaded:
            continue
        chapter = getattr(importlib.import_module(name), "CHAPTER", None)
        if not isinstance(chapter, Chapter):
            raise ValueError(f"chapter module {name} defines no CHAPTER = Chapter(...)")
        if CHAPTERS.get(chapter.key, chapter) is not chapter:
            raise ValueError(f"chapter key {chapter.key!r} is defined twice (again by {name})")
        CHAPTERS[chapter.key] = chapter
        _loaded.add(name)
    order = list(CHAPTERS)
    ranked = sorted(
        REGISTRY.values(),
        key=lambda e: (
            order.index(e.chapter) if e.chapter in order else len(order),
            number_key(e.number),
        ),
    )
    if list(REGISTRY) != [e.id for e in ranked]:
        REGISTRY.clear()
        REGISTRY.update((e.id, e) for e in ranked)
    return REGISTRY


def number_key(number: str) -> tuple[int, int]:
    """The order of an element number in its chapter: 命題 3.2 before 例 4.3 before 補題 A.1
    (appendices after the numbered sections)."""
    section, _, counter = number.split()[-1].partition(".")
    return (int(section) if section.isdigit() else 1000 + ord(section[0]), int(counter or 0))


def chapter_of(key: str) -> Chapter:
    """The chapter with this key (after discovery); KeyError names the known keys."""
    load_all()
    if key not in CHAPTERS:
        raise KeyError(f"no chapter {key!r}; known: {', '.join(CHAPTERS)}")
    return CHAPTERS[key]


def tables() -> dict[str, TableEntry]:
    """Every registered table of every chapter, by name, in the chapters' order."""
    load_all()
    return {name: t for c in CHAPTERS.values() for name, t in c.tables.items()}


def formulas() -> dict[str, Formula]:
    """Every registered formula of every chapter, by name."""
    load_all()
    return {name: f for c in CHAPTERS.values() for name, f in c.formulas.items()}


# Finding elements ----------------------------------------------------------------------

_NUMBER = re.compile(r"^\s*(\S+?)\s*(\d+(?:\.\d+)?|[A-Z]\.\d+)\s*(?:[［\[](.+?)[］\]])?\s*$")


def find(query: str) -> list[RegisteredElement]:
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


def nearest(query: str, names: Iterable[str], n: int = 3) -> list[str]:
    """The names closest to a mistyped one (an id, a table, a formula), best first."""
    key = query.strip().replace("_", "-")
    return difflib.get_close_matches(key, list(names), n=n, cutoff=0.4)


def nearest_ids(query: str, n: int = 3) -> list[str]:
    """The registered ids closest to a mistyped one."""
    return nearest(query, load_all(), n)
