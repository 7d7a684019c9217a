"""`proofs check FILE.py[:NAME,...]`: the readers' bench (proofs.bench) on a reader's file,
its grammar beside it. Exit 0 when every judged clause holds, 1 when one fails, 2 on bad
input (a file that does not import, a name that is not one of the bench's functions)."""

from __future__ import annotations

import argparse
import json
import sys

from proofs.cli.arguments import UsageError

RESULT = {"passed": "ok  ", "failed": "FAIL", "note": "note", "not run": "----"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    check = sub.add_parser(
        "check",
        help="judge a reader's own softmax, LayerNorm, attention, blocks (docs/bench.md)",
        description="Judge the functions of a reader's file by the clauses of the chapters' "
        "elements: each against the exact value within a bound any backward-stable "
        "implementation meets, a failure shrunk to a minimal input. The file runs "
        "contained, never in this process.",
    )
    check.add_argument(
        "file",
        metavar="FILE.py[:NAME,...]",
        help="the reader's file, optionally the functions to judge",
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


def _split(target: str) -> tuple[str, list[str] | None]:
    path, colon, names = target.rpartition(":") if target.count(":") else (target, "", "")
    if not colon or "/" in names or names.endswith(".py"):
        return target, None
    if not path.endswith(".py"):
        path = path.replace(".", "/") + ".py"
    return path, [n.strip() for n in names.split(",") if n.strip()]


def _lines(report: object) -> list[str]:
    from proofs.bench.judge import Report

    assert isinstance(report, Report)
    out = []
    for r in report.results:
        out.append(
            f"{RESULT[r.verdict]}  {r.element}  {r.title}  [{r.function}, {r.cases} cases, {r.seconds:.1f} s]"
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
    for name, why in report.unmatched.items():
        out.append(f"----  {name}: {why}")
    passed = sum(r.verdict == "passed" for r in report.results)
    failed = sum(r.verdict in ("failed", "not run") for r in report.results)
    notes = sum(r.verdict == "note" for r in report.results)
    where = "contained" if report.contained else "NOT contained (no sandbox on this machine)"
    out.append(f"{report.file}: {passed} clauses hold, {failed} fail, {notes} notes; ran {where}")
    return out


def check(args: argparse.Namespace) -> int:
    from proofs.bench.judge import BadInput, judge_file

    path, names = _split(args.file)
    try:
        report = judge_file(path, names, args.element, seed=args.seed)
    except BadInput as exc:
        raise UsageError(f"check: {exc}") from None
    if args.json:
        data = {
            "file": report.file,
            "contained": report.contained,
            "results": [r.as_dict() for r in report.results],
            "unmatched": report.unmatched,
        }
        json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        print("\n".join(_lines(report)))
    return 1 if report.failed else 0
