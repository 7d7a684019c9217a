"""`proofs audit`, `proofs sync` and `proofs new-chapter`: the commands that read chapter
files."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from proofs.audit.findings import Finding, Severity
from proofs.audit.reports.report import Report
from proofs.book.locations import run_listings_setting
from proofs.cli.arguments import PROG, UsageError
from proofs.cli.verify import load_registry
from proofs.files import check_target
from proofs.typeset.shown import json_shown, shown

if TYPE_CHECKING:
    from proofs.audit.reports.baseline import Comparison


STDIN = "<stdin>"  # the name of a chapter read from standard input, unless it is given


def _read_document(path: Path, name: str | None = None):
    """A chapter file read once (`-` is standard input, reported as `name`) into its
    Document."""
    from proofs import reader

    if str(path) == "-":
        shown = name or STDIN
        return reader.parse(reader.decode(sys.stdin.buffer.read(), shown), shown)
    return reader.read_chapter(path)


def _selection(args: argparse.Namespace):
    """The rules this run reports: select, ignore and per-file-ignores under [tool.proofs],
    then --select (in place of select) and --ignore (added to ignore)."""
    from proofs.audit.selection import selection
    from proofs.book.locations import rule_settings

    project, select, ignore, per_file = rule_settings()
    configured = selection(select, ignore, per_file, project.parent, f"{project}: [tool.proofs] ")
    chosen = selection(args.select, args.ignore or [], {}, None, "--")
    return replace(
        configured,
        select=chosen.select if args.select is not None else configured.select,
        ignore=(*configured.ignore, *chosen.ignore),
    )


def _report_text(report: Report, args: argparse.Namespace) -> str:
    """The text of one chapter's report: the linter's lines, or with --verbose every
    finding by section; --elements and --coverage add their lists."""
    if args.verbose:
        return report.to_text(by_element=args.elements, uncovered=args.coverage)
    return "\n".join(
        [report.to_lint(quiet=args.quiet), *report.lists(args.elements, args.coverage)]
    )


def audit(args: argparse.Namespace) -> int:
    from proofs import audit
    from proofs.audit.reports.baseline import BaselineError, compare, read_baseline, write_baseline
    from proofs.audit.selection import SelectionError
    from proofs.audit.several import audit_documents
    from proofs.book.profiles import load_profile
    from proofs.publish.site import INDEX, check_site, write_site
    from proofs.reader import ChapterInputError

    load_profile(args.profile, in_cache=True)  # for the checks of the examples and exercises
    load_registry()
    read_stdin = [path for path in args.files if str(path) == "-"]
    if len(read_stdin) > 1:
        raise UsageError("audit: - (standard input) is given twice; it is read once")
    if args.stdin_filename is not None and not read_stdin:
        raise UsageError(
            "audit: --stdin-filename names the chapter read from -, which is not given"
        )
    try:
        chosen = _selection(args)
        accepted = read_baseline(args.baseline) if args.baseline else None
        if args.write_baseline:
            check_target(args.write_baseline, args.force, inputs=args.files)
        if args.html:
            check_site(args.html, args.files)
        name = str(args.stdin_filename) if args.stdin_filename else None
        documents = [_read_document(path, name) for path in args.files]
        for document in documents:  # bad input is reported before any check runs
            audit.identify(document)
        run = args.run_listings or run_listings_setting()
        reports = [chosen.applied(r) for r in audit_documents(documents, run, args.jobs)]
    except (ChapterInputError, BaselineError, SelectionError) as exc:
        raise UsageError(str(exc)) from exc
    audited = list(zip(reports, documents, strict=True))
    kept = {r.path: compare(r, d, accepted) for r, d in audited} if accepted is not None else {}
    shape = "json" if args.json else args.format
    if shape == "json":
        out = [r.to_dict() for r in reports]
        for report in out:
            if report["path"] in kept:
                report["baseline"] = kept[report["path"]].to_dict(args.baseline)
        print(json_shown(out))
    elif shape == "github":
        print("\n".join(_github(r, kept.get(r.path), args.baseline) for r in reports))
    else:
        texts = [_report_text(r, args) for r in reports]
        texts = [
            t + (f"\n\n{kept[r.path].to_text(args.baseline)}" if r.path in kept else "")
            for t, r in zip(texts, reports, strict=True)
        ]
        print(shown(("\n\n" if args.verbose else "\n").join(texts)))
    if args.html:
        pages = write_site(args.html, audited)
        print(shown(f"wrote {len(pages)} pages; open {args.html / INDEX}"), file=sys.stderr)
    if args.write_baseline:
        count = write_baseline(args.write_baseline, audited, args.force)
        said = f"wrote {count} accepted mismatches to {args.write_baseline}"
        print(shown(said), file=sys.stderr)
        return 0
    if accepted is not None:
        return 1 if any(_fails(c.new, args.strict) for c in kept.values()) else 0
    return 1 if any(_fails(r.findings, args.strict) for r in reports) else 0


def _fails(findings: Sequence[Finding], strict: bool) -> bool:
    """Whether the findings fail a run: an error, or with --strict a warning too."""
    return any(f.fails or (strict and f.severity == Severity.WARNING) for f in findings)


def _github(report: Report, kept: Comparison | None, baseline: Path | None) -> str:
    """One chapter's workflow commands; against a baseline, its accepted mismatches are
    notices, its new ones errors, and its stale entries warnings on the baseline file."""
    if kept is None or baseline is None:
        return report.to_github()
    return report.to_github(kept.new) + "\n" + kept.to_github(baseline, report.path)


def sync(args: argparse.Namespace) -> int:
    from proofs.audit.sync import sync_file
    from proofs.files import Changed
    from proofs.reader import ChapterInputError

    load_registry()
    try:
        run = args.run_listings or run_listings_setting()
        synced = [sync_file(path, run) for path in args.files]  # all read before any is written
    except ChapterInputError as exc:
        raise UsageError(str(exc)) from exc
    ok = True
    for result in synced:
        if args.verbose:
            print(shown(result.listing()), file=sys.stderr, flush=True)
        if args.format == "github":
            if result.drifted or result.problems:
                print(result.to_github(written=args.write), flush=True)
        elif result.drifted and not args.write:
            print(shown(result.diff()), flush=True)
        if args.write:
            try:
                result.write()
            except Changed as exc:
                print(shown(f"{PROG}: {exc}"), file=sys.stderr, flush=True)
                ok = False
                continue
        print(shown(result.summary(written=args.write)), file=sys.stderr, flush=True)
        ok = ok and (not result.problems if args.write else result.in_sync)
    return 0 if ok else 1


def in_checkout(start: Path | None = None) -> bool:
    """Whether `start` (the working directory) is in a checkout of this package, where a
    chapter's checks go under proofs/chapters/: the package is imported from a source
    tree that holds it, not from an installation."""
    import proofs

    root = Path(proofs.__file__).resolve().parents[1]
    if not (root / "pyproject.toml").is_file() or not (root / "proofs" / "chapters").is_dir():
        return False
    here = (Path.cwd() if start is None else start).resolve()
    return here == root or root in here.parents


def new_chapter(args: argparse.Namespace) -> int:
    from proofs.book import project, scaffold
    from proofs.reader import ChapterInputError

    taken = frozenset(load_registry())
    package = args.package
    try:
        if package is None and args.out is None and not in_checkout():
            package = project.default_folder(args.key)
        document = _read_document(args.file)
        if package is not None:
            target = project.write_project(document, args.key, package, taken)
        else:
            target = scaffold.write_skeleton(document, args.key, args.out or Path("."), taken)
    except (ChapterInputError, ValueError, OSError) as exc:
        raise UsageError(f"new-chapter: {exc}") from exc
    count = f"{len(document.elements)} unchecked elements"
    if package is not None:
        said = f"wrote {target} with {count}; install it with pip install -e {target}"
    else:
        said = (
            f"wrote {target} with {count}; put it under proofs/chapters/ or name it in an "
            "entry point of transformer_proofs.chapters"
        )
    print(shown(said), file=sys.stderr)
    return 0
