"""The command line. Through its real entry point (`python -m proofs …` in a subprocess)
only what concerns the entry point itself: each exit code, bad input on one line, an
atomic write, one verify of a small selection, one audit. Those runs are made in the
background once collection is done (tests/early.py), alongside the in-process tests, and
each test collects its own.
Everything else runs in-process through `cli.main`, sharing the process's caches
(tables, listings, the checks the audit runs)."""

import atexit
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import early
import pytest
from commands import one_line
from commands import run as main
from places import ROOT, SEEDS

from proofs import cli, files
from proofs.book.judge import CheckFailed, finding
from proofs.book.registry import REGISTRY, RegisteredElement, load_all
from proofs.cli.arguments import cores
from proofs.publish import screen

CHAPTERS = sorted(SEEDS.glob("00*_*.txt"))
ENTRY_POINT = "the runs of python -m proofs"


@dataclass
class EntryPointRuns:
    """The runs of `python -m proofs …` the selected tests take, by name, and the folder
    they may read and write files in."""

    directory: Path
    done: dict[str, subprocess.CompletedProcess]

    def result(self, name: str) -> subprocess.CompletedProcess:
        return self.done[name]


def planned_runs(directory: Path) -> dict[str, dict[str, Callable[[], tuple[str, ...]]]]:
    """Each test's runs of the entry point: their names and arguments."""
    return {
        "test_verify_runs_the_selected_checks_and_reports_json": {
            "verify": lambda: ("verify", *quick_ids(), "--json", "--profile", "ci"),
        },
        "test_latex_out_is_written_atomically_and_refused_without_force": {
            "latex-write": lambda: (
                "latex",
                "attention-parameters",
                "block-parameters",
                "--out",
                str(directory / "formulas.json"),
            ),
            "latex-refused": lambda: ("latex", "--out", str(directory / "kept.json")),
        },
        "test_audit_through_the_entry_point_exits_1_on_the_block_chapters_slip": {
            "audit": lambda: ("audit", str(block_chapter()), "--json"),
        },
        "test_audit_of_both_chapters_forked_is_the_audit_one_by_one": {
            "audit-forked": lambda: ("audit", *both_chapters(), "--json", "--jobs", "2"),
            "audit-one-by-one": lambda: ("audit", *both_chapters(), "--json", "--jobs", "1"),
        },
        "test_audit_of_a_missing_file_exits_2_through_the_entry_point": {
            "audit-missing": lambda: ("audit", str(directory / "absent.mdx")),
        },
    }


@early.job(ENTRY_POINT)
def entry_point_runs(items: Sequence[pytest.Item]) -> EntryPointRuns:
    """The selected tests' runs of the entry point, one after the other, in a folder removed
    when the tests end."""
    directory = early.scratch("entry-point-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    (directory / "kept.json").write_text("kept")
    planned = planned_runs(directory)
    env = early.environment(PYTHONPATH=str(ROOT), HYPOTHESIS_PROFILE="ci")
    done = {}
    for item in items:
        for name, arguments in planned[item.originalname].items():
            with contextlib.suppress(pytest.skip.Exception):  # the test skips itself
                done[name] = subprocess.run(
                    [sys.executable, "-m", "proofs", *arguments()],
                    cwd=ROOT,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=300,
                )
    return EntryPointRuns(directory, done)


@pytest.fixture
def entry_point() -> EntryPointRuns:
    """The entry point's runs, made in the background (tests/early.py); the test taking
    them is marked early(ENTRY_POINT)."""
    return early.result(ENTRY_POINT)


def test_every_subcommand_has_help_with_an_example():
    for command in ("verify", "tables", "latex", "audit", "sync"):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            assert cli.main([command, "--help"]) == 0
        out = buffer.getvalue()
        assert "example" in out and f"python -m proofs {command}" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("tables", "--format", "html"),
            "proofs tables: argument --format: invalid choice: 'html'",
        ),
        (("no-such-command",), "proofs: argument COMMAND: invalid choice: 'no-such-command'"),
    ],
    ids=["bad-choice", "bad-command"],
)
def test_a_malformed_command_line_exits_2_on_one_line(capsys, args, message):
    code, _, err = main(capsys, *args)
    assert code == 2
    assert one_line(err).startswith(message) and "--help" in err


def test_bare_proofs_prints_the_help_and_exits_2(capsys):
    """argparse's convention for a missing argument (exit 2: nothing ran), with the whole
    help rather than one line, since nothing was asked yet."""
    code, out, err = main(capsys)
    assert code == 2 and out == ""
    assert err.startswith("usage: proofs ")
    for command in cli.COMMANDS:
        assert f"    {command}" in err


