"""The command examples of README.md and docs/*.md, run: a page cannot show a command
the package no longer has, nor an output it no longer prints.

What counts as an example, and how it is judged:

- A fenced block marked ```console is a transcript. Each line starting with "$ " is a
  command; the lines after it, up to the next "$ " or the end of the block, are its
  output as a user sees it: standard output, then standard error. The commands of one
  page run in order, in one fresh directory laid out as the repository's root (its
  entries are links to the checkout's, and ../shared/seeds is the chapters' folder), so
  that paths read as in a checkout while the files a transcript writes (block.txt,
  gpt2.csv, …) stay in the temporary directory. `python -m proofs …` (or `proofs …`)
  runs through proofs.cli.main in tests/command_worker.py, in that directory and with
  the variables the line sets (this process never moves nor changes its environment);
  `echo $?` prints the exit code of the command before it; any other command (cp, sed,
  cat, cmp) runs in bash, with `python` the interpreter running the tests and LC_ALL=C
  (so that `sort` orders bytes).
- A fenced block marked ```sh holds commands too long to run here (the whole verify, the
  thorough profile, the benchmarks, the test suite). It is checked for syntax only:
  `bash -n` on the block, every `python -m proofs …` parsed by
  proofs.cli.arguments.parser() (so an option that no longer exists fails the test) and
  its ids, tables and formulas looked up in the registry, every `python -m benchmarks.NAME`
  a file of benchmarks/. A `python -m proofs …` written inline
  in the prose is parsed the same way.
- No other fenced block may hold a line starting with "$ ": it would be a transcript that
  nothing runs.
- In the prose, every link names a file (and heading) that exists, and so does every
  repository path (`proofs/audit/deciding/readings.py`), test (`tests/x.py::test_y`) and dotted name
  (`proofs.book.registry`, `numeric.attention.causal_mask(4)`) written as code, so that a
  page cannot send its reader to a module that has moved. The README keeps its first two
  lines, the commands .ci/run runs, and stays short.

Outputs are compared line by line, exactly, after these normalisations of both the
expected and the actual text, each of something that varies from run to run:

1. a time in seconds ("0.91 s", "in 8.8 s"): its number becomes <t>;
2. the Hypothesis profile of verify's summary line ("(Hypothesis profile ci)"): the
   commands run under the suite's own $HYPOTHESIS_PROFILE, which the page cannot know;
3. verify's progress lines on standard error ("[1/2] prop-softmax-jacobian …"), which a
   terminal overwrites as the run goes and erases at its end, are dropped;
4. spaces at the end of a line, and blank lines at the end of an output, are dropped.

A line of an expected output that is "…" alone stands for any number of lines, so that a
long report can show the lines that matter without its tallies.

`python -m tests.test_docs [FILE …]`, from the repository root, rewrites the outputs that
no longer match with what the commands print now (an elided output comes back whole:
elide it again by hand).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_COMMANDS = (
    "pip install . && python -m proofs verify",
    "pip install '.[test]' && python -m pytest",
)
README_LINES = 2 + 200  # the two commands, then at most a page and a half for its readers

ELLIPSIS = "…"
FENCE = re.compile(r"^(`{3,}|~{3,})\s*([^`\s]*)")
INLINE = re.compile(r"`(python -m proofs [^`]+)`")  # the program alone is a name
LINK = re.compile(r"\]\(([^)\s]+)\)|\bsrc=\"([^\"]+)\"")
REFERENCE = re.compile(r"`([^`\s]+)`")
PATH_ROOTS = (
    "proofs/",
    "numeric/",
    "symbolic/",
    "spec/",
    "cache/",
    "tests/",
    "benchmarks/",
    "docs/",
    ".ci/",
)
DOTTED = re.compile(r"((?:proofs|numeric|symbolic|spec|cache)(?:\.\w+)+)(?:\(|$)")
TIME = re.compile(r"\b\d+(?:\.\d+)? s\b")
PROFILE = re.compile(r"\(Hypothesis profile \w+\)")
PROGRESS = re.compile(r"^\[\d+/\d+\] \S+ …$")
ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
SHELL_WORDS = {"do", "then", "else", "time", "!", "{", "}"}


# Reading a page into records ------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """A fenced block: its language (the first word after the fence) and its lines."""

    path: str
    line: int  # of the opening fence, 1-based
    language: str
    lines: tuple[str, ...]

    def where(self, offset: int = 0) -> str:
        """path:line of the block's line `offset` (0: the first line inside the fence)."""
        return f"{self.path}:{self.line + 1 + offset}"


