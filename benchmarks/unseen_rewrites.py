"""False findings on the unseen chapters written otherwise: each correct chapter of
benchmarks/unseen (or --folder) rewritten by one neutral change throughout its formulas —
grouped digits with thin spaces, a power of ten after \\cdot, \\dfrac for \\frac, … — and
audited again beside the chapter as written.

A rewrite says what the chapter said, so an error or a warning of the rewritten chapter's
audit that the chapter's own audit does not report (by line, severity and code) is a false
finding. Prints, for each rewrite, the count and each false finding, and exits 1 when there
is one.

Run from the repository root:

    python -m benchmarks.unseen_rewrites [--folder DIR] [--jobs N] [REWRITE ...]
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmarks.unseen_cost import UNSEEN, chapters
from proofs.audit import audit_document
from proofs.book.profiles import load_profile
from proofs.reader import parse
from proofs.tex.tokens import group_end

_MATH = re.compile(r"\$\$?[^$]+\$\$?")


def _per_line(text: str, change: Callable[[str], str]) -> str:
    """The change applied to each line of a chapter outside its code blocks."""
    out, fenced = [], False
    for line in text.split("\n"):
        fenced ^= line.startswith("```")
        out.append(line if fenced else change(line))
    return "\n".join(out)


def in_math(change: Callable[[str], str]) -> Callable[[str], str]:
    """The change applied inside each formula of a chapter (`$…$`, `$$…$$` on one line),
    outside its code blocks."""
    return lambda text: _per_line(text, lambda line: _MATH.sub(lambda m: change(m[0]), line))


def in_prose(change: Callable[[str], str]) -> Callable[[str], str]:
    """The change applied to a chapter's text outside its formulas and code blocks."""

    def line_changed(line: str) -> str:
        formulas = [*_MATH.findall(line), ""]
        pieces = _MATH.split(line)
        return "".join(change(p) + f for p, f in zip(pieces, formulas, strict=True))

    return lambda text: _per_line(text, line_changed)


def groups_as(pattern: str, arity: int, form: Callable[..., str]) -> Callable[[str], str]:
    """Each match of `pattern` followed by `arity` braced groups, written by `form` from
    the groups' contents (themselves rewritten); a match whose groups do not close stays."""
    opening = re.compile(pattern)

    def change(formula: str) -> str:
        out, at = [], 0
        for match in opening.finditer(formula):
            if match.start() < at:
                continue
            parts, end = [], match.end()
            for _ in range(arity):
                close = group_end(formula, end) if formula[end : end + 1] == "{" else None
                if close is None:
                    break
                parts.append(formula[end + 1 : close - 1])
                end = close
            if len(parts) == arity:
                out += [formula[at : match.start()], form(*map(change, parts))]
                at = end
        return "".join(out) + formula[at:]

    return change


def _parenthesised(formula: str) -> str:
    """Every ( and ) of a formula as \\left( and \\right), where they pair up and no
    bracket of another kind could close one of them (an interval [0, 1))."""
    if formula.count("(") != formula.count(")") or re.search(
        r"[\[\]]|\\[a-zA-Z]*[lr]?[(|)]", formula
    ):
        return formula
    return formula.replace("(", r"\left(").replace(")", r"\right)")


def _is_leibniz(top: str, bottom: str) -> bool:
    """Whether \\frac{top}{bottom} is a derivative, d/dβ or dH/dT."""
    return bool(re.fullmatch(r"d(?:[A-Za-z\\(].*)?", top) and re.match(r"d\\?[A-Za-z]", bottom))


def _upright_leibniz(top: str, bottom: str) -> str:
    """\\frac{d…}{d…} with its d's set upright; any other fraction as it was."""
    if _is_leibniz(top, bottom):
        return rf"\frac{{\mathrm{{d}}{top[1:]}}}{{\mathrm{{d}}{bottom[1:]}}}"
    return rf"\frac{{{top}}}{{{bottom}}}"


def _slashed(top: str, bottom: str) -> str:
    """\\frac{a}{b} as ((a)/(b)), and a derivative \\frac{d}{dβ} as d/dβ."""
    return f"{top}/{bottom} " if _is_leibniz(top, bottom) else f"(({top})/({bottom}))"