def test_version_is_the_package_metadata(capsys):
    import proofs

    code, out, _ = main(capsys, "--version")
    assert code == 0 and out == f"proofs {proofs.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", proofs.__version__)


def test_version_without_installed_metadata_is_unknown(monkeypatch):
    import importlib
    import importlib.metadata

    import proofs

    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    try:
        assert importlib.reload(proofs).__version__ == "0+unknown"
    finally:
        monkeypatch.undo()
        importlib.reload(proofs)
    assert proofs.__version__ != "0+unknown"


# verify --------------------------------------------------------------------------


def quick_ids(k: int = 2) -> list[str]:
    """Registered elements with the fewest methods, as a small fast selection."""
    elements = sorted(load_all().values(), key=lambda e: ("numeric" in e.methods, e.id))
    if not elements:
        pytest.skip("no check is registered yet")
    return [e.id for e in elements[:k]]


@pytest.mark.early(ENTRY_POINT)
def test_verify_runs_the_selected_checks_and_reports_json(entry_point):
    ids = quick_ids()
    result = entry_point.result("verify")
    report = json.loads(result.stdout)
    assert [e["id"] for e in report["elements"]] == ids
    assert report["profile"] == "ci"
    assert result.returncode == (0 if report["ok"] else 1)
    assert all(e["result"] in ("passed", "failed", "error") for e in report["elements"])
    assert report["findings"] == sum(len(e["findings"]) for e in report["elements"])
    assert f"[1/{len(ids)}] {ids[0]}" in result.stderr  # the progress line


def test_verify_screen_lists_id_number_title_kind_result_and_time(capsys):
    ids = quick_ids(1)
    code, out, _ = main(capsys, "verify", ids[0].replace("-", "_"))
    element = load_all()[ids[0]]
    row = next(line for line in out.splitlines() if line.startswith(ids[0]))
    assert element.number in row and element.kind in row and " s" in row
    assert "1 check:" in out and code == 0


def test_verify_unknown_id_exits_2_with_the_nearest_ids(capsys):
    if "prop-softmax-jacobian" not in load_all():
        pytest.skip("prop-softmax-jacobian is not registered yet")
    code, _, err = main(capsys, "verify", "prop-softmax-jacobain")
    assert code == 2
    assert "prop-softmax-jacobian" in one_line(err)


def planted_element(id_: str, number: str, methods: tuple[str, ...], check) -> RegisteredElement:
    return RegisteredElement(
        id_, number, "planted", "self-attention", "proposition", methods, "-", check
    )


@pytest.fixture
def planted():
    """Planted elements: one whose check fails, one failing twice, one that raises."""

    def failing() -> list[str]:
        raise CheckFailed("J 1 = (0.1, -0.1), not 0")

    def broken() -> list[str]:
        raise ZeroDivisionError("division by zero\nsecond line")

    def failing_twice() -> list[str]:
        raise ExceptionGroup("two", [CheckFailed("row 1 moved"), CheckFailed("row 2 moved")])

    load_all()
    planted = {
        "zz-planted-failure": planted_element(
            "zz-planted-failure", "命題 99.1", ("symbolic",), failing
        ),
        "zz-planted-group": planted_element(
            "zz-planted-group", "命題 99.3", ("numeric",), failing_twice
        ),
        "zz-planted-error": planted_element("zz-planted-error", "命題 99.2", ("numeric",), broken),
    }
    REGISTRY.update(planted)
    yield list(planted)
    for key in planted:
        REGISTRY.pop(key)


def test_verify_reports_a_failed_check_and_an_error_and_exits_1(planted, capsys):
    code, out, _ = main(capsys, "verify", *planted)
    assert code == 1
    assert "FAILED zz-planted-failure (命題 99.1): J 1 = (0.1, -0.1), not 0" in out
    assert "ERROR zz-planted-error (命題 99.2): ZeroDivisionError: division by zero" in out
    assert "second line" not in out
    assert "FAILED zz-planted-group (命題 99.3): row 1 moved; row 2 moved" in out


def test_verify_selects_by_number(planted, capsys):
    code, out, _ = main(capsys, "verify", "命題 99.2", "--json")
    report = json.loads(out)
    assert code == 1
    assert [e["id"] for e in report["elements"]] == ["zz-planted-error"]
    assert report["elements"][0]["result"] == "error"


def worker_failing() -> list[str]:
    raise CheckFailed(f"row 1 moved (in process {os.getpid()})")


def worker_broken() -> list[str]:
    raise ZeroDivisionError("division by zero")


def worker_passing() -> list[str]:
    """Where it ran, with how many Hypothesis examples (the profile loaded there) and how
    many OpenBLAS threads."""
    from hypothesis import settings

    assert settings.default is not None
    return [
        f"process {os.getpid()}",
        f"{settings.default.max_examples} examples",
        f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}",
    ]


