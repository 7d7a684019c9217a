"""The command line: `python -m proofs verify | tables | latex | audit`.

Exit codes: 0 all passed / nothing mismatched; 1 a check failed or errored, or
the audit found a mismatch (a finding of an example's or exercise's check
included); 2 bad input (a malformed command line, an unknown id, a missing file,
an output file that exists without --force), with a one-line message on stderr.
A finding of a passing check is listed by verify but does not fail it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from proofs.files import OutputError, check_target, write_atomically

PROG = "proofs"
SCREEN_WIDTH = 120  # columns of the verify screen unless --wide


class UsageError(Exception):
    """Bad input from the user: reported on one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (the usage is in --help), exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter

    def seed(text: str) -> int:
        """--seed: an integer >= 0, the only seeds NumPy's generators take."""
        try:
            value = int(text)
        except ValueError:
            value = -1
        if value < 0:
            raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
        return value

    def file_name(dash: str) -> Callable[[str], Path]:
        """The type of a FILE or --out: a name, not '' (Path("") would be the current
        directory) nor '-' (`dash` says why)."""

        def parse(text: str) -> Path:
            if text in ("", "-"):
                why = f" ({dash})" if text else ""
                raise argparse.ArgumentTypeError(f"expected a file name, got {text!r}{why}")
            return Path(text)

        return parse

    parser = _Parser(
        prog=PROG,
        description="Verify the mathematics of the self-attention and Transformer-block chapters.",
        epilog="example:\n  python -m proofs verify\n  python -m proofs audit chapter.mdx",
        formatter_class=formatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    verify = sub.add_parser(
        "verify",
        help="run the registered checks and report each element's result",
        description=(
            "Run every registered check, or those selected by id (prop-softmax-jacobian or\n"
            "prop_softmax_jacobian), by number (命題 3.3, 命題 7.2［自己注意］) or by chapter\n"
            "(self-attention, transformer-block). Exit 0 only if every selected check passes."
        ),
        epilog=(
            "examples:\n"
            "  python -m proofs verify\n"
            "  python -m proofs verify prop-softmax-jacobian '命題 3.3' --profile thorough\n"
            "  python -m proofs verify transformer-block --json > report.json"
        ),
        formatter_class=formatter,
    )
    verify.add_argument("selectors", nargs="*", metavar="ID|NUMBER|CHAPTER")
    verify.add_argument("--json", action="store_true", help="write the report as JSON on stdout")
    verify.add_argument(
        "--profile",
        choices=("ci", "dev", "thorough"),
        default=None,
        help="Hypothesis profile for the numeric properties (default: $HYPOTHESIS_PROFILE or dev)",
    )
    verify.add_argument(
        "--evidence", action="store_true", help="print each check's evidence lines too"
    )
    verify.add_argument(
        "--wide",
        action="store_true",
        help=f"full titles and methods (the screen is otherwise at most {SCREEN_WIDTH} columns)",
    )

    tables = sub.add_parser(
        "tables",
        help="regenerate the chapters' tables and the listings' printed numbers",
        description=(
            "Regenerate tables from the package's own computations. Without NAME, every table.\n"
            "Options set the free parameters of the tables that have them; the defaults are\n"
            "the chapters' settings."
        ),
        epilog=(
            "examples:\n"
            "  python -m proofs tables attention-complexity\n"
            "  python -m proofs tables attention-complexity --d 128 --n 128 256 --format latex\n"
            "  python -m proofs tables gpt2-parameters --d 1024 --layers 24 --format csv"
        ),
        formatter_class=formatter,
    )
    tables.add_argument("names", nargs="*", metavar="NAME")
    tables.add_argument(
        "--format",
        default="markdown",
        choices=("markdown", "text", "latex", "csv", "listing"),
        help="markdown (as the MDX chapter), text (TAB-separated, as the rendered chapter), "
        "latex (booktabs), csv (raw values), listing (as the chapters' code prints it)",
    )
    tables.add_argument("--d", type=int, help="model width d")
    tables.add_argument("--n", type=int, nargs="+", help="sequence length(s) n")
    tables.add_argument("--vocab", type=int, help="vocabulary size |V|")
    tables.add_argument("--layers", type=int, help="number of blocks L")
    tables.add_argument("--n-ctx", type=int, help="context length L_ctx")
    tables.add_argument("--d-ff", type=int, help="MLP width d_ff (default 4d)")
    tables.add_argument("--heads", type=int, help="number of heads h")
    tables.add_argument("--dims", type=int, nargs="+", help="the d_k values of the scaling table")
    tables.add_argument("--seed", type=seed, help="seed of the scaling table's generator")

    latex = sub.add_parser(
        "latex",
        help="print (or write) the LaTeX of the registered formulas",
        description=(
            "Print the LaTeX of the named formulas (all when none is named), each derived by\n"
            "symbolic/ and printed in the chapters' notation. --out writes a .tex file (or a\n"
            ".json file mapping each name to its TeX) atomically."
        ),
        epilog=(
            "examples:\n"
            "  python -m proofs latex softmax-jacobian\n"
            "  python -m proofs latex --out formulas.tex\n"
            "  python -m proofs latex --out formulas.json --force"
        ),
        formatter_class=formatter,
    )
    latex.add_argument("names", nargs="*", metavar="NAME")
    latex.add_argument(
        "--out",
        type=file_name("without --out the LaTeX is printed on standard output"),
        help="write to FILE (.tex or .json) instead of stdout",
    )
    latex.add_argument("--force", action="store_true", help="replace FILE if it exists")
    latex.add_argument("--list", action="store_true", help="list the formula names and titles")

    audit = sub.add_parser(
        "audit",
        help="check a chapter file's elements, tables, equalities and printed outputs",
        description=(
            "Read chapter files (MDX with <Proposition id=…> elements, or rendered text with\n"
            "命題 3.3（…） headings) and report every element with the check covering it,\n"
            "every table compared cell by cell with the regenerated one, every numeric\n"
            "equality recomputed at the printed precision, and every printed output line of\n"
            "the listings compared with the package's computation. Exit 1 on a mismatch."
        ),
        epilog="example:\n  python -m proofs audit ../shared/seeds/000_ce182fefa314a82b.txt",
        formatter_class=formatter,
    )
    audit.add_argument(
        "files", nargs="+", type=file_name("standard input is not read"), metavar="FILE"
    )
    audit.add_argument("--json", action="store_true", help="write the findings as JSON")
    audit.add_argument(
        "--quiet", action="store_true", help="list only mismatches and unchecked items"
    )
    audit.add_argument(
        "--profile",
        choices=("ci", "dev", "thorough"),
        default=None,
        help="Hypothesis profile for the examples' and exercises' checks "
        "(default: $HYPOTHESIS_PROFILE or dev)",
    )
    return parser


# verify ------------------------------------------------------------------------


class LoadError(Exception):
    """The chapter modules cannot be imported: reported on one line, exit code 1."""


def _registry() -> dict:
    from proofs.registry import load_all

    try:
        return load_all()
    except Exception as exc:  # noqa: BLE001 - a broken chapter module is reported, not raised
        raise LoadError(f"cannot load the checks: {type(exc).__name__}: {exc}") from exc


def _select(selectors: Sequence[str]) -> list:
    from proofs.registry import find, nearest_ids

    registry = _registry()
    if not selectors:
        return list(registry.values())
    chosen: dict[str, object] = {}
    for query in selectors:
        found = find(query)
        if not found:
            near = nearest_ids(query)
            hint = f"; nearest: {', '.join(near)}" if near else ""
            raise UsageError(f"verify: no element matches {query!r}{hint}")
        for element in found:
            chosen.setdefault(element.id, element)
    return list(chosen.values())


def _run_check(element) -> dict:
    from proofs.registry import findings, run_check

    run = run_check(element.check)
    return {
        "id": element.id,
        "number": element.number,
        "title": element.title,
        "chapter": element.chapter,
        "kind": element.kind,
        "methods": list(element.methods),
        "description": element.description,
        "result": run.result,
        "message": run.message,
        "evidence": list(run.evidence),
        "findings": findings(list(run.evidence)),
        "seconds": round(run.seconds, 3),
    }


def _progress(i: int, total: int, element) -> None:
    end = "\r" if sys.stderr.isatty() else "\n"
    sys.stderr.write(f"[{i}/{total}] {element.id} …".ljust(60) + end)
    sys.stderr.flush()


def display_width(text: str) -> int:
    """Columns a terminal gives the text: East Asian wide and full-width characters
    (unicodedata.east_asian_width W or F) take two, every other character one."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - display_width(text))


def truncate(text: str, width: int) -> str:
    """The text cut to at most `width` columns, ending in "…" when cut."""
    if display_width(text) <= width:
        return text
    out, used = "", 1  # the "…" takes one column
    for ch in text:
        if used + display_width(ch) > width:
            break
        out, used = out + ch, used + display_width(ch)
    return out + "…"


def _wrap(text: str, width: int, indent: str = "    ") -> list[str]:
    """Words of `text` on lines of at most `width` columns (a longer word alone on its
    line), the lines after the first indented."""
    lines, current = [], ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and display_width(candidate) > width:
            lines.append(current)
            current = indent + word
        else:
            current = candidate
    return [*lines, current]


METHOD_ABBREVIATIONS = {
    "symbolic": "sym",
    "numeric": "num",
    "witness": "wit",
    "high precision": "hp",
    "not a theorem": "nt",
}


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(display_width(row[c]) for row in [header, *rows]) for c in range(len(header))]
    lines = [
        "  ".join(_pad(cell, w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


def _screen(
    results: list[dict], profile: str, seconds: float, evidence: bool, wide: bool = False
) -> str:
    """The table of results, then failures, findings and the summary line. Unless
    `wide`, every line of the table fits in SCREEN_WIDTH columns: the methods are
    abbreviated when the titles would not fit whole otherwise, and the titles are cut
    with "…" to the columns left."""
    header = ("id", "number", "title", "kind / methods", "result", "time")

    def rows(abbreviate: bool, title_width: int | None) -> list[tuple[str, ...]]:
        def methods(r: dict) -> str:
            names = [METHOD_ABBREVIATIONS[m] if abbreviate else m for m in r["methods"]]
            return f"{r['kind']} / {', '.join(names)}"

        return [
            (
                r["id"],
                r["number"],
                r["title"] if title_width is None else truncate(r["title"], title_width),
                methods(r),
                r["result"],
                f"{r['seconds']:.2f} s",
            )
            for r in results
        ]

    abbreviate = False
    title_width = None
    if not wide:

        def room(abbreviated: bool) -> int:
            """Columns left for the titles: the screen less the other columns and gaps."""
            table = [header, *rows(abbreviated, None)]
            used = sum(max(display_width(row[c]) for row in table) for c in (0, 1, 3, 4, 5))
            return SCREEN_WIDTH - used - 2 * (len(header) - 1)

        abbreviate = room(False) < max(display_width(r["title"]) for r in results)
        title_width = max(room(abbreviate), len("title"))
    lines = _table(header, rows(abbreviate, title_width))
    if abbreviate:
        shown = sorted(
            {m for r in results for m in r["methods"]}, key=list(METHOD_ABBREVIATIONS).index
        )
        lines.append("methods: " + ", ".join(f"{METHOD_ABBREVIATIONS[m]} {m}" for m in shown))
    width = None if wide else SCREEN_WIDTH

    def paragraph(text: str) -> list[str]:
        return [text] if width is None else _wrap(text, width)

    if evidence:
        lines.append("")
        for r in results:
            for item in r["evidence"]:
                lines += paragraph(f"{r['id']}: {item}")
    problems = [r for r in results if r["result"] != "passed"]
    if problems:
        lines.append("")
        for r in problems:
            lines += paragraph(f"{r['result'].upper()} {r['id']} ({r['number']}): {r['message']}")
    found = [(r["id"], message) for r in results for message in r["findings"]]
    if found:
        lines.append("")
        lines.append(
            f"findings ({len(found)}): the chapter prints a wrong value where the statement holds"
        )
        for id_, message in found:
            lines += paragraph(f"{id_}: {message}")
    tally = {k: sum(r["result"] == k for r in results) for k in ("passed", "failed", "error")}
    lines.append("")
    lines.append(
        f"{len(results)} checks: {tally['passed']} passed, {tally['failed']} failed, "
        f"{tally['error']} errors, {len(found)} finding{'' if len(found) == 1 else 's'} "
        f"in {seconds:.1f} s (Hypothesis profile {profile})"
    )
    return "\n".join(lines)


def _verify(args: argparse.Namespace) -> int:
    from proofs.profiles import load_profile

    profile = load_profile(args.profile)
    elements = _select(args.selectors)
    start = time.perf_counter()
    results = []
    for i, element in enumerate(elements, 1):
        _progress(i, len(elements), element)
        results.append(_run_check(element))
    if elements and sys.stderr.isatty():
        sys.stderr.write(" " * 60 + "\r")
    seconds = time.perf_counter() - start
    ok = all(r["result"] == "passed" for r in results)
    if args.json:
        summary = {k: sum(r["result"] == k for r in results) for k in ("passed", "failed", "error")}
        report = {
            "profile": profile,
            "checks": len(results),
            **summary,
            "findings": sum(len(r["findings"]) for r in results),
            "seconds": round(seconds, 3),
            "ok": ok,
            "elements": results,
        }
        print(json.dumps(report, ensure_ascii=False, indent=2))
    elif not results:
        print("0 checks registered: nothing to verify")
    else:
        print(_screen(results, profile, seconds, args.evidence, args.wide))
    return 0 if ok else 1


# tables ------------------------------------------------------------------------


def _table_arguments(name: str, args: argparse.Namespace) -> dict:
    """The options a table has, under its own parameter names; unset options omitted."""
    given = {
        "d": args.d,
        "vocab": args.vocab,
        "n_layer": args.layers,
        "n_ctx": args.n_ctx,
        "d_ff": args.d_ff,
        "seed": args.seed,
        "dims": tuple(args.dims) if args.dims else None,
    }
    accepted = {
        "scaling": ("dims", "seed"),
        "attention-complexity": ("d", "ns"),
        "gpt2-parameters": ("vocab", "d", "n_layer", "n_ctx", "d_ff"),
        "attention-parameters": ("d", "h"),
        "small-model-count": ("vocab", "d", "n_layer", "d_ff", "n_ctx", "n_head"),
        "block-cost": ("d", "n"),
    }[name]
    given["h"] = given["n_head"] = args.heads
    if args.n:
        given["ns"] = tuple(args.n)
        if "n" in accepted and len(args.n) != 1:
            raise UsageError(
                f"tables: {name} takes one --n, got {len(args.n)} values; name the tables "
                f"to regenerate, e.g. tables attention-complexity --n {' '.join(map(str, args.n))}"
            )
        given["n"] = args.n[0]
    return {k: given[k] for k in accepted if given.get(k) is not None}


def _tables(args: argparse.Namespace) -> int:
    from proofs import tables

    names = args.names or list(tables.TABLES)
    for name in names:
        if name not in tables.TABLES:
            raise UsageError(
                f"tables: unknown table {name!r}; expected one of {', '.join(tables.TABLES)}"
            )
    blocks = []
    for name in names:
        try:
            table = tables.TABLES[name](**_table_arguments(name, args))
        except (TypeError, ValueError) as exc:
            raise UsageError(f"tables: {name}: {exc}") from exc
        body = table.render(args.format)
        if len(names) > 1 or args.format in ("markdown", "text"):
            marker = "%" if args.format == "latex" else "#"
            body = f"{marker} {name}: {table.caption}\n{body}"
        blocks.append(body.rstrip("\n"))
    print("\n\n".join(blocks))
    return 0


# latex -------------------------------------------------------------------------


def _latex(args: argparse.Namespace) -> int:
    import difflib

    from proofs import formulas

    if args.list:
        for formula in formulas.FORMULAS.values():
            print(f"{formula.name:28} {formula.title}")
        return 0
    names = args.names or list(formulas.FORMULAS)
    for name in names:
        if name not in formulas.FORMULAS:
            near = difflib.get_close_matches(name, list(formulas.FORMULAS), n=3, cutoff=0.4)
            hint = f"; nearest: {', '.join(near)}" if near else ""
            raise UsageError(f"latex: unknown formula {name!r}{hint}")
    if args.out is not None and args.out.suffix not in (".tex", ".json"):
        raise UsageError(f"{args.out}: --out must end in .tex or .json, got {args.out.suffix!r}")
    if args.out is not None:
        check_target(args.out, args.force)  # before the formulas are derived
    try:
        rendered = {name: formulas.FORMULAS[name].latex() for name in names}
    except formulas.FormulaNotProved as exc:
        raise LoadError(f"latex: {exc}; nothing written") from exc
    if args.out is not None and args.out.suffix == ".json":
        text = json.dumps(rendered, ensure_ascii=False, indent=2) + "\n"
    else:
        text = "\n".join(
            f"% {name}: {formulas.FORMULAS[name].title}\n{tex}\n" for name, tex in rendered.items()
        )
    if args.out is None:
        print(text.rstrip("\n"))
    else:
        try:
            write_atomically(args.out, text, args.force)
        except OutputError as exc:
            raise UsageError(str(exc)) from exc
        print(f"wrote {len(rendered)} formulas to {args.out}", file=sys.stderr)
    return 0


# audit -------------------------------------------------------------------------


def _audit(args: argparse.Namespace) -> int:
    from proofs import audit
    from proofs.profiles import load_profile

    load_profile(args.profile)  # for the checks of the examples and exercises
    try:
        for path in args.files:  # bad input is reported before the checks are loaded
            lines = audit.read_chapter(path).splitlines()
            audit.detect_chapter(path, lines, audit.detect_form(path, lines))
        _registry()
        reports = [audit.audit_file(path) for path in args.files]
    except audit.AuditInputError as exc:
        raise UsageError(str(exc)) from exc
    if args.json:
        print(json.dumps([r.to_dict() for r in reports], ensure_ascii=False, indent=2))
    else:
        print("\n\n".join(r.to_text(quiet=args.quiet) for r in reports))
    return 1 if any(r.mismatched for r in reports) else 0


COMMANDS = {"verify": _verify, "tables": _tables, "latex": _latex, "audit": _audit}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; return its exit code (argparse's own errors give 2)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        return COMMANDS[args.command](args)
    except (UsageError, OutputError) as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except LoadError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except Exception as exc:
        from proofs.profiles import ProfileError  # only now: Hypothesis is slow to import

        if not isinstance(exc, ProfileError):  # a bad HYPOTHESIS_PROFILE is bad input
            raise
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