@dataclass(frozen=True)
class Command:
    """One `$ ` line of a transcript and the output it shows."""

    path: str
    line: int  # of the `$ ` line, 1-based
    text: str  # without the "$ "
    expected: tuple[str, ...]


def blocks(text: str, path: str) -> list[Block]:
    """The fenced blocks of a Markdown text, in order."""
    found: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence, language = opening.groups()
        end = i + 1
        while end < len(lines) and not _closes(lines[end], fence):
            end += 1
        found.append(Block(path, i + 1, language, tuple(lines[i + 1 : end])))
        i = end + 1
    return found


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def commands(block: Block) -> list[Command]:
    """The commands of a console block, each with the lines of output that follow it;
    ValueError when output stands before the first command."""
    found: list[tuple[int, str, list[str]]] = []
    for offset, line in enumerate(block.lines):
        if line.startswith("$ "):
            found.append((block.line + 1 + offset, line[2:].strip(), []))
        elif found:
            found[-1][2].append(line)
        elif line.strip():
            raise ValueError(f"{block.where(offset)}: output before any command")
    return [Command(block.path, line, text, tuple(out)) for line, text, out in found]


def inline_commands(text: str, path: str) -> list[tuple[str, str]]:
    """(path:line, command) of each `python -m proofs …` written inline outside the
    fenced blocks."""
    return [
        (f"{path}:{number}", m.group(1))
        for number, line in _prose(text)
        for m in INLINE.finditer(line)
    ]