@pytest.fixture
def planted_for_workers():
    """Planted elements whose checks are module-level functions, which a worker imports."""
    load_all()
    checks = {"failure": worker_failing, "error": worker_broken, "pass": worker_passing}
    planted = {
        f"zz-worker-{name}": planted_element(
            f"zz-worker-{name}", f"命題 98.{i}", ("numeric",), check
        )
        for i, (name, check) in enumerate(checks.items(), 1)
    }
    REGISTRY.update(planted)
    yield list(planted)
    for key in planted:
        REGISTRY.pop(key)


def test_verify_jobs_runs_the_checks_in_workers_reporting_failures_and_errors(
    planted_for_workers, capsys
):
    threads_before = os.environ.get("OPENBLAS_NUM_THREADS")
    code, out, _ = main(capsys, "verify", *planted_for_workers, "--jobs", "2", "--json")
    report = json.loads(out)
    assert code == 1
    results = {e["id"]: e for e in report["elements"]}
    assert [e["id"] for e in report["elements"]] == planted_for_workers  # in the given order
    assert results["zz-worker-failure"]["result"] == "failed"
    assert results["zz-worker-failure"]["message"].startswith("row 1 moved (in process ")
    assert f"in process {os.getpid()})" not in results["zz-worker-failure"]["message"]
    assert results["zz-worker-error"]["result"] == "error"
    assert results["zz-worker-error"]["message"] == "ZeroDivisionError: division by zero"
    assert results["zz-worker-pass"]["evidence"][0] != f"process {os.getpid()}"
    # the two workers share the cores out; this process's environment is left as it was
    threads = os.environ.get("OPENBLAS_NUM_THREADS", str(max(1, cores() // 2)))
    assert results["zz-worker-pass"]["evidence"][2] == f"OPENBLAS_NUM_THREADS={threads}"
    assert os.environ.get("OPENBLAS_NUM_THREADS") == threads_before


def test_verify_jobs_keeps_the_hypothesis_profile_in_the_workers(planted_for_workers, capsys):
    from proofs.book.profiles import BASE_EXAMPLES, load_profile

    try:
        for profile, examples in (("thorough", 10 * BASE_EXAMPLES), ("ci", BASE_EXAMPLES)):
            _, out, _ = main(
                capsys,
                "verify",
                *planted_for_workers,
                "--jobs",
                "2",
                "--json",
                "--profile",
                profile,
            )
            passing = json.loads(out)["elements"][-1]
            assert passing["evidence"][1] == f"{examples} examples"
    finally:
        load_profile()  # the test session's own profile


def worker_dying() -> list[str]:
    os._exit(3)  # a crash of the worker process itself (only ever run in a worker)


def test_a_worker_process_that_dies_is_its_checks_error_not_a_hang(planted_for_workers, capsys):
    dying = planted_element("zz-worker-dying", "命題 98.4", ("numeric",), worker_dying)
    REGISTRY[dying.id] = dying
    try:
        code, out, _ = main(
            capsys, "verify", *planted_for_workers, dying.id, "--jobs", "2", "--json"
        )
    finally:
        REGISTRY.pop(dying.id)
    assert code == 1
    result = json.loads(out)["elements"][-1]
    assert result["id"] == dying.id and result["result"] == "error"
    assert result["message"].startswith("in a worker process: BrokenProcessPool: ")


def test_a_check_a_worker_cannot_import_runs_in_this_process(planted, capsys):
    def here() -> list[str]:
        return [f"process {os.getpid()}"]

    here_element = planted_element("zz-planted-here", "命題 99.5", ("numeric",), here)
    REGISTRY[here_element.id] = here_element
    try:
        code, out, _ = main(capsys, "verify", *planted, "zz-planted-here", "--jobs", "2", "--json")
    finally:
        REGISTRY.pop("zz-planted-here")
    report = json.loads(out)
    assert [e["result"] for e in report["elements"]] == ["failed", "failed", "error", "passed"]
    assert report["elements"][-1]["evidence"] == [f"process {os.getpid()}"]


def without_times(report: dict) -> dict:
    """A JSON report less its times (the only part that differs from run to run)."""
    return {
        **{k: v for k, v in report.items() if k != "seconds"},
        "elements": [{k: v for k, v in e.items() if k != "seconds"} for e in report["elements"]],
    }


def test_verify_jobs_2_prints_what_jobs_1_prints_apart_from_the_times(with_a_finding, capsys):
    ids = [*quick_ids(3), with_a_finding]
    reports, screens = [], []
    for jobs in ("1", "2"):
        _, out, _ = main(capsys, "verify", *ids, "--jobs", jobs, "--json", "--profile", "ci")
        reports.append(without_times(json.loads(out)))
        _, out, _ = main(capsys, "verify", *ids, "--jobs", jobs, "--wide", "--profile", "ci")
        screens.append(
            [re.sub(r"\s+", " ", re.sub(r"[0-9.]+ s\b", "", line)) for line in out.splitlines()]
        )
    assert reports[0] == reports[1]
    assert screens[0] == screens[1]


@pytest.fixture
def with_a_finding():
    """A planted element whose check passes with one finding among its evidence."""

    def slip() -> list:
        return ["8/7 = 1.142857... exactly", finding("1.1428", "the chapter prints 1.1428 for 8/7")]

    load_all()
    REGISTRY["zz-planted-slip"] = planted_element("zz-planted-slip", "例 99.4", ("symbolic",), slip)
    yield "zz-planted-slip"
    REGISTRY.pop("zz-planted-slip")


def test_verify_lists_each_finding_after_the_table_and_counts_it(with_a_finding, capsys):
    code, out, _ = main(capsys, "verify", with_a_finding)
    assert code == 0  # the statement holds: a finding is not a failure
    lines = out.splitlines()
    table_end = lines.index("")
    assert "zz-planted-slip: the chapter prints 1.1428 for 8/7" in lines[table_end:]
    assert lines[-1].startswith("1 check: 1 passed, 0 failed, 0 errors, 0 unchecked, 1 finding in ")
    code, out, _ = main(capsys, "verify", with_a_finding, "--json")
    report = json.loads(out)
    assert report["findings"] == 1
    assert report["elements"][0]["findings"] == ["the chapter prints 1.1428 for 8/7"]


def test_verify_without_findings_counts_none(capsys):
    ids = quick_ids(1)
    _, out, _ = main(capsys, "verify", ids[0])
    assert ", 0 findings in " in out.splitlines()[-1] and "findings (" not in out


def made_up_result(e: RegisteredElement) -> dict:
    """A passed result for e, without running its check (the screen's layout depends on
    the ids, numbers, titles and methods only)."""
    return {
        "id": e.id,
        "number": e.number,
        "title": e.title,
        "kind": e.kind,
        "methods": list(e.methods),
        "result": "passed",
        "message": "",
        "evidence": [],
        "findings": [],
        "seconds": 12.345,
    }


def screen_of_the_registry(wide: bool) -> list[str]:
    """The verify screen for every registered element."""
    results = [made_up_result(e) for e in load_all().values()]
    return screen.screen(results, "ci", 1.0, evidence=False, wide=wide).splitlines()


def test_verify_screen_abbreviates_the_methods_only_when_the_titles_need_the_room():
    methods = ("symbolic", "numeric", "high precision")
    short = made_up_result(planted_element("zz-short", "命題 99.5", methods, list))
    lines = screen.screen([short], "ci", 1.0, evidence=False).splitlines()
    assert "symbolic, numeric, high precision" in lines[2]
    assert not any(line.startswith("methods:") for line in lines)


def test_verify_screen_fits_120_columns_counting_wide_characters_twice():
    lines = screen_of_the_registry(wide=False)
    assert max(screen.display_width(line) for line in lines) <= screen.SCREEN_WIDTH
    assert any(line.rstrip().endswith("…") or "…  " in line for line in lines)
    assert lines[-3].startswith("methods: sym symbolic, num numeric")


def test_verify_wide_screen_shows_the_full_titles_and_methods():
    lines = screen_of_the_registry(wide=True)
    text = "\n".join(lines)
    for e in load_all().values():
        assert e.title in text and ", ".join(e.methods) in text
    assert "…" not in text
    assert max(screen.display_width(line) for line in lines) > screen.SCREEN_WIDTH


def test_every_method_has_an_abbreviation():
    from proofs.book.registry import METHODS

    assert set(screen.METHOD_ABBREVIATIONS) == set(METHODS)
    assert len(set(screen.METHOD_ABBREVIATIONS.values())) == len(METHODS)


def test_display_width_and_truncate():
    assert screen.display_width("層正規化") == 8
    assert screen.display_width("ReLU の MLP") == 11
    assert screen.truncate("層正規化のヤコビ行列", 9) == "層正規化…"
    assert screen.display_width(screen.truncate("層正規化のヤコビ行列", 9)) == 9
    assert screen.truncate("層正規化", 8) == "層正規化"


def test_a_long_title_is_cut_and_the_wide_screen_keeps_it(capsys, with_a_finding):
    long_title = "残差接続・位置ごとの MLP・ブロックの定義とその性質のすべて" * 2
    REGISTRY[with_a_finding] = replace(REGISTRY[with_a_finding], title=long_title)
    _, narrow, _ = main(capsys, "verify", with_a_finding)
    _, wide, _ = main(capsys, "verify", with_a_finding, "--wide")
    assert long_title not in narrow and long_title in wide
    assert max(screen.display_width(line) for line in narrow.splitlines()) <= screen.SCREEN_WIDTH


# tables --------------------------------------------------------------------------


def test_tables_with_other_settings_and_formats(capsys):
    code, out, err = main(
        capsys,
        "tables",
        "attention-complexity",
        "--d",
        "128",
        "--n",
        "128",
        "256",
        "--format",
        "csv",
    )
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[1] == "128,8388608,4194304,12582912,,"
    assert lines[2].startswith("256,16777216,16777216,33554432,4.0,")


def test_a_command_keeps_the_table_it_drew_and_the_next_run_prints_it_again(
    capsys, monkeypatch, tmp_path
):
    """例 4.5's table at two d_k, drawn by `proofs tables`, is kept in the user's cache
    directory; the next run reads it without drawing and prints the same table."""
    from cache.remembered import remembering
    from proofs.chapters.self_attention import tables as sa_tables

    kept_in = tmp_path / "transformer-proofs" / "derivations"
    kept_in.mkdir(parents=True)
    monkeypatch.setattr(cli.verify, "derivations_folder", lambda: kept_in)
    monkeypatch.setattr(sa_tables, "_scaling_table", sa_tables._scaling_table.__wrapped__)
    command = ("tables", "scaling", "--dims", "4", "16", "--seed", "5")
    code, drawn, err = main(capsys, *command)
    assert code == 0, err
    kept = list((tmp_path / "transformer-proofs" / "derivations").rglob("*.json"))
    assert [path.parent.name for path in kept] == ["scaling_table"]

    def not_drawn(*settings: object) -> None:
        raise AssertionError("drawn again")

    monkeypatch.setattr(sa_tables, "_drawn_table", not_drawn)
    assert main(capsys, *command) == (0, drawn, "")
    assert remembering() is None  # as the test found it


def test_tables_bad_arguments_exit_2_on_one_line(capsys):
    code, _, err = main(capsys, "tables", "no-such-table")
    assert code == 2 and "unknown table 'no-such-table'" in one_line(err)
    code, _, err = main(capsys, "tables", "attention-complexity", "--d", "0")
    assert code == 2 and "d must be a positive int, got 0" in one_line(err)


def test_tables_unknown_name_gets_the_nearest_names(capsys):
    code, _, err = main(capsys, "tables", "gpt2-parameter")
    assert code == 2
    assert one_line(err) == (
        "proofs: tables: unknown table 'gpt2-parameter'; nearest: gpt2-parameters, "
        "attention-parameters"
    )


@pytest.mark.parametrize(
    "args, option",
    [
        (("gpt2-parameters", "--heads", "12"), "--heads"),  # the count does not depend on h
        (("block-cost", "--seed", "1"), "--seed"),
        (("attention-parameters", "--dims", "4"), "--dims"),
    ],
)
def test_tables_an_option_a_table_does_not_take_is_an_error_naming_both(capsys, args, option):
    code, out, err = main(capsys, "tables", *args)
    assert code == 2 and out == ""
    assert one_line(err).startswith(f"proofs: tables: {args[0]} does not take {option} (it takes ")


def test_tables_list_names_each_table_where_the_chapter_has_it_and_its_options(capsys):
    from proofs.book.registry import tables

    code, out, _ = main(capsys, "tables", "--list")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2 * len(tables())
    for entry, first in zip(tables().values(), lines[::2], strict=True):
        assert first.startswith(entry.name) and entry.title in first
    assert "例 5.3［Transformer ブロック］" in out
    scaling = lines.index(next(line for line in lines if line.startswith("scaling ")))
    assert lines[scaling + 1].split() == ["options:", "--dims,", "--seed"]


def test_tables_out_writes_the_format_its_suffix_names_and_refuses_to_overwrite(tmp_path, capsys):
    target = tmp_path / "gpt2.csv"
    code, out, err = main(capsys, "tables", "gpt2-parameters", "--out", str(target))
    assert code == 0 and out == "" and one_line(err) == f"wrote gpt2-parameters to {target}"
    assert target.read_text(encoding="utf-8").splitlines()[:2] == [
        "構成要素,式,個数",
        r"埋め込み,$50257 \times 768$,38597376",
    ]
    code, _, err = main(capsys, "tables", "block-cost", "--out", str(target))
    assert code == 2 and one_line(err) == f"proofs: {target}: exists; pass --force to replace it"
    assert target.read_text(encoding="utf-8").startswith("構成要素")
    code, _, _ = main(capsys, "tables", "block-cost", "--out", str(target), "--force")
    assert code == 0 and target.read_text(encoding="utf-8").startswith("量,値")
    latex = tmp_path / "tables.tex"
    assert main(capsys, "tables", "block-cost", "small-model-count", "--out", str(latex))[0] == 0
    text = latex.read_text(encoding="utf-8")
    assert text.startswith("% transformer-proofs ") and "% Packages: luatexja, booktabs" in text
    assert text.count(r"\caption*{") == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gpt2.csv", "tables.tex"]


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("--out", "{tmp}/t.html"),
            "t.html: --out must end in .md, .mdx, .txt, .tsv, .tex or .csv, got '.html'",
        ),
        (
            ("--format", "csv", "--out", "{tmp}/t.md"),
            "t.md: --out must end in .csv with --format csv, got '.md'",
        ),
        (("--out", "{tmp}/t.csv"), "t.csv: a CSV file holds one table; name one of scaling, "),
        (("attention-complexity", "--d", "0", "--out", "{tmp}/t.md"), "d must be a positive"),
    ],
    ids=["unknown-suffix", "suffix-of-another-format", "csv-of-several-tables", "bad-setting"],
)
def test_tables_out_refusals_write_nothing(tmp_path, capsys, args, message):
    code, _, err = main(capsys, "tables", *(a.format(tmp=tmp_path) for a in args))
    assert code == 2 and message in one_line(err)
    assert list(tmp_path.iterdir()) == []


