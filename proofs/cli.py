"""The command line: `python -m proofs verify | tables | latex | audit | sync`.

Exit codes: 0 all passed / nothing mismatched / in sync; 1 a check failed or
errored, or the audit found a mismatch (a finding of an example's or exercise's
check included; with --baseline, one the baseline does not accept), or a file's
regions drifted from the package's (sync without --write); 2 bad input (a
malformed command line, an unknown id, a missing file, an output file that exists
without --force), with a one-line message on stderr.
A finding of a passing check is listed by verify but does not fail it.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from proofs.files import OutputError, check_target, write_atomically
from proofs.registry import RESULTS
from proofs.screen import SCREEN_WIDTH, screen

PROG = "proofs"


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
        description="Verify the mathematics of the book's chapters, element by element.",
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
            "key. Exit 0 only if every selected check passes; an element with no check yet\n"
            "(unchecked) fails the run unless --allow-unchecked."
        ),
        epilog=(
            "examples:\n"
            "  python -m proofs verify\n"
            "  python -m proofs verify prop-softmax-jacobian '命題 3.3' --profile thorough\n"
            "  python -m proofs verify prop-layer-norm-jacobian --json > report.json"
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
        "--allow-unchecked",
        action="store_true",
        help="exit 0 when every check passes or is unchecked (a stub not yet written)",
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
        epilog=(
            "examples:\n"
            "  python -m proofs audit ../shared/seeds/000_ce182fefa314a82b.txt\n"
            "  python -m proofs audit chapter.txt --write-baseline audit-baseline.json\n"
            "  python -m proofs audit chapter.txt --baseline audit-baseline.json"
        ),
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
        "--elements", action="store_true",
        help="also tally each element: its statement's relations bound to the check or "
        "decided, its check's claims, the values read from the chapter, its equalities",
    )
    audit.add_argument(
        "--profile",
        choices=("ci", "dev", "thorough"),
        default=None,
        help="Hypothesis profile for the examples' and exercises' checks "
        "(default: $HYPOTHESIS_PROFILE or dev)",
    )
    kept = audit.add_mutually_exclusive_group()
    kept.add_argument(
        "--baseline", type=file_name("standard input is not read"), metavar="BASELINE",
        help="accept the mismatches BASELINE records: exit 1 only on a new one, and list "
        "the recorded ones no longer found (stale)",
    )
    kept.add_argument(
        "--write-baseline", type=file_name("the baseline is a file"), metavar="BASELINE",
        help="record the mismatches found in BASELINE (JSON, sorted; replaced if it exists)",
    )

    sync = sub.add_parser(
        "sync",
        help="regenerate the tables, printed outputs and figures of chapter files",
        description=(
            "Regenerate every region of the chapter files that the package produces: the\n"
            "tables the audit regenerates (cell by cell, in the table's own syntax), the\n"
            "printed output lines of the listings the audit compares (number by number) and\n"
            "the figures the chapter's package draws. Print a unified diff of the drift and\n"
            "exit 1, or 0 when in sync; --write rewrites the drifted regions instead."
        ),
        epilog=(
            "examples:\n"
            "  python -m proofs sync chapter.mdx\n"
            "  python -m proofs sync chapter.mdx block.txt --write\n"
            "  python -m proofs sync chapter.mdx --verbose > drift.patch"
        ),
        formatter_class=formatter,
    )
    sync.add_argument(
        "files", nargs="+", type=file_name("standard input is not read"), metavar="FILE"
    )
    sync.add_argument(
        "--write", action="store_true",
        help="rewrite the drifted regions in place (atomically; the file's mode, line ends "
        "and byte-order mark kept) instead of printing the diff",
    )
    sync.add_argument(
        "--verbose", action="store_true",
        help="list every region on stderr: in sync, drifted, or left alone and why",
    )

    new_chapter = sub.add_parser(
        "new-chapter",
        help="write the skeleton package of a new chapter, one unchecked stub per element",
        description=(
            "Read a chapter file (either form) and write the skeleton of its chapter package:\n"
            "chapter.py (key, file name, title, short name) and one module per section with a\n"
            "registered stub per element, reported as unchecked until its check is written.\n"
            "Put the folder under proofs/chapters/, or name it in an entry point of the group\n"
            "transformer_proofs.chapters of your own package."
        ),
        epilog=(
            "example:\n"
            "  python -m proofs new-chapter kv-cache.mdx --key kv-cache --out proofs/chapters"
        ),
        formatter_class=formatter,
    )
    new_chapter.add_argument("file", type=Path, metavar="FILE")
    new_chapter.add_argument("--key", required=True, help="the chapter key, e.g. kv-cache")
    new_chapter.add_argument(
        "--out", type=Path, default=Path("."), help="the directory to write the package in"
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
    from proofs.judge import findings
    from proofs.registry import run_check

    run = run_check(element)
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
    accepted = ("passed", "unchecked") if args.allow_unchecked else ("passed",)
    ok = all(r["result"] in accepted for r in results)
    if args.json:
        summary = {k: sum(r["result"] == k for r in results) for k in RESULTS}
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
        print(screen(results, profile, seconds, args.evidence, args.wide))
    return 0 if ok else 1


# tables ------------------------------------------------------------------------


# Each option of `tables` sets the builder parameters of these names (a builder takes
# one of them or none); an option set for a table whose builder takes none is an error.
TABLE_OPTIONS = {
    "d": ("d",),
    "n": ("n", "ns"),
    "vocab": ("vocab",),
    "layers": ("n_layer",),
    "n_ctx": ("n_ctx",),
    "d_ff": ("d_ff",),
    "heads": ("h", "n_head"),
    "dims": ("dims",),
    "seed": ("seed",),
}


def _table_arguments(name: str, build: Callable[..., object], args: argparse.Namespace) -> dict:
    """The options set on the command line, under the builder's own parameter names."""
    accepted = inspect.signature(build).parameters
    out = {}
    for option, parameters in TABLE_OPTIONS.items():
        value = getattr(args, option)
        if value is None:
            continue
        flag = "--" + option.replace("_", "-")
        target = next((p for p in parameters if p in accepted), None)
        if target is None:
            raise UsageError(f"tables: {name} does not take {flag}")
        if target == "n":
            if len(value) != 1:
                raise UsageError(
                    f"tables: {name} takes one --n, got {len(value)} values; name the tables "
                    f"to regenerate, e.g. tables attention-complexity --n "
                    f"{' '.join(map(str, value))}"
                )
            value = value[0]
        out[target] = tuple(value) if isinstance(value, list) else value
    return out