def _prose(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of the text outside its fenced blocks."""
    inside = None
    for number, line in enumerate(text.splitlines(), 1):
        opening = FENCE.match(line)
        if inside is None and opening:
            inside = opening.group(1)
        elif inside is not None:
            if _closes(line, inside):
                inside = None
        else:
            yield number, line


# Normalising and matching outputs -------------------------------------------------------


def normalise(lines: list[str] | tuple[str, ...]) -> list[str]:
    """The normalisations of the module's docstring, applied to one output."""
    out = [
        PROFILE.sub("(Hypothesis profile <profile>)", TIME.sub("<t> s", line)).rstrip()
        for line in lines
    ]
    out = [line for line in out if not PROGRESS.match(line)]
    while out and not out[-1]:
        out.pop()
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the actual lines are the expected ones, a "…" line standing for any run
    of lines (each piece between two "…" found in order, as early as it stands)."""
    pieces: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == ELLIPSIS:
            pieces.append([])
        else:
            pieces[-1].append(line)
    if len(pieces) == 1:
        return expected == actual
    first, *middle, last = pieces
    if (
        len(actual) < len(first) + len(last)
        or actual[: len(first)] != first
        or actual[len(actual) - len(last) :] != last
    ):
        return False
    rest = actual[len(first) : len(actual) - len(last)]
    for piece in middle:
        at = next(
            (i for i in range(len(rest) - len(piece) + 1) if rest[i : i + len(piece)] == piece),
            None,
        )
        if at is None:
            return False
        rest = rest[at + len(piece) :]
    return True


# Running transcripts --------------------------------------------------------------------


@dataclass(frozen=True)
class Mismatch:
    """A command whose output is not the one its page shows."""

    command: Command
    actual: tuple[str, ...]  # as printed, progress lines and trailing spaces dropped

    def __str__(self) -> str:
        diff = difflib.unified_diff(
            normalise(self.command.expected),
            normalise(self.actual),
            "shown",
            "printed",
            lineterm="",
            n=2,
        )
        return f"{self.command.path}:{self.command.line}: $ {self.command.text}\n" + "\n".join(diff)


def layout(directory: Path) -> Path:
    """A directory laid out as a checkout's root beside ../shared/seeds: links to the
    repository's entries, and to the chapters' folder when there is one."""
    main = directory / "main"
    main.mkdir()
    for entry in ROOT.iterdir():
        if not entry.name.startswith("."):
            (main / entry.name).symlink_to(entry)
    if SEEDS.is_dir():
        (directory / "shared").mkdir()
        (directory / "shared" / "seeds").symlink_to(SEEDS)
    return main


def _words(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return list(lexer)


def _is_operator(word: str) -> bool:
    return bool(word) and set(word) <= set("();<>|&")


class Session:
    """The commands of one page, run in order in `directory` (made by `layout`)."""

    def __init__(self, directory: Path, scratch: Path) -> None:
        self.directory = directory
        self.scratch = scratch  # Hypothesis' files of the in-process commands
        self.code = 0

    def run(self, text: str) -> list[str]:
        """The lines a user sees for one command: standard output, then standard error."""
        if text.strip() == "echo $?":
            return [str(self.code)]
        words = _words(text)
        assignments = {}
        while words and ASSIGNMENT.match(words[0]):
            name, _, value = words.pop(0).partition("=")
            assignments[name] = value
        if words[:3] == ["python", "-m", "proofs"] or words[:1] == ["proofs"]:
            if any(_is_operator(w) for w in words):
                raise ValueError(
                    f"{text!r}: a proofs command with shell operators cannot run "
                    "in-process; show it in a sh block"
                )
            return self._proofs(words[3 if words[0] == "python" else 1 :], assignments)
        return self._shell(text)

    def _proofs(self, args: list[str], assignments: dict[str, str]) -> list[str]:
        from commands import run_in  # tests/ is on the path (pytest's, or __main__'s)

        variables = {"HYPOTHESIS_STORAGE_DIRECTORY": str(self.scratch), **assignments}
        self.code, out, err = run_in(self.directory, *args, environ=variables)
        return out.splitlines() + err.splitlines()

    def _shell(self, text: str) -> list[str]:
        env = {
            **os.environ,
            "LC_ALL": "C",  # sort and ls order bytes, whatever the locale
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        }
        done = subprocess.run(
            ["bash", "-c", text],
            cwd=self.directory,
            env=env,
            capture_output=True,
            encoding="utf-8",
            timeout=120,
        )
        self.code = done.returncode
        return done.stdout.splitlines() + done.stderr.splitlines()


def run_transcripts(text: str, path: str, directory: Path) -> list[Mismatch]:
    """Run every console block of a page in order; the commands whose output differs."""
    session = Session(layout(directory), directory / "hypothesis")
    mismatches = []
    for block in blocks(text, path):
        if block.language != "console":
            continue
        for command in commands(block):
            actual = [line.rstrip() for line in session.run(command.text)]
            actual = [line for line in actual if not PROGRESS.match(line)]
            if not matches(normalise(command.expected), normalise(actual)):
                mismatches.append(Mismatch(command, tuple(actual)))
    return mismatches


# Checking the commands that are not run ------------------------------------------------


def simple_commands(line: str) -> list[list[str]]:
    """The simple commands of a shell line: split at ; && || | & and parentheses, with
    redirections and their targets, leading VAR=value, `env` and its options, and shell
    keywords dropped."""
    out: list[list[str]] = [[]]
    words = iter(_words(line))
    for word in words:
        if _is_operator(word) and set(word) & set("<>"):
            next(words, None)  # the file of a redirection
        elif _is_operator(word):
            out.append([])
        else:
            out[-1].append(word)
    found = []
    for command in out:
        while command and (ASSIGNMENT.match(command[0]) or command[0] in SHELL_WORDS):
            command = command[1:]
        if command[:1] == ["env"]:
            command = command[1:]
            while command and (command[0].startswith("-") or ASSIGNMENT.match(command[0])):
                command = command[2:] if command[0] == "-u" else command[1:]
        if command:
            found.append(command)
    return found


def command_problem(words: list[str]) -> str | None:
    """Why a command of a sh block or of the prose would not run as written, or None."""
    from proofs.cli.arguments import parser

    if words[:3] == ["python", "-m", "proofs"] or words[:1] == ["proofs"]:
        args = words[3:] if words[0] == "python" else words[1:]
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                parsed = parser().parse_args(args)
        except SystemExit as exit_:
            return (
                err.getvalue().strip() or f"the parser exits {exit_.code}" if exit_.code else None
            )
        return _unknown_names(parsed)
    elif words[:2] == ["python", "-m"] and len(words) > 2 and words[2].startswith("benchmarks."):
        module = ROOT / (words[2].replace(".", "/") + ".py")
        if not module.is_file():
            return f"no module {words[2]} ({module.relative_to(ROOT)} does not exist)"
    return None


def _unknown_names(parsed: argparse.Namespace) -> str | None:
    """The element, table or formula a parsed command names and the registry lacks."""
    from proofs.book import registry

    if parsed.command == "verify":
        unknown = [s for s in parsed.selectors if not registry.find(s)]
    elif parsed.command in ("tables", "latex"):
        known = registry.tables() if parsed.command == "tables" else registry.formulas()
        unknown = [name for name in parsed.names if name not in known]
    else:
        return None
    return f"{parsed.command}: no {', '.join(unknown)} registered" if unknown else None


def logical_lines(block: Block) -> list[tuple[int, str]]:
    """(offset, line) of a sh block, a line ending in a backslash joined to the next."""
    found: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for offset, line in enumerate(block.lines):
        if pending is not None:
            line, offset = pending[1] + " " + line.strip(), pending[0]
            pending = None
        if line.rstrip().endswith("\\"):
            pending = (offset, line.rstrip()[:-1])
        elif line.strip():
            found.append((offset, line))
    return found


def sh_problems(block: Block) -> list[str]:
    """What keeps a sh block from running as written: its syntax (`bash -n`), an option
    or command the command line does not have, a benchmark that does not exist."""
    problems = []
    done = subprocess.run(
        ["bash", "-n"], input="\n".join(block.lines) + "\n", capture_output=True, encoding="utf-8"
    )
    if done.returncode:
        problems.append(f"{block.where()}: bash -n: {done.stderr.strip()}")
    for offset, line in logical_lines(block):
        try:
            words_list = simple_commands(line)
        except ValueError as exc:  # an unclosed quote
            problems.append(f"{block.where(offset)}: {exc}: {line}")
            continue
        for words in words_list:
            problem = command_problem(words)
            if problem:
                problems.append(f"{block.where(offset)}: {shlex.join(words)}\n    {problem}")
    return problems


def page_problems(text: str, path: str) -> list[str]:
    """Everything on a page that is not run but must still hold: its sh blocks, its
    inline commands, no transcript outside a console block."""
    problems = []
    for block in blocks(text, path):
        if block.language == "sh":
            problems += sh_problems(block)
        elif block.language != "console":
            problems += [
                f"{block.where(i)}: a `$ ` line outside a console block: {line}"
                for i, line in enumerate(block.lines)
                if line.startswith("$ ")
            ]
    for where, command in inline_commands(text, path):
        for words in simple_commands(command):
            problem = command_problem(words)
            if problem:
                problems.append(f"{where}: {command}\n    {problem}")
    return problems


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of a page: lower case, punctuation but - and
    _ dropped, spaces as -."""
    return {
        re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for _, line in _prose(page.read_text(encoding="utf-8"))
        if line.startswith("#")
    }


def resolves(name: str) -> bool:
    """Whether a dotted name is a module, or an attribute of one, of this package."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[i:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def reference_problems(text: str, page: Path) -> list[str]:
    """The links of a page's prose to files or headings that do not exist, and the
    repository paths (`proofs/audit/deciding/readings.py`), tests (`tests/x.py::test_y`) and dotted
    names (`proofs.book.registry`, `numeric.attention.causal_mask(4)`) that it names in
    code spans and that do not exist."""
    problems = []
    for number, line in _prose(text):
        where = f"{page.name}:{number}"
        for match in LINK.finditer(line):
            target, _, anchor = (match.group(1) or match.group(2)).partition("#")
            if "://" in target:
                continue
            linked = (page.parent / target) if target else page
            if not linked.exists():
                problems.append(f"{where}: no file {target}")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                problems.append(f"{where}: no heading #{anchor} in {linked.name}")
        for span in REFERENCE.findall(line):
            path, _, test = span.partition("::")
            dotted = DOTTED.match(span)
            if test:
                source = ROOT / path
                if not source.is_file() or not re.search(
                    rf"def {re.escape(test)}\b", source.read_text(encoding="utf-8")
                ):
                    problems.append(f"{where}: no test {span}")
            elif span.startswith(PATH_ROOTS) and not re.search(r"[<>*{}]|[A-Z]{3}", span):
                if not (ROOT / span).exists():
                    problems.append(f"{where}: no file or folder {span}")
            elif dotted and not resolves(dotted.group(1)):
                problems.append(f"{where}: no module or attribute {dotted.group(1)}")
    return problems


# The tests -------------------------------------------------------------------------------


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_the_transcripts_print_what_the_page_shows(page, tmp_path):
    text = page.read_text(encoding="utf-8")
    if "shared/seeds" in text and not SEEDS.is_dir():
        pytest.skip(f"the chapters are not in {SEEDS}")
    mismatches = run_transcripts(text, _name(page), tmp_path)
    assert not mismatches, "\n\n".join(map(str, mismatches))


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_the_commands_not_run_are_commands_the_package_has(page):
    problems = page_problems(page.read_text(encoding="utf-8"), _name(page))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_link_and_every_name_in_the_prose_is_of_something_that_exists(page):
    problems = reference_problems(page.read_text(encoding="utf-8"), page)
    assert not problems, "\n".join(problems)


def test_the_readme_opens_with_the_two_commands_ci_runs_and_stays_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert tuple(lines[:2]) == README_COMMANDS
    assert len(lines) <= README_LINES, f"README.md has {len(lines)} lines"


# The collector itself, on small pages written for these tests

LISTING = """\
# a page

```console
$ python -m proofs tables attention-parameters --format listing
params: 288 = 4d^2+4d = 288
$ echo $?
0
```
"""


def test_the_parser_reads_blocks_commands_and_their_outputs():
    text = LISTING + (
        "\n```sh\npython -m proofs verify  # all\n```\n\nSee `python -m proofs verify`.\n"
    )
    found = blocks(text, "p.md")
    assert [(b.line, b.language, len(b.lines)) for b in found] == [(3, "console", 4), (10, "sh", 1)]
    listing, status = commands(found[0])
    assert (listing.line, listing.text) == (
        4,
        "python -m proofs tables attention-parameters --format listing",
    )
    assert listing.expected == ("params: 288 = 4d^2+4d = 288",)
    assert (status.line, status.text, status.expected) == (6, "echo $?", ("0",))
    assert inline_commands(text, "p.md") == [("p.md:14", "python -m proofs verify")]
    with pytest.raises(ValueError, match="p.md:2: output before any command"):
        commands(Block("p.md", 1, "console", ("orphan", "$ true")))


def test_a_transcript_as_printed_passes(tmp_path):
    assert run_transcripts(LISTING, "p.md", tmp_path) == []


def test_a_transcript_with_one_output_line_changed_fails_at_its_command(tmp_path):
    wrong = LISTING.replace("= 288\n", "= 289\n")
    (mismatch,) = run_transcripts(wrong, "p.md", tmp_path)
    assert mismatch.command.line == 4
    assert "-params: 288 = 4d^2+4d = 289\n+params: 288 = 4d^2+4d = 288" in str(mismatch)


def test_a_wrong_exit_code_fails(tmp_path):
    wrong = LISTING.replace("$ echo $?\n0", "$ echo $?\n1")
    (mismatch,) = run_transcripts(wrong, "p.md", tmp_path)
    assert mismatch.command.text == "echo $?"


def test_a_sh_block_naming_an_option_the_command_line_lacks_fails():
    page = "```sh\npython -m proofs verify --profile ci\npython -m proofs verify --fast\n```\n"
    (problem,) = page_problems(page, "p.md")
    assert problem.startswith("p.md:3: python -m proofs verify --fast")
    assert "unrecognized arguments: --fast" in problem


def test_a_sh_block_is_checked_after_its_shell_words():
    page = (
        "```sh\n"
        "HYPOTHESIS_PROFILE=ci python -m proofs verify --json > report.json  # a comment\n"
        "python -m proofs latex --out book.tex --standalone && lualatex book.tex\n"
        "env -u OPENBLAS_CORETYPE python -m benchmarks.forward_speed --repeats 3\n"
        "python -m proofs tables \\\n    --heads 2 --format html\n"
        "python -m benchmarks.no_such_benchmark\n"
        "for s in 1 2; do python -m proofs verify --jobz 1; done\n"
        "echo 'unclosed\n"
        "python -m proofs verify prop-softmax-jacobian prop-sofmax-jacobian '命題 3.3'\n"
        "python -m proofs tables gpt2-parameters gpt3-parameters && proofs latex doubling\n"
        "```\n"
    )
    problems = page_problems(page, "p.md")
    assert [p.split(":")[1] for p in problems] == ["2", "5", "7", "8", "9", "10", "11", "11"]
    assert "bash -n" in problems[0] and "--format html" in problems[1]
    assert "benchmarks/no_such_benchmark.py does not exist" in problems[2]
    assert "--jobz" in problems[3] and "No closing quotation" in problems[4]
    assert problems[5].endswith("verify: no prop-sofmax-jacobian registered")
    assert problems[6].endswith("tables: no gpt3-parameters registered")
    assert problems[7].endswith("latex: no doubling registered")


def test_an_inline_command_and_an_unmarked_transcript_are_checked_too():
    page = "Run `python -m proofs audit --quite c.mdx`.\n\n```\n$ python -m proofs verify\n```\n"
    problems = page_problems(page, "p.md")
    assert problems[0].startswith("p.md:4: a `$ ` line outside a console block")
    assert problems[1].startswith("p.md:1: python -m proofs audit --quite c.mdx")


def test_a_stale_name_link_or_heading_in_the_prose_is_found(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "# A page\n\n"
        "See [the page](#a-page), [a heading](#no-such-heading), [a file](absent.md).\n"
        "`proofs/book/registry.py` and `proofs/registry.py`, `proofs.book.registry.find` and\n"
        "`proofs.registry.find`, `numeric.attention.causal_mask(4)` and\n"
        "`numeric.attention.mask(4)`,\n"
        "`tests/test_docs.py::test_the_normalisations_touch_only_what_varies_between_runs`\n"
        "and `tests/test_docs.py::test_nothing`; `proofs/chapters/<chapter>/figures.py`.\n"
        "```text\n`proofs.tables.gpt2_parameter_table` as a command printed it\n```\n",
        encoding="utf-8",
    )
    assert reference_problems(page.read_text(encoding="utf-8"), page) == [
        "p.md:3: no heading #no-such-heading in p.md",
        "p.md:3: no file absent.md",
        "p.md:4: no file or folder proofs/registry.py",
        "p.md:5: no module or attribute proofs.registry.find",
        "p.md:6: no module or attribute numeric.attention.mask",
        "p.md:8: no test tests/test_docs.py::test_nothing",
    ]


def test_the_normalisations_touch_only_what_varies_between_runs():
    printed = [
        "passed  0.91 s  ",
        "[1/2] prop-softmax-jacobian …",
        "",
        "5 checks: … 1 finding in 8.8 s (Hypothesis profile dev)",
        "",
        "",
    ]
    assert normalise(printed) == [
        "passed  <t> s",
        "",
        "5 checks: … 1 finding in <t> s (Hypothesis profile <profile>)",
    ]
    assert normalise(["count: 568 s1", "12 slips"]) == ["count: 568 s1", "12 slips"]


@pytest.mark.parametrize(
    ("expected", "holds"),
    [
        (["a", "…", "d"], True),
        (["…", "c", "d"], True),
        (["a", "…"], True),
        (["a", "…", "c", "…", "d"], True),
        (["a", "…", "c", "…"], True),
        (["a", "…", "x"], False),
        (["b", "…"], False),
        (["a", "…", "c", "…", "b"], False),
        (["a", "b", "c", "d", "…", "d"], False),
        (["a", "b", "c"], False),
    ],
)
def test_an_ellipsis_line_stands_for_any_lines_and_nothing_else(expected, holds):
    assert matches(expected, ["a", "b", "c", "d"]) is holds


# Rewriting the outputs ------------------------------------------------------------------


def rewrite(page: Path) -> int:
    """Rewrite the outputs of the page's transcripts that no longer match; how many."""
    text = page.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as directory:
        mismatches = run_transcripts(text, _name(page), Path(directory))
    lines = text.splitlines()
    for mismatch in sorted(mismatches, key=lambda m: -m.command.line):
        start = mismatch.command.line  # the output's first line, 0-based
        lines[start : start + len(mismatch.command.expected)] = list(mismatch.actual)
    if mismatches:
        page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(mismatches)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "tests"))  # commands, early and places, as under pytest
    chosen = [Path(a).resolve() for a in sys.argv[1:]] or PAGES
    for page in chosen:
        print(f"{_name(page)}: {rewrite(page)} outputs rewritten")