# latex ---------------------------------------------------------------------------


def test_latex_prints_a_named_formula_as_an_equation_to_input(capsys):
    code, out, err = main(capsys, "latex", "attention-parameters")
    assert code == 0, err
    assert out.splitlines() == [
        r"% transformer-proofs " + __import__("proofs").__version__ + r": the formulas as "
        r"numbered equations (\label{eq:NAME}), to \input",
        "% Engine: any LaTeX engine (pdflatex, xelatex, lualatex)",
        "% Packages: none",
        "% attention-parameters: 命題 7.1［自己注意］ parameters of multi-head attention",
        r"\begin{equation}",
        "4d^2 + 4d",
        r"\label{eq:attention-parameters}",
        r"\end{equation}",
    ]


def test_latex_macros_are_one_newcommand_per_formula(capsys):
    code, out, _ = main(capsys, "latex", "--macros", "softmax-jacobian", "softmax-jacobian-two")
    assert code == 0
    assert r"\RequirePackage{amsmath}" in out and r"\ProvidesPackage" not in out  # no file name
    assert re.findall(r"\\newcommand\{\\(\w+)\}", out) == ["SoftmaxJacobian", "SoftmaxJacobianTwo"]


def test_latex_standalone_of_named_formulas_has_no_tables(capsys):
    code, out, _ = main(capsys, "latex", "--standalone", "--paper", "b5", "doubling-ratio")
    assert code == 0
    assert r"\documentclass[b5paper]{article}" in out and r"\begin{table}" not in out
    assert r"\usepackage{luatexja}" in out  # the title has 演習 11.4［Transformer ブロック］