def _tables(args: argparse.Namespace) -> int:
    from proofs.registry import tables

    registered = tables()
    names = args.names or list(registered)
    for name in names:
        if name not in registered:
            raise UsageError(
                f"tables: unknown table {name!r}; expected one of {', '.join(registered)}"
            )
    blocks = []
    for name in names:
        build = registered[name].build
        try:
            table = build(**_table_arguments(name, build, args))
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

    from proofs.formulas import FormulaNotProved
    from proofs.registry import formulas

    registered = formulas()
    if args.list:
        for formula in registered.values():
            print(f"{formula.name:28} {formula.title}")
        return 0
    names = args.names or list(registered)
    for name in names:
        if name not in registered:
            near = difflib.get_close_matches(name, list(registered), n=3, cutoff=0.4)
            hint = f"; nearest: {', '.join(near)}" if near else ""
            raise UsageError(f"latex: unknown formula {name!r}{hint}")
    if args.out is not None and args.out.suffix not in (".tex", ".json"):
        raise UsageError(f"{args.out}: --out must end in .tex or .json, got {args.out.suffix!r}")
    if args.out is not None:
        check_target(args.out, args.force)  # before the formulas are derived
    try:
        rendered = {name: registered[name].latex() for name in names}
    except FormulaNotProved as exc:
        raise LoadError(f"latex: {exc}; nothing written") from exc
    if args.out is not None and args.out.suffix == ".json":
        text = json.dumps(rendered, ensure_ascii=False, indent=2) + "\n"
    else:
        text = "\n".join(
            f"% {name}: {registered[name].title}\n{tex}\n" for name, tex in rendered.items()
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


def _read_document(path: Path):
    """A chapter file read once (`-` is standard input) into its Document."""
    from proofs import reader

    if str(path) == "-":
        return reader.parse(reader.decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>")
    return reader.read_chapter(path)


def _audit(args: argparse.Namespace) -> int:
    from proofs import audit
    from proofs.audit.baseline import BaselineError, compare, read_baseline, write_baseline
    from proofs.profiles import load_profile
    from proofs.reader import ChapterInputError

    load_profile(args.profile)  # for the checks of the examples and exercises
    _registry()
    try:
        accepted = read_baseline(args.baseline) if args.baseline else None
        if args.write_baseline:
            check_target(args.write_baseline, force=True)
        documents = [_read_document(path) for path in args.files]
        for document in documents:  # bad input is reported before any check runs
            audit.identify(document)
        reports = [audit.audit_document(document) for document in documents]
    except (ChapterInputError, BaselineError) as exc:
        raise UsageError(str(exc)) from exc
    audited = list(zip(reports, documents, strict=True))
    kept = {r.path: compare(r, d, accepted) for r, d in audited} if accepted is not None else {}
    if args.json:
        out = [r.to_dict() for r in reports]
        for report in out:
            if report["path"] in kept:
                report["baseline"] = kept[report["path"]].to_dict(args.baseline)
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        texts = [r.to_text(quiet=args.quiet, by_element=args.elements) for r in reports]
        texts = [t + (f"\n\n{kept[r.path].to_text(args.baseline)}" if r.path in kept else "")
                 for t, r in zip(texts, reports, strict=True)]
        print("\n\n".join(texts))
    if args.write_baseline:
        count = write_baseline(args.write_baseline, audited)
        print(f"wrote {count} accepted mismatches to {args.write_baseline}", file=sys.stderr)
        return 0
    if accepted is not None:
        return 1 if any(c.new for c in kept.values()) else 0
    return 1 if any(r.mismatched for r in reports) else 0


# sync --------------------------------------------------------------------------


def _sync(args: argparse.Namespace) -> int:
    from proofs.reader import ChapterInputError
    from proofs.sync import sync_file

    _registry()
    try:
        synced = [sync_file(path) for path in args.files]  # all read before any is written
    except ChapterInputError as exc:
        raise UsageError(str(exc)) from exc
    for result in synced:
        if args.verbose:
            print(result.listing(), file=sys.stderr, flush=True)
        if result.drifted and not args.write:
            print(result.diff(), flush=True)
        if args.write:
            result.write()
        print(result.summary(written=args.write), file=sys.stderr, flush=True)
    return 1 if not args.write and any(r.drifted for r in synced) else 0


def _new_chapter(args: argparse.Namespace) -> int:
    from proofs import scaffold
    from proofs.reader import ChapterInputError

    try:
        document = _read_document(args.file)
        target = scaffold.write_skeleton(document, args.key, args.out)
    except (ChapterInputError, ValueError, OSError) as exc:
        raise UsageError(f"new-chapter: {exc}") from exc
    print(
        f"wrote {target} with {len(document.elements)} unchecked elements; put it under "
        "proofs/chapters/ or name it in an entry point of transformer_proofs.chapters",
        file=sys.stderr,
    )
    return 0


COMMANDS = {
    "verify": _verify,
    "tables": _tables,
    "latex": _latex,
    "audit": _audit,
    "sync": _sync,
    "new-chapter": _new_chapter,
}


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
