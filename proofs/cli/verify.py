"""`proofs verify`: run the checks, in this process or in worker processes, and print
the screen or the JSON report. Also the loading of the registry every command shares."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from proofs.book.registry import RESULTS
from proofs.cli.arguments import UsageError, cores
from proofs.publish.screen import screen


class LoadError(Exception):
    """The chapter modules cannot be imported: reported on one line, exit code 1."""


def load_registry() -> dict:
    from proofs.book.registry import load_all

    try:
        return load_all()
    except Exception as exc:  # noqa: BLE001 - a broken chapter module is reported, not raised
        raise LoadError(f"cannot load the checks: {type(exc).__name__}: {exc}") from exc


def _select(selectors: Sequence[str]) -> list:
    from proofs.book.registry import find, nearest_ids

    registry = load_registry()
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
        "findings": [f.message for f in run.findings],
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


def derivations_folder() -> Path | None:
    """Where the commands keep their costly derivations between runs (the symbolic ones,
    例 4.5's table): the user's cache directory, under transformer-proofs/derivations
    (`cache`: keyed by the version and the inputs, sealed, safe to delete); None,
    deriving every time, where it cannot be made."""
    from proofs.book.profiles import cache_directory

    return cache_directory("derivations")


def _start_worker(profile: str) -> None:
    """A worker process: the Hypothesis profile loaded and the derivations kept, as here."""
    from cache.remembered import remember_in
    from proofs.book.profiles import load_profile

    load_profile(profile, True)
    remember_in(derivations_folder())


def _runs(elements: list, profile: str, jobs: int) -> Iterator:
    """Each element's CheckRun, in the order of `elements`. With `jobs` > 1, the checks
    run in that many spawned worker processes, each with the Hypothesis profile loaded,
    and come back as they finish, in order; a check that cannot be sent runs here."""
    from proofs.book.registry import CheckRun, raised, run_check

    portable = [_portable(e) for e in elements]
    workers = min(jobs, cores(), sum(p is not None for p in portable))
    if workers <= 1:
        yield from (run_check(e) for e in elements)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(profile,),
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


def verify(args: argparse.Namespace) -> int:
    from proofs.book.profiles import load_profile

    profile = load_profile(args.profile, in_cache=True)
    elements, judged = _on_chapter_files(_select(args.selectors))
    start = time.perf_counter()
    results = []
    runs = _runs(elements, profile, args.jobs)
    for i, element in enumerate(elements, 1):
        _progress(i, len(elements), element)
        results.append(_result(element, next(runs)))
    if elements and sys.stderr.isatty():
        sys.stderr.write(" " * 60 + "\r")
    seconds = time.perf_counter() - start
    accepted = ("passed",) if args.fail_unchecked else ("passed", "unchecked")
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
            "judged": judged,
            "elements": results,
        }
        print(json.dumps(report, ensure_ascii=False, indent=2))
    elif not results:
        print("0 checks registered: nothing to verify")
    else:
        print(_judged_line(judged))
        print(screen(results, profile, seconds, args.evidence, args.wide))
    return 0 if ok else 1


def _on_chapter_files(elements: list) -> tuple[list, dict[str, str]]:
    """The elements with their checks judging the claims their chapter's file states,
    where the chapter folders (proofs.book.locations) hold it; and, by chapter key, the
    file judged ("" where the checks judge the package's transcriptions)."""
    from proofs.audit.rules.claims import on_chapter_files
    from proofs.book.locations import chapter_folders

    return on_chapter_files(elements, chapter_folders())


def _judged_line(judged: dict[str, str]) -> str:
    """What the checks judged, one chapter after the other."""
    said = [
        f"{key} {_shown(path) if path else '(the transcriptions: no file found)'}"
        for key, path in judged.items()
    ]
    return "judged: " + "; ".join(said)


def _shown(path: str) -> str:
    """A chapter file as the screen names it: relative to here when that is short (in
    this folder or the one above), else by its name (the JSON report has it whole)."""
    relative = os.path.relpath(path)
    return relative if not relative.startswith(f"..{os.sep}..") else Path(path).name