@pytest.mark.parametrize(
    "args, message",
    [
        (("--paper", "b5"), "latex: --paper sets the paper of --standalone, which is not given"),
        (("--macros", "--standalone"), "argument --standalone: not allowed with argument --macros"),
        (
            ("--macros", "--out", "{tmp}/f.tex"),
            "f.tex: --out must end in .sty with --macros, got '.tex'",
        ),
        (
            ("--standalone", "--out", "{tmp}/f.json"),
            "f.json: --out must end in .tex with --standalone, got '.json'",
        ),
    ],
    ids=["paper-without-standalone", "macros-and-standalone", "macros-to-tex", "standalone-json"],
)
def test_latex_forms_refuse_what_does_not_fit_them(tmp_path, capsys, args, message):
    code, _, err = main(capsys, "latex", *(a.format(tmp=tmp_path) for a in args))
    assert code == 2 and message in one_line(err)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.early(ENTRY_POINT)
def test_latex_out_is_written_atomically_and_refused_without_force(entry_point, capsys):
    target, kept = entry_point.directory / "formulas.json", entry_point.directory / "kept.json"
    written = entry_point.result("latex-write")
    assert written.returncode == 0, written.stderr
    assert set(json.loads(target.read_text())) == {"attention-parameters", "block-parameters"}
    refused = entry_point.result("latex-refused")
    assert refused.returncode == 2 and "--force" in one_line(refused.stderr)
    assert kept.read_text() == "kept"
    assert main(capsys, "latex", "attention-parameters", "--out", str(target), "--force")[0] == 0
    assert set(json.loads(target.read_text())) == {"attention-parameters"}
    assert sorted(p.name for p in entry_point.directory.iterdir()) == ["formulas.json", "kept.json"]


