"""The command line: `python -m proofs verify | tables | latex | audit | sync | figures`.

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
import contextlib
import errno
import inspect
import io
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from proofs.arguments import PROG, TABLE_SUFFIXES, UsageError, cores, parser
from proofs.files import OutputError, check_target, write_atomically
from proofs.registry import RESULTS
from proofs.screen import screen

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


def _result(element, run) -> dict:
    """The report of an element's CheckRun (the screen's row, the JSON's entry)."""
    from proofs.judge import findings

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


def _portable(element):
    """The element as a worker process receives it, or None when its check cannot be sent
    (a function a worker cannot import by name: one defined inside another function).
    The claims stay here: the check already fills the arguments they feed."""
    import pickle
    from dataclasses import replace

    try:
        pickle.dumps(element.check)
    except (pickle.PicklingError, AttributeError, TypeError):
        return None
    return replace(element, claims=())


# the variables that set the threads of OpenBLAS, OpenMP and MKL when the library loads
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def _environment(names: Iterable[str], value: str) -> Iterator[None]:
    """Set each of `names` the user has not set to `value`, for the duration."""
    added = [name for name in names if name not in os.environ]
    os.environ.update(dict.fromkeys(added, value))
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


def _runs(elements: list, profile: str, jobs: int) -> Iterator:
    """Each element's CheckRun, in the order of `elements`. With `jobs` > 1, the checks
    run in that many spawned worker processes, each with the Hypothesis profile loaded,
    and come back as they finish, in order; a check that cannot be sent runs here."""
    from proofs.registry import CheckRun, raised, run_check

    portable = [_portable(e) for e in elements]
    workers = min(jobs, cores(), sum(p is not None for p in portable))
    if workers <= 1:
        yield from (run_check(e) for e in elements)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from proofs.profiles import load_profile

    pool = ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=load_profile,
        initargs=(profile, True),
    )
    try:
        # The workers start during the submissions, and the BLAS libraries they load read
        # their thread counts from the environment then: the cores are shared out, instead
        # of every worker's threads spinning on every core.
        with _environment(BLAS_THREADS, str(max(1, cores() // workers))):
            futures = [None if p is None else pool.submit(run_check, p) for p in portable]
        for element, future in zip(elements, futures, strict=True):
            if future is None:
                yield run_check(element)
                continue
            try:
                yield future.result()
            except Exception as exc:  # noqa: BLE001 - a worker that died is this check's error
                yield CheckRun("error", f"in a worker process: {raised(exc)}", (), 0.0)
    finally:
        pool.shutdown(cancel_futures=True)


def _verify(args: argparse.Namespace) -> int:
    from proofs.profiles import load_profile

    profile = load_profile(args.profile, in_cache=True)
    elements = _select(args.selectors)
    start = time.perf_counter()
    results = []
    runs = _runs(elements, profile, args.jobs)
    for i, element in enumerate(elements, 1):
        _progress(i, len(elements), element)
        results.append(_result(element, next(runs)))
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


def _flag(option: str) -> str:
    return "--" + option.replace("_", "-")


def _table_options(build: Callable[..., object]) -> list[str]:
    """The flags that set a builder's parameters."""
    accepted = inspect.signature(build).parameters
    return [_flag(o) for o, names in TABLE_OPTIONS.items() if any(p in accepted for p in names)]


def _table_arguments(name: str, build: Callable[..., object], args: argparse.Namespace) -> dict:
    """The options set on the command line, under the builder's own parameter names; an
    option the table does not take is a UsageError naming both (never ignored)."""
    accepted = inspect.signature(build).parameters
    out = {}
    for option, parameters in TABLE_OPTIONS.items():
        value = getattr(args, option)
        if value is None:
            continue
        target = next((p for p in parameters if p in accepted), None)
        if target is None:
            takes = ", ".join(_table_options(build)) or "no option"
            raise UsageError(f"tables: {name} does not take {_flag(option)} (it takes {takes})")
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


def _require_suffix(out: Path, allowed: tuple[str, ...], mode: str = "") -> None:
    """A UsageError unless --out's suffix is one of `allowed` (`mode`: what set them)."""
    if out.suffix not in allowed:
        listed = " or ".join(filter(None, (", ".join(allowed[:-1]), allowed[-1])))
        raise UsageError(f"{out}: --out must end in {listed}{mode}, got {out.suffix!r}")


def _nearest(name: str, names: Iterable[str]) -> str:
    """The end of an unknown name's message: the nearest names, or all when none is near
    (there are a few dozen tables and formulas, not hundreds)."""
    from proofs.registry import nearest

    near = nearest(name, names)
    return f"; nearest: {', '.join(near)}" if near else f"; expected one of {', '.join(names)}"


def _emit(text: str, out: Path | None, force: bool, what: str) -> None:
    """Print `text`, or write it to `out` whole or not at all and say so on stderr."""
    if out is None:
        print(text.rstrip("\n"))
        return
    write_atomically(out, text, force)
    print(f"wrote {what} to {out}", file=sys.stderr)


def _tables(args: argparse.Namespace) -> int:
    from proofs.latex import header
    from proofs.registry import tables

    registered = tables()
    if args.list:
        for entry in registered.values():
            options = ", ".join(_table_options(entry.build)) or "no options"
            print(f"{entry.name:21} {entry.title}\n{'':21} options: {options}")
        return 0
    names = args.names or list(registered)
    for name in names:
        if name not in registered:
            raise UsageError(f"tables: unknown table {name!r}{_nearest(name, registered)}")
    fmt = args.format
    if args.out is not None:
        every = tuple(dict.fromkeys(s for listed in TABLE_SUFFIXES.values() for s in listed))
        _require_suffix(args.out, TABLE_SUFFIXES[fmt] if fmt else every,
                        f" with --format {fmt}" if fmt else "")
        fmt = fmt or next(f for f, listed in TABLE_SUFFIXES.items() if args.out.suffix in listed)
        if fmt == "csv" and len(names) > 1:
            raise UsageError(f"{args.out}: a CSV file holds one table; name one of "
                             f"{', '.join(names)}")
        check_target(args.out, args.force)  # before the tables are computed
    fmt = fmt or "markdown"
    blocks = []
    for name in names:
        build = registered[name].build
        try:
            table = build(**_table_arguments(name, build, args))
        except (TypeError, ValueError) as exc:
            raise UsageError(f"tables: {name}: {exc}") from exc
        body = table.render(fmt)
        if len(names) > 1 or fmt in ("markdown", "text"):
            marker = "%" if fmt == "latex" else "#"
            body = f"{marker} {name}: {table.caption}\n{body}"
        blocks.append(body.rstrip("\n"))
    text = "\n\n".join(blocks) + "\n"
    if fmt == "latex":
        text = header(text, r"tables of the chapters (booktabs), to \input") + text
    _emit(text, args.out, args.force, f"{len(names)} tables" if len(names) > 1 else names[0])
    return 0


# latex -------------------------------------------------------------------------

LATEX_SUFFIXES = {"equations": (".tex", ".json"), "macros": (".sty",), "standalone": (".tex",)}


def _latex(args: argparse.Namespace) -> int:
    from proofs import latex_files
    from proofs.formulas import FormulaNotProved
    from proofs.registry import formulas, tables

    registered = formulas()
    if args.list:
        for formula in registered.values():
            print(f"{formula.name:28} {formula.title}")
        return 0
    if args.paper is not None and not args.standalone:
        raise UsageError("latex: --paper sets the paper of --standalone, which is not given")
    names = args.names or list(registered)
    for name in names:
        if name not in registered:
            raise UsageError(f"latex: unknown formula {name!r}{_nearest(name, registered)}")
    kind = "standalone" if args.standalone else "macros" if args.macros else "equations"
    if args.out is not None:
        _require_suffix(args.out, LATEX_SUFFIXES[kind], "" if kind == "equations" else
                        f" with --{kind}")
        check_target(args.out, args.force)  # before the formulas are derived
    try:
        rendered = [(registered[name], registered[name].latex()) for name in names]
    except FormulaNotProved as exc:
        raise LoadError(f"latex: {exc}; nothing written") from exc
    built = []
    if kind == "standalone" and not args.names:
        built = [entry.build() for entry in tables().values()]
    if args.out is not None and args.out.suffix == ".json":
        text = json.dumps({f.name: tex for f, tex in rendered}, ensure_ascii=False, indent=2)
        text += "\n"
    elif kind == "macros":
        text = latex_files.macros(rendered, args.out.stem if args.out else None)
    elif kind == "standalone":
        text = latex_files.standalone(rendered, built, args.paper or "a4")
    else:
        text = latex_files.equations(rendered)
    tables_written = f" and {len(built)} tables" if built else ""
    _emit(text, args.out, args.force, f"{len(rendered)} formulas{tables_written}")
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

    load_profile(args.profile, in_cache=True)  # for the checks of the examples and exercises
    _registry()
    try:
        accepted = read_baseline(args.baseline) if args.baseline else None
        if args.write_baseline:
            check_target(args.write_baseline, args.force, inputs=args.files)
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
        count = write_baseline(args.write_baseline, audited, args.force)
        print(f"wrote {count} accepted mismatches to {args.write_baseline}", file=sys.stderr)
        return 0
    if accepted is not None:
        return 1 if any(c.new for c in kept.values()) else 0
    return 1 if any(r.mismatched for r in reports) else 0


# sync --------------------------------------------------------------------------


def _sync(args: argparse.Namespace) -> int:
    from proofs.files import Changed
    from proofs.reader import ChapterInputError
    from proofs.sync import sync_file

    _registry()
    try:
        synced = [sync_file(path) for path in args.files]  # all read before any is written
    except ChapterInputError as exc:
        raise UsageError(str(exc)) from exc
    ok = True
    for result in synced:
        if args.verbose:
            print(result.listing(), file=sys.stderr, flush=True)
        if result.drifted and not args.write:
            print(result.diff(), flush=True)
        if args.write:
            try:
                result.write()
            except Changed as exc:
                print(f"{PROG}: {exc}", file=sys.stderr, flush=True)
                ok = False
                continue
        print(result.summary(written=args.write), file=sys.stderr, flush=True)
        ok = ok and (not result.problems if args.write else result.in_sync)
    return 0 if ok else 1


# figures -----------------------------------------------------------------------


def _chosen_pictures(args: argparse.Namespace, known: dict) -> list:
    """The pictures the names choose (`map` every map, or --chapter's), in their order."""
    from proofs.pictures import MAP

    maps = [p for p in known.values() if p.sort == "map"]
    if args.chapter is not None:
        if args.names and MAP not in args.names:
            raise UsageError("figures: --chapter chooses the chapter of `map`, which is not "
                             "named")
        maps = [p for p in maps if p.chapter == args.chapter]
        if not maps:
            chapters = ", ".join(p.chapter for p in known.values() if p.sort == "map")
            raise UsageError(f"figures: no chapter {args.chapter!r}; known: {chapters}")
    chosen: dict[str, object] = {}
    for name in args.names or list(known):
        if name == MAP:
            chosen.update((p.name, p) for p in maps)
        elif name in known:
            chosen[name] = known[name]
        else:
            raise UsageError(f"figures: unknown figure {name!r}{_nearest(name, known)}")
    return list(chosen.values())


def _report(path: Path | None, chapters: Iterable[str]) -> object:
    """The verify --json report a map is coloured by (None without --results), checked as
    one before anything is drawn, and holding elements of each of the maps' `chapters`;
    UsageError naming the file when it is not one."""
    from proofs.chapter_map import results_from_report
    from proofs.files import read_json

    if path is None:
        return None
    try:
        report = read_json(path, "a report of verify --json")
        results_from_report(report, "")
    except ValueError as exc:  # read_json's name the file, results_from_report's do not
        said = str(exc)
        raise UsageError(said if said.startswith(str(path)) else f"{path}: {said}") from exc
    held = {e["chapter"] for e in report["elements"]}
    for chapter in chapters:
        if chapter not in held:
            has = ", ".join(sorted(held)) or "none"
            raise UsageError(f"{path}: the report has no element of chapter {chapter} (it has "
                             f"elements of: {has}); run verify on that chapter for its map")
    return report


def _figures(args: argparse.Namespace) -> int:
    from proofs.chapter_map import results_from_report
    from proofs.pictures import catalogue, chapter_file, map_of, picture_file
    from proofs.plotting import FiguresUnavailable, matplotlib_module

    known = catalogue()
    if args.list:
        for picture in known.values():
            print(f"{picture.name:24} {picture.sort:6} {picture.title}")
        return 0
    chosen = _chosen_pictures(args, known)
    if args.out is None:
        raise UsageError("figures: --out DIR is required (the pictures are files)")
    if not args.out.is_dir():
        raise UsageError(f"{args.out}: is not a directory")
    targets = [args.out / f"{p.name}.{args.format}" for p in chosen]
    read = [chapter_file(p.chapter, args.chapters) for p in chosen if p.sort == "map"]
    read += [args.results] if args.results else []
    for target in targets:  # before anything is drawn
        check_target(target, args.force, inputs=read)
    for picture in chosen:
        if picture.sort == "map" and not chapter_file(picture.chapter, args.chapters).is_file():
            raise UsageError(f"{chapter_file(picture.chapter, args.chapters)}: no such chapter "
                             f"file (--chapters DIR names their directory)")
    report = _report(args.results, [p.chapter for p in chosen if p.sort == "map"])
    try:
        matplotlib_module()
    except FiguresUnavailable as exc:
        raise UsageError(str(exc)) from exc
    from proofs.profiles import load_profile
    from proofs.registry import CHAPTERS

    load_profile(None, in_cache=True)  # for the checks a map runs without a report

    def svg_of_map(chapter: str) -> str:
        """The chapter's map, coloured by the report (the other chapters' elements by their
        citations, 命題 7.2［…］) or by running its checks."""
        others = {c.key: c.short for c in CHAPTERS.values() if c.key != chapter}
        results = None if report is None else results_from_report(report, chapter, others)
        return map_of(chapter, args.chapters, results)

    for picture, target in zip(chosen, targets, strict=True):
        start = time.perf_counter()
        data = picture_file(picture, args.format, svg_of_map)
        write_atomically(target, data, args.force)
        print(f"wrote {picture.name} to {target} ({len(data):,} bytes, "
              f"{time.perf_counter() - start:.1f} s)", file=sys.stderr)
    return 0


def _new_chapter(args: argparse.Namespace) -> int:
    from proofs import scaffold
    from proofs.reader import ChapterInputError

    taken = frozenset(_registry())
    try:
        document = _read_document(args.file)
        target = scaffold.write_skeleton(document, args.key, args.out, taken)
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
    "figures": _figures,
    "new-chapter": _new_chapter,
}


class StreamError(OSError):
    """Standard output cannot take what a command writes (a full disk, a closed descriptor)."""


class _Output(io.TextIOBase):
    """Standard output for the duration of a command: a failure to write is a StreamError,
    told apart from the OSErrors of the files a command reads, and a descriptor closed at
    start fails instead of dropping the output without a word."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def _do(self, step: Callable[[TextIO], int | None]) -> int | None:
        if self.stream is None:
            raise StreamError(errno.EBADF, "standard output is closed")
        try:
            return step(self.stream)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise StreamError(exc.errno, exc.strerror) from exc

    def write(self, text: str) -> int:
        return self._do(lambda s: s.write(text)) or 0

    def flush(self) -> None:
        self._do(lambda s: s.flush())

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def fileno(self) -> int:
        if self.stream is None:
            raise StreamError(errno.EBADF, "standard output is closed")
        return self.stream.fileno()


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush of what
    is still buffered does not fail again with a traceback at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())  # type: ignore[union-attr]


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; return its exit code (argparse's own errors give 2). Without
    any argument, the help on stderr and exit code 2, argparse's answer to a missing
    argument: nothing ran."""
    grammar = parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        grammar.print_help(sys.stderr)
        return 2
    try:
        args = grammar.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    stdout, sys.stdout = sys.stdout, _Output(sys.stdout)
    try:
        code = COMMANDS[args.command](args)
        sys.stdout.flush()  # a full stream fails here, not after the exit code is chosen
        return code
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
        _silence_stdout()
        return 0
    except StreamError as exc:
        print(f"{PROG}: cannot write to standard output ({exc.strerror}); the output is "
              "incomplete", file=sys.stderr)
        _silence_stdout()
        return 2
    except Exception as exc:
        from proofs.profiles import ProfileError  # only now: Hypothesis is slow to import

        if not isinstance(exc, ProfileError):  # a bad HYPOTHESIS_PROFILE is bad input
            raise
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    finally:
        sys.stdout = stdout


if __name__ == "__main__":
    sys.exit(main())