REWRITES: dict[str, Callable[[str], str]] = {
    "thin-space groups": in_math(lambda m: re.sub(r"(?<=\d)\{,\}(?=\d{3})", r"\\,", m)),
    "cdot powers": in_math(lambda m: re.sub(r"(\d)\s*\\times\s*(?=10\^)", r"\1 \\cdot ", m)),
    "dfrac": in_math(lambda m: m.replace(r"\frac", r"\dfrac")),
    "left right": in_math(
        lambda m: re.sub(r"\\[Bb]ig\(", r"\\left(", re.sub(r"\\[Bb]ig\)", r"\\right)", m))
    ),
    "operatorname": in_math(
        lambda m: re.sub(r"\\mathrm\{([A-Za-z]{3,})\}", r"\\operatorname{\1}", m)
    ),
    "leq geq": in_math(lambda m: re.sub(r"\\([lg])e(?![a-z])", r"\\\1eq", m)),
    "spaced relations": in_math(lambda m: re.sub(r"((?<![:\\])=|(?<!\\)[+<>])", r" \1 ", m)),
    "tfrac": in_math(lambda m: m.replace(r"\frac", r"\tfrac")),
    "cdot before a name": in_math(lambda m: re.sub(r"\\times(?=\s*[A-Za-z\\])", r"\\cdot", m)),
    "full-width percent": lambda text: re.sub(r"(\d)\s*%", "\\1 ％", text),
    "ungrouped digits": in_math(lambda m: re.sub(r"(?<=\d)\{,\}(?=\d{3})", "", m)),
    "exp for e powers": in_math(
        groups_as(r"(?<![A-Za-z\\_])e\^(?=\{)", 1, lambda power: rf"\exp({power})")
    ),
    "slash for frac": in_math(groups_as(r"\\frac(?=\{)", 2, _slashed)),
    "braced powers": in_math(lambda m: re.sub(r"\^([0-9A-Za-z])", r"^{\1}", m)),
    "cdot between numbers": in_math(lambda m: re.sub(r"(\d)\s*\\times\s*(?=\d)", r"\1 \\cdot ", m)),
    "thin-space product": in_math(lambda m: re.sub(r"(\d)\s*\\times\s*(?=[A-Za-z])", r"\1\\,", m)),
    "left right parentheses": in_math(_parenthesised),
    "upright differentials": in_math(groups_as(r"\\frac(?=\{d)", 2, _upright_leibniz)),
    "ungrouped prose digits": in_prose(
        lambda prose: re.sub(
            r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])", lambda m: m[0].replace(",", ""), prose
        )
    ),
}


def audited(text: str, name: str) -> tuple[set[tuple[int, str, str]], int, int]:
    """(line, severity, code) of each error and warning of the chapter's audit, and the
    relations and numbers it examined."""
    report = audit_document(parse(text, name), with_checks=False)
    found = {(f.line, str(f.severity), f.code) for f in report.mismatched}
    return found, report.coverage.relations_examined, report.coverage.numbers_examined


def _false(job: tuple[Path, tuple[str, ...]]) -> list[str]:
    """The false findings of the chapter under each rewrite, as printed lines."""
    path, rewrites = job
    load_profile("ci", in_cache=True)
    text = path.read_text(encoding="utf-8")
    own = audited(text, path.name)[0]
    return [
        f"{rewrite}: {path.name}:{line} {level} {code}"
        for rewrite in rewrites
        for line, level, code in sorted(audited(REWRITES[rewrite](text), path.name)[0] - own)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rewrites", nargs="*", metavar="REWRITE", help=", ".join(REWRITES))
    parser.add_argument("--folder", type=Path, default=UNSEEN)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    unknown = set(args.rewrites) - set(REWRITES)
    if unknown:
        parser.error(
            f"no rewrite {', '.join(sorted(unknown))}; the rewrites: {', '.join(REWRITES)}"
        )
    chosen = args.rewrites or list(REWRITES)
    paths = chapters(args.folder, [])
    jobs = [(path, tuple(chosen)) for path in paths]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            found = [line for lines in pool.map(_false, jobs) for line in lines]
    else:
        found = [line for lines in map(_false, jobs) for line in lines]
    for rewrite in chosen:
        mine = [line for line in found if line.startswith(f"{rewrite}: ")]
        print(f"{rewrite:18} {len(mine)} false findings on {len(paths)} chapters")
        for line in mine:
            print("   ", line)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