def test_latex_bad_names_and_extensions_exit_2(tmp_path, capsys):
    code, _, err = main(capsys, "latex", "softmax-jacobain")
    assert code == 2 and "softmax-jacobian" in one_line(err)
    code, _, err = main(capsys, "latex", "--out", str(tmp_path / "x.txt"))
    assert code == 2 and ".tex or .json" in one_line(err)
    assert not (tmp_path / "x.txt").exists()


def test_a_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "out.tex"

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    monkeypatch.setattr(os, "link", fail)
    with pytest.raises(files.OutputError, match="disk full"):
        files.write_atomically(target, "\\alpha\n" * 1000, force=False)
    assert list(tmp_path.iterdir()) == []


def test_an_error_while_building_a_formula_writes_nothing(tmp_path, monkeypatch, capsys):
    from proofs.book import formulas

    def broken() -> None:
        raise formulas.FormulaNotProved("softmax Jacobian: derived and stated forms differ")

    from proofs.book.registry import CHAPTERS

    chapter = next(c for c in CHAPTERS.values() if "softmax-jacobian" in c.formulas)
    monkeypatch.setitem(
        chapter.formulas, "softmax-jacobian", formulas.Formula("softmax-jacobian", "x", broken)
    )
    code, _, err = main(capsys, "latex", "--out", str(tmp_path / "all.tex"))
    assert code == 1
    assert "softmax Jacobian: derived and stated forms differ" in err
    assert list(tmp_path.iterdir()) == []


