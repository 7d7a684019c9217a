"""`proofs check FILE.py[:NAME,...]` and `proofs check --answers FILE.toml`: the readers'
bench (proofs.bench) on a reader's functions or numeric answers, its grammar beside it.
Exit 0 when every judged clause holds, 1 when one fails, 2 on bad input (a file that
does not import or cannot be read, a name that is not one of the bench's functions)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from proofs.cli.arguments import UsageError

RESULT = {"passed": "ok  ", "failed": "FAIL", "note": "note", "not run": "----"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    check = sub.add_parser(
        "check",
        help="judge a reader's own softmax, LayerNorm, attention, blocks (docs/bench.md)",
        description="Judge the functions of a reader's file by the clauses of the chapters' "
        "elements: each against the exact value within a bound any implementation of the "
        "definition's steps meets, a failure shrunk to a minimal input. The file runs "
        "contained, never in this process. With --answers, judge a reader's counts.",
    )
    check.add_argument(
        "file",
        nargs="?",
        metavar="FILE.py[:NAME,...]",
        help="the reader's file (or module:function), optionally the functions to judge",
    )
    check.add_argument(
        "--answers",
        metavar="FILE.toml",
        help="judge the numeric answers of this file (parameter and multiplication counts)",
    )
    check.add_argument(
        "--element",
        action="append",
        metavar="ID",
        help="judge this element's clauses only (repeatable)",
    )
    check.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the seed of the drawn cases (default 0); a failure names it",
    )
    check.add_argument("--json", action="store_true", help="the results as JSON on standard output")


def split_target(target: str) -> tuple[str, list[str] | None]:
    """(the file, the functions named) of FILE.py, FILE.py:NAME,… or module.path:NAME,…

    >>> split_target("package.solution:softmax,gelu")
    ('package/solution.py', ['softmax', 'gelu'])
    """
    path, colon, names = target.rpartition(":")
    if not colon or not names or "/" in names or names.endswith(".py"):
        return target, None
    if not path.endswith(".py"):
        path = path.replace(".", "/") + ".py"
    return path, [n.strip() for n in names.split(",") if n.strip()]


def lines(results: list, unmatched: dict[str, str]) -> list[str]:
    """The report: one line per clause, a failure's witness, replay line and hint below it,
    then the functions not found."""
    out = []
    for r in results:
        out.append(
            f"{RESULT[r.verdict]}  {r.element}  {r.title}  "
            f"[{r.function}, {r.cases} cases, {r.seconds:.1f} s]"
        )
        if r.said:
            out.append(f"      {r.said}")
        w = r.witness
        if w is not None and r.verdict != "passed":
            out.append(f"      {w.reason}")
            for label, value in (
                ("input", w.input),
                ("yours", w.output),
                ("exact", w.exact),
                ("tolerance", w.tolerance and f"{w.tolerance}: {w.source}"),
            ):
                if value:
                    out.append(f"      {label:9s} {value}")
            if r.seed is not None:
                out.append(f"      replay    --seed {r.seed} --element {r.element}")
        if r.hint:
            out.append(f"      hint      {r.hint}; reread {r.reread}")
    for name, why in unmatched.items():
        out.append(f"----  {name}: {why}")
    return out


def tally(results: list) -> str:
    passed = sum(r.verdict == "passed" for r in results)
    failed = sum(r.verdict in ("failed", "not run") for r in results)
    notes = sum(r.verdict == "note" for r in results)
    return f"{passed} clauses hold, {failed} fail, {notes} notes"


def check(args: argparse.Namespace) -> int:
    if args.file is None and args.answers is None:
        raise UsageError("check: give a reader's FILE.py, or --answers FILE.toml")
    if args.answers is not None and args.file is not None:
        raise UsageError("check: give FILE.py or --answers FILE.toml, not both")
    if args.answers is not None:
        return _answers(args)
    from proofs.bench.judging import BadInput, judge_file

    path, names = split_target(args.file)
    try:
        report = judge_file(path, names, args.element, seed=args.seed)
    except BadInput as exc:
        raise UsageError(f"check: {exc}") from None
    if args.json:
        _dump(report.file, report.results, report.unmatched, report.contained)
    else:
        print("\n".join(lines(report.results, report.unmatched)))
        where = "contained" if report.contained else "NOT contained (no sandbox on this machine)"
        print(f"{report.file}: {tally(report.results)}; ran {where}")
    return 1 if report.failed else 0


def _answers(args: argparse.Namespace) -> int:
    from proofs.bench.answers import AnswersError, judge_answer, read_answers

    try:
        entries = read_answers(Path(args.answers))
    except AnswersError as exc:
        raise UsageError(f"check --answers: {exc}") from None
    results = [judge_answer(kind, entry) for kind, entry in entries]
    if args.element:
        results = [r for r in results if r.element in args.element]
    if args.json:
        _dump(args.answers, results, {}, None)
    else:
        print("\n".join(lines(results, {})))
        print(f"{args.answers}: {tally(results)}")
    return 1 if any(r.verdict == "failed" for r in results) else 0


def _dump(file: str, results: list, unmatched: dict, contained: bool | None) -> None:
    data = {
        "file": file,
        "contained": contained,
        "results": [r.as_dict() for r in results],
        "unmatched": unmatched,
    }
    json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
