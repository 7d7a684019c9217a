"""The command line's grammar: every command of `python -m proofs`, its options and its help.

An error in the grammar is one line on stderr and exit code 2 (the usage is in --help);
what each command does is the other modules' of proofs.cli.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import proofs
from proofs.publish.latex_files import PAPERS
from proofs.publish.screen import SCREEN_WIDTH

PROG = "proofs"
FIGURE_FORMATS = ("svg", "pdf", "png")  # proofs.typeset.plotting.FORMATS, without importing it


def cores() -> int:
    """The cores this process may run on: the default number of verify's workers."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


# the suffixes of each format's files; without --format, --out's suffix names the format
TABLE_SUFFIXES = {
    "markdown": (".md", ".mdx"),
    "text": (".txt", ".tsv"),
    "latex": (".tex",),
    "csv": (".csv",),
    "listing": (".txt",),
}


class UsageError(Exception):
    """Bad input from the user: reported on one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (the usage is in --help), exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def parser() -> argparse.ArgumentParser:
    """The parser of `python -m proofs` and its commands."""
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

    def jobs(text: str) -> int:
        """--jobs: a number of processes, an integer >= 1."""
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}")
        return value

    def chapter_name(text: str) -> Path:
        """The type of audit's FILE: a name, or '-' for standard input."""
        return Path(text) if text == "-" else file_name("standard input is not read")(text)

    def codes(text: str) -> list[str]:
        """--select, --ignore: rule codes or prefixes separated by commas (EQ001,RST)."""
        found = [c.strip() for c in text.split(",")]
        if not all(found):
            raise argparse.ArgumentTypeError(
                f"expected rule codes separated by commas (EQ001,RST), got {text!r}"
            )
        return found

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
    parser.add_argument("--version", action="version", version=f"%(prog)s {proofs.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    verify = sub.add_parser(
        "verify",
        help="run the registered checks and report each element's result",
        description=(
            "Run every registered check, or those selected by id (prop-softmax-jacobian or\n"
            "prop_softmax_jacobian), by number (命題 3.3, 命題 7.2［自己注意］) or by chapter\n"
            "key. Exit 0 when no selected check fails or raises; an element with no check yet\n"
            "(unchecked: a stub of a chapter being written) is reported and counted, and\n"
            "fails the run only with --fail-unchecked."
        ),
        epilog=(
            "examples:\n"
            "  python -m proofs verify\n"
            "  python -m proofs verify prop-softmax-jacobian '命題 3.3' --profile thorough\n"
            "  python -m proofs verify prop-layer-norm-jacobian --json > report.json\n"
            "  python -m proofs verify --profile thorough --jobs 16"
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
        "--jobs",
        type=jobs,
        default=cores(),
        metavar="N",
        help=(
            f"run the checks in N worker processes (default: the cores, {cores()} here); the "
            "screen and its order are the same; 1 runs them in this process"
        ),
    )
    verify.add_argument(
        "--evidence", action="store_true", help="print each check's evidence lines too"
    )
    verify.add_argument(
        "--fail-unchecked",
        action="store_true",
        help="exit 1 when an element is unchecked too (a stub not yet written): every element "
        "of the selected chapters must have its check",
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
            "Options set the free parameters of the tables that have them (--list shows which);\n"
            "an option a named table does not take is an error. The defaults are the chapters'\n"
            "settings. --out writes FILE atomically, in the format its suffix names unless\n"
            "--format is given (.md/.mdx markdown, .txt/.tsv text, .tex latex, .csv csv)."
        ),
        epilog=(
            "examples:\n"
            "  python -m proofs tables --list\n"
            "  python -m proofs tables attention-complexity\n"
            "  python -m proofs tables attention-complexity --d 128 --n 128 256 --format latex\n"
            "  python -m proofs tables gpt2-parameters --d 1024 --layers 24 --out gpt2.csv"
        ),
        formatter_class=formatter,
    )
    tables.add_argument("names", nargs="*", metavar="NAME")
    tables.add_argument(
        "--format",
        choices=tuple(TABLE_SUFFIXES),
        help="markdown (as the MDX chapter; the default), text (TAB-separated, as the rendered "
        "chapter), latex (booktabs), csv (raw values), listing (as the chapters' code prints it)",
    )
    tables.add_argument("--list", action="store_true", help="list the tables and their options")
    tables.add_argument(
        "--out",
        type=file_name("without --out the tables are printed on standard output"),
        help="write to FILE instead of stdout",
    )
    tables.add_argument("--force", action="store_true", help="replace FILE if it exists")
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
        help="write the formulas in LaTeX: equations, macros, or a document with the tables",
        description=(
            "Print the LaTeX of the named formulas (all when none is named), each derived by\n"
            "symbolic/ and printed in the chapters' notation, as numbered equations labelled\n"
            "eq:NAME to \\input. --macros writes a package of one macro per formula instead,\n"
            "--standalone a document that compiles as it is (with every table when no NAME is\n"
            "given). Every file starts with a comment naming its engine and packages. --out\n"
            "writes FILE atomically: .tex (or .json mapping each name to its TeX; .sty with\n"
            "--macros).\n"
            "--chapter FILE writes the print edition of a chapter file (either form) instead:\n"
            "the whole chapter for LuaLaTeX, each element under its number and title with the\n"
            "result of its check (the examples' and exercises' checks run; every check with\n"
            "--run-checks; or the results of a report of verify --json with --results). With\n"
            "--book DIR, several chapters as a book: DIR/book.tex includes one file each."
        ),
        epilog=(
            "examples:\n"
            "  python -m proofs latex softmax-jacobian\n"
            "  python -m proofs latex --out formulas.tex\n"
            "  python -m proofs latex --out formulas.json --force\n"
            "  python -m proofs latex --macros --out formulas.sty\n"
            "  python -m proofs latex --standalone --paper b5 --out book.tex && lualatex book.tex\n"
            "  python -m proofs latex --chapter chapter.mdx --out chapter.tex\n"
            "  python -m proofs latex --book print --chapter a.mdx --chapter b.txt --run-checks"
        ),
        formatter_class=formatter,
    )
    latex.add_argument("names", nargs="*", metavar="NAME")
    latex.add_argument(
        "--out",
        type=file_name("without --out the LaTeX is printed on standard output"),
        help="write to FILE (.tex or .json; .sty with --macros) instead of stdout",
    )
    latex.add_argument("--force", action="store_true", help="replace FILE if it exists")
    latex.add_argument("--list", action="store_true", help="list the formula names and titles")
    form = latex.add_mutually_exclusive_group()
    form.add_argument(
        "--macros", action="store_true", help="a package: one \\newcommand per formula"
    )
    form.add_argument(
        "--standalone",
        action="store_true",
        help="a document for LuaLaTeX holding the formulas (and every table without NAME)",
    )
    form.add_argument(
        "--chapter",
        action="append",
        type=file_name("standard input is not read"),
        metavar="FILE",
        help="the print edition of a chapter file (repeat it with --book for several)",
    )
    latex.add_argument(
        "--paper",
        choices=tuple(PAPERS),
        help="the paper of --standalone or --chapter (default a4)",
    )
    latex.add_argument(
        "--book",
        type=file_name("the book is a folder of files"),
        metavar="DIR",
        help="write the --chapter files as a book in DIR: book.tex and one file per chapter",
    )
    results = latex.add_mutually_exclusive_group()
    results.add_argument(
        "--run-checks",
        action="store_true",
        help="run every check of the chapters for their marks, not only the examples' and "
        "exercises'",
    )
    results.add_argument(
        "--results",
        type=file_name("standard input is not read"),
        metavar="FILE",
        help="mark the elements with the results of this report of verify --json instead of "
        "running checks",
    )
    latex.add_argument(
        "--marks",
        choices=("none", "ja", "en"),
        default=None,
        help="the marks of the checks' results: none (a reader's edition without them), ja "
        "(in Japanese, without the report's messages; the default for a Japanese chapter) or "
        "en (the results and messages as verify reports them; the default otherwise)",
    )
    latex.add_argument(
        "--profile",
        choices=("ci", "dev", "thorough"),
        default=None,
        help="Hypothesis profile of the checks run for the marks "
        "(default: $HYPOTHESIS_PROFILE or dev)",
    )

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
            "  python -m proofs audit chapter.txt --baseline audit-baseline.json\n"
            "  python -m proofs audit chapter.mdx block.txt --html site\n"
            "  python -m proofs audit chapter.mdx --select EQ,TAB --ignore EQ002\n"
            "  cat chapter.mdx | python -m proofs audit - --stdin-filename chapter.mdx"
        ),
        formatter_class=formatter,
    )
    audit.add_argument(
        "files",
        nargs="+",
        type=chapter_name,
        metavar="FILE",
        help="a chapter file; - reads one from standard input",
    )
    audit.add_argument(
        "--stdin-filename",
        type=file_name("the name the chapter read from - is reported under"),
        metavar="NAME",
        help="the name the chapter read from standard input (-) is reported under, and "
        "matched against per-file-ignores by",
    )
    audit.add_argument(
        "--select",
        type=codes,
        action="extend",
        metavar="CODES",
        help="report only the rules of these codes or prefixes, separated by commas (EQ,TAB; "
        "ALL; replaces select under [tool.proofs]; docs/rules.md lists the codes)",
    )
    audit.add_argument(
        "--ignore",
        type=codes,
        action="extend",
        metavar="CODES",
        help="leave out the rules of these codes or prefixes, separated by commas (EQ002,RST; "
        "added to ignore under [tool.proofs])",
    )
    audit.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default="text",
        help="text (the default: path:line:column: lines, mismatches first, then what is not "
        "checkable, then the counts), json (every finding), or github (workflow annotations)",
    )
    audit.add_argument("--json", action="store_true", help="the same as --format json")
    audit.add_argument("--quiet", action="store_true", help="list the mismatches only")
    audit.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 on a warning too (a mismatch only a heuristic sees), not only on an error",
    )
    audit.add_argument(
        "--verbose",
        action="store_true",
        help="every finding, confirmed ones too, by section, after the counts of each",
    )
    audit.add_argument(
        "--elements",
        action="store_true",
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
        "--baseline",
        type=file_name("standard input is not read"),
        metavar="BASELINE",
        help="accept the mismatches BASELINE records: exit 1 only on a new one, and list "
        "the recorded ones no longer found (stale)",
    )
    kept.add_argument(
        "--write-baseline",
        type=file_name("the baseline is a file"),
        metavar="BASELINE",
        help="record the mismatches found in BASELINE (JSON, sorted); an existing file is "
        "replaced only with --force, and never one of the FILEs audited",
    )
    audit.add_argument(
        "--force", action="store_true", help="replace BASELINE of --write-baseline if it exists"
    )
    audit.add_argument(
        "--coverage",
        action="store_true",
        help="also list the chapter's numbers that no finding examined, line by line",
    )
    audit.add_argument(
        "--run-listings",
        action="store_true",
        help="run the chapter's own code listings (each in its own process, in a temporary "
        "folder, with time and memory limits) and compare what they print with what the "
        "chapter prints; a chapter's listings may import those of the FILEs before it "
        "(also: run-listings = true under [tool.proofs] in pyproject.toml)",
    )
    audit.add_argument(
        "--jobs",
        type=jobs,
        default=cores(),
        metavar="N",
        help=(
            f"audit up to N files at once, in processes forked from this one (Linux; default: "
            f"the cores, {cores()} here); the reports are the same; 1 audits them one by one"
        ),
    )
    audit.add_argument(
        "--html",
        type=file_name("the site is a folder of files"),
        metavar="DIR",
        help="also write an annotated site to DIR (made if absent; its pages replaced): "
        "index.html with each chapter's counts and map, and a page per chapter with each "
        "line coloured by its findings and their messages below it",
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
        "--write",
        action="store_true",
        help="rewrite the drifted regions in place (atomically; the file's mode, line ends "
        "and byte-order mark kept) instead of printing the diff",
    )
    sync.add_argument(
        "--verbose",
        action="store_true",
        help="list every region on stderr: in sync, drifted, or left alone and why",
    )
    sync.add_argument(
        "--run-listings",
        action="store_true",
        help="run the chapter's own code listings (as audit --run-listings does: each in its "
        "own process, contained, with limits) and regenerate the output lines no package "
        "computes from what they print (also: run-listings = true under [tool.proofs])",
    )
    sync.add_argument(
        "--format",
        choices=("text", "github"),
        default="text",
        help="text (the default: a unified diff of the drift) or github (a workflow "
        "annotation at each drifted region and each problem to fix by hand)",
    )

    figures = sub.add_parser(
        "figures",
        help="draw the chapters' pictures: their figures, plots and maps",
        description=(
            "Write each named picture (every one without NAME) to DIR/NAME.FORMAT: the\n"
            "figures the chapters draw in their own SVG style, the plots of their results\n"
            "(matplotlib: pip install 'transformer-proofs[figures]') and each chapter's map\n"
            "(map-KEY; `map` names them all, --chapter one). A map's nodes are coloured by\n"
            "the checks' results, from --results (a report of verify --json) or by running\n"
            "the chapter's checks. The same picture always gives the same bytes."
        ),
        epilog=(
            "examples:\n"
            "  python -m proofs figures --list\n"
            "  python -m proofs figures gelu relu-regions --out docs --format png\n"
            "  python -m proofs verify --json > report.json\n"
            "  python -m proofs figures map --chapter self-attention --results report.json "
            "--out docs"
        ),
        formatter_class=formatter,
    )
    figures.add_argument("names", nargs="*", metavar="NAME")
    figures.add_argument("--list", action="store_true", help="list the pictures")
    figures.add_argument(
        "--out",
        type=file_name("the pictures are files"),
        metavar="DIR",
        help="the directory to write the pictures in",
    )
    figures.add_argument(
        "--format", choices=FIGURE_FORMATS, default="svg", help="svg (the default), pdf or png"
    )
    figures.add_argument("--force", action="store_true", help="replace files that exist")
    figures.add_argument("--chapter", metavar="KEY", help="the chapter whose map `map` draws")
    figures.add_argument(
        "--results",
        type=file_name("standard input is not read"),
        metavar="FILE",
        help="colour the maps by this report of verify --json instead of running the checks",
    )
    figures.add_argument(
        "--chapters",
        type=Path,
        metavar="DIR",
        default=None,
        help="a folder of the chapter files the maps are read from, under any names (also "
        "TRANSFORMER_PROOFS_CHAPTERS, or chapters under [tool.proofs] in pyproject.toml)",
    )

    new_chapter = sub.add_parser(
        "new-chapter",
        help="write the skeleton of a new chapter's checks, one unchecked stub per element",
        description=(
            "Read a chapter file (either form) and write the skeleton of its checks: chapter.py\n"
            "(key, file name, title, short name), notation.py, and one module per section with a\n"
            "registered stub per element, reported as unchecked until its check is written.\n"
            "--package DIR writes them as a project to install (pip install -e DIR): its\n"
            "pyproject.toml names the package in the entry point the registry discovers, and\n"
            "tests/ holds a test file per section and a test holding every check's claims to\n"
            "the chapter's text. --out DIR writes the package folder alone (in a checkout:\n"
            "--out proofs/chapters). Without either, a checkout writes the package folder here,\n"
            "and anywhere else the project KEY-checks."
        ),
        epilog=(
            "examples:\n"
            "  python -m proofs new-chapter kv-cache.mdx --key kv-cache --package kv-cache-checks\n"
            "  python -m proofs new-chapter kv-cache.mdx --key kv-cache --out proofs/chapters"
        ),
        formatter_class=formatter,
    )
    new_chapter.add_argument("file", type=Path, metavar="FILE")
    new_chapter.add_argument("--key", required=True, help="the chapter key, e.g. kv-cache")
    where = new_chapter.add_mutually_exclusive_group()
    where.add_argument(
        "--out",
        type=file_name("the package is a folder of files"),
        metavar="DIR",
        help="the directory to write the package folder in",
    )
    where.add_argument(
        "--package",
        type=file_name("the project is a folder of files"),
        metavar="DIR",
        help="write an installable project of the chapter's checks in DIR (which must not exist)",
    )
    from proofs.cli.flops import add_parser as add_flops  # its grammar beside the command

    add_flops(sub, formatter)

    from proofs.cli import check  # its grammar beside the command

    check.add_parser(sub)
    from proofs.cli import lsp  # its grammar beside the command

    lsp.add_parser(sub)
    return parser