# audit ---------------------------------------------------------------------------


def block_chapter() -> Path:
    found = [p for p in CHAPTERS if p.name.startswith("002_")]
    if not found:
        pytest.skip("../shared/seeds is not here: no chapter to audit")
    return found[0]


def both_chapters() -> list[str]:
    if len(CHAPTERS) < 2:
        pytest.skip("../shared/seeds is not here: no chapters to audit")
    return [str(path) for path in CHAPTERS]


@pytest.mark.early(ENTRY_POINT)
def test_audit_of_both_chapters_forked_is_the_audit_one_by_one(entry_point):
    both_chapters()
    forked, one_by_one = entry_point.result("audit-forked"), entry_point.result("audit-one-by-one")
    assert (forked.returncode, one_by_one.returncode) == (1, 1)  # the block chapter's slip
    timed = re.compile(r"passed in \d+\.\d\d s")
    assert timed.search(one_by_one.stdout)
    assert timed.sub("", forked.stdout) == timed.sub("", one_by_one.stdout)
    assert [r["chapter"] for r in json.loads(forked.stdout)] == [
        "self-attention",
        "transformer-block",
    ]


@pytest.mark.early(ENTRY_POINT)
def test_audit_through_the_entry_point_exits_1_on_the_block_chapters_slip(entry_point):
    block_chapter()
    result = entry_point.result("audit")
    (report,) = json.loads(result.stdout)
    assert report["chapter"] == "transformer-block" and report["form"] == "rendered text"
    mismatched = [f for f in report["findings"] if f["status"] == "mismatched"]
    assert [(f["section"], f["ref"], f["line"]) for f in mismatched] == [
        ("check", "ex-layer-norm-scale", 114),
        ("claim", "ex-layer-norm-scale", 114),
    ]  # the example's check, and the claim that states the relation, its one verdict
    assert all("1.1428" in f["detail"] and "1.1429" in f["detail"] for f in mismatched)
    assert result.returncode == 1


def test_audit_of_both_chapters_reports_each(capsys):
    if len(CHAPTERS) != 2:
        pytest.skip("../shared/seeds is not here: no chapter to audit")
    code, out, _ = main(capsys, "audit", *map(str, CHAPTERS), "--verbose")
    assert out.count("audit of ") == 2
    assert "(MDX, chapter self-attention)" in out
    assert "(rendered text, chapter transformer-block)" in out
    mismatched = [int(k) for k in re.findall(r"^mismatched \((\d+)\):", out, flags=re.M)]
    assert mismatched == [0, 2] and code == 1  # 1.1428: its check and its claim
    assert "[check] 例 3.2 ex-layer-norm-scale  —  the chapter prints 1.1428" in out


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("empty.mdx", "", r"empty.mdx:1: empty file"),
        ("plain.txt", "# Title\n\nNo elements here.\n", r"plain.txt:1: neither form"),
        (
            "columns.mdx",
            '# T\n\n<Proposition id="prop-softmax-basic">\n\n| a | b |\n|---|---|\n| 1 | 2 | 3 |\n'
            "\n</Proposition>\n",
            r"columns.mdx:7: table row has 3 cells, its header has 2",
        ),
    ],
    ids=["empty", "neither-form", "columns"],
)
def test_audit_bad_input_exits_2_naming_file_and_line(tmp_path, capsys, name, content, message):
    if "prop-softmax" in content and "prop-softmax-basic" not in load_all():
        pytest.skip("prop-softmax-basic is not registered yet")
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    code, _, err = main(capsys, "audit", str(path))
    assert code == 2
    assert message in one_line(err)
    assert path.read_text(encoding="utf-8") == content


