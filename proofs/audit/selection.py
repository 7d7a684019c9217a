"""Which rules a run reports, by code: `select` and `ignore` (under [tool.proofs] in
pyproject.toml, or --select and --ignore), and `per-file-ignores`.

A selector is a rule's code (EQ001), a prefix of codes (EQ, the equalities' family; EQ00)
or ALL. A code is reported when the most specific selector that names it is in `select`
rather than in `ignore` (or in the ignores of a file's pattern): `select = ["EQ"]`,
`ignore = ["EQ002"]` reports every equality rule but EQ002; at the same length, ignore
wins. Every rule still runs (one verdict for a slip is decided between the rules); the
findings of the rules not selected are left out of the report. A selector that names no
rule is an error naming where it was written and the nearest codes.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from proofs.audit.reports.report import Report
from proofs.audit.running import RULES

ALL = "ALL"
SELECTOR = re.compile(r"[A-Z]+[0-9]*")


class SelectionError(ValueError):
    """A selector that names no rule: the message says where it was written."""


@dataclass(frozen=True)
class Selection:
    """The selectors of a run; `per_file`: each pattern (relative to `root`, the folder of
    the pyproject.toml that gives them) with the selectors it ignores."""

    select: tuple[str, ...] = (ALL,)
    ignore: tuple[str, ...] = ()
    per_file: tuple[tuple[str, tuple[str, ...]], ...] = ()
    root: Path | None = None

    def ignored_in(self, path: str) -> tuple[str, ...]:
        """The selectors ignored in the file at `path`: the run's and its patterns'."""
        names = [Path(path).name]
        if self.root is not None:
            try:
                names.append(Path(path).resolve().relative_to(self.root.resolve()).as_posix())
            except ValueError:
                pass  # a file outside the project: its patterns match its name alone
        matched = [
            codes
            for pattern, codes in self.per_file
            if any(fnmatch.fnmatch(n, pattern) for n in names)
        ]
        return (*self.ignore, *(c for codes in matched for c in codes))

    def reports(self, code: str, ignored: Sequence[str]) -> bool:
        """Whether a finding of `code` is reported, given the selectors ignored; a finding
        of no rule's code always is."""
        if not code:
            return True
        return _reach(code, self.select) > _reach(code, ignored)

    def applied(self, report: Report) -> Report:
        """The report without the findings of the rules not selected for its file."""
        ignored = self.ignored_in(report.path)
        return replace(
            report,
            findings=[f for f in report.findings if self.reports(f.code, ignored)],
            suppressed=[s for s in report.suppressed if self.reports(s[0].code, ignored)],
        )


def _reach(code: str, selectors: Iterable[str]) -> int:
    """The length of the most specific selector naming the code (ALL: 0), -1 for none."""
    return max(
        (0 if s == ALL else len(s) for s in selectors if s == ALL or code.startswith(s)),
        default=-1,
    )


def selectors(given: Iterable[str], where: str) -> tuple[str, ...]:
    """The selectors `given`, checked: each ALL, a code or a prefix of codes; SelectionError
    naming `where` (the option, or the file and its key) and the nearest codes."""
    out = []
    for selector in given:
        if selector == ALL or (
            SELECTOR.fullmatch(selector) and any(c.startswith(selector) for c in RULES)
        ):
            out.append(selector)
            continue
        from proofs.book.registry import nearest

        near = nearest(selector.upper(), sorted(RULES))
        said = f"; nearest: {', '.join(near)}" if near else ""
        raise SelectionError(
            f"{where}: {selector!r} is no rule's code nor a prefix of codes{said} "
            "(docs/rules.md lists them)"
        )
    return tuple(out)


def selection(
    select: Sequence[str] | None,
    ignore: Sequence[str],
    per_file: Mapping[str, Sequence[str]],
    root: Path | None,
    where: str,
) -> Selection:
    """A Selection from settings, each selector checked (SelectionError says `where` and
    the key); `select` None selects ALL."""
    return Selection(
        selectors(select, f"{where}select") if select is not None else (ALL,),
        selectors(ignore, f"{where}ignore"),
        tuple(
            (pattern, selectors(codes, f"{where}per-file-ignores {pattern!r}"))
            for pattern, codes in per_file.items()
        ),
        root,
    )