def test_audit_reports_an_unclosed_element_as_a_structure_mismatch_at_its_line(tmp_path, capsys):
    path = tmp_path / "unclosed.mdx"
    path.write_text('# T\n\n<Proposition id="prop-softmax-basic" title="x">\n', encoding="utf-8")
    code, out, _ = main(capsys, "audit", str(path), "--json")
    assert code == 1
    (report,) = json.loads(out)
    assert [
        (f["line"], f["detail"]) for f in report["findings"] if f["section"] == "structure"
    ] == [(3, "<Proposition> is never closed with </Proposition>")]


def test_audit_reports_an_unregistered_id_as_a_mismatch_with_the_nearest_ids(tmp_path, capsys):
    path = tmp_path / "unknown.mdx"
    path.write_text(
        '# T\n\n<Proposition id="prop-softmax-jacobain" title="x">\n\nS.\n\n</Proposition>\n'
        '<Proposition id="prop-softmax-basic" title="softmax の基本性質">\n\nS.\n\n'
        "</Proposition>\n",
        encoding="utf-8",
    )
    code, out, _ = main(capsys, "audit", str(path), "--verbose")
    assert code == 1
    assert (
        "line    3  ELT004 [element] 命題 0.1 prop-softmax-jacobain  —  element id "
        "'prop-softmax-jacobain' is not registered (nearest registered: prop-softmax-jacobian"
    ) in out


@pytest.mark.early(ENTRY_POINT)
def test_audit_of_a_missing_file_exits_2_through_the_entry_point(entry_point):
    result = entry_point.result("audit-missing")
    absent = entry_point.directory / "absent.mdx"
    assert result.returncode == 2
    assert one_line(result.stderr) == f"proofs: {absent}: no such file"


# the formulas behind `latex` -------------------------------------------------------


def test_every_registered_formula_prints():
    from proofs.book.registry import formulas

    FORMULAS = formulas()

    for formula in FORMULAS.values():
        assert formula.latex().strip(), formula.name


CHAPTER_TEX = {  # the chapters' own TeX for these formulas
    "softmax-jacobian": r"\mathrm{diag}(\boldsymbol{\sigma})"
    r" - \boldsymbol{\sigma}\boldsymbol{\sigma}^{\mathsf{T}}",
    "softmax-jacobian-two": r"s(1-s)\begin{pmatrix} 1 & -1 \\ -1 & 1 \end{pmatrix}",
    "attention-parameters": "4d^2 + 4d",
    "attention-multiplications": "4nd^2 + 2n^2 d",
    "block-multiplications": "12nd^2 + 2n^2d",
    "model-parameters": r"|V|d + L_{\mathrm{ctx}}d"
    r" + L(4d^2 + 4d + 2d\,d_{\mathrm{ff}} + d_{\mathrm{ff}} + d + 4d) + 2d",
    "gelu-first-derivative": r"\Phi(t) + t\,\varphi(t)",
    "gelu-second-derivative": r"(2 - t^2)\,\varphi(t)",
}


@pytest.mark.parametrize("name", list(CHAPTER_TEX))
def test_formulas_print_in_the_chapters_notation(name):
    from proofs.book.registry import formulas

    FORMULAS = formulas()
    from symbolic.printing import normalise_tex

    assert normalise_tex(FORMULAS[name].latex()) == normalise_tex(CHAPTER_TEX[name])


def test_a_formula_whose_derivation_fails_is_not_exported(monkeypatch):
    import sympy

    from proofs.book.formulas import FormulaNotProved
    from proofs.book.registry import formulas

    FORMULAS = formulas()
    from symbolic import softmax

    derive = softmax.derive_softmax_jacobian_general

    def without_sigma_sigma_t():
        return derive(stated=lambda s, i, j: s[i] * sympy.KroneckerDelta(i, j))

    monkeypatch.setattr(softmax, "derive_softmax_jacobian_general", without_sigma_sigma_t)
    with pytest.raises(FormulaNotProved, match="softmax Jacobian"):
        FORMULAS["softmax-jacobian"].latex()
