"""The print edition (`latex --chapter`, `--book`): a chapter of either form becomes the same
LaTeX, every element an environment under its number and title with its check's mark, every
piece of text escaped; and the files compile with LuaLaTeX without an error, a missing
character, an overfull box or an undefined reference, every element and table in the PDF.

The compiling tests are marked slow (two LuaLaTeX runs of a seed chapter take 6 to 13 s, of
a sample 3 s; about twenty seconds together): their files are written and compiled in the
background once collection is done (tests/early.py), while other tests run. Without lualatex
or pdftotext they are skipped, saying what to install (.ci/run installs both)."""

from __future__ import annotations

import atexit
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import early
import pytest
from places import CORPUS, ROOT, SAMPLES, SEEDS

from proofs import cli
from proofs.book.registry import CheckRun, load_all
from proofs.publish.edition import marks as marks_module
from proofs.publish.edition.blocks import mark_tex, verbatim
from proofs.publish.edition.files import LUALATEX, RESTRICTIONS, Printed, book, standalone
from proofs.publish.edition.marks import Mark, report_marks, run_marks
from proofs.publish.edition.parts import part_of
from proofs.publish.edition.tables import table_tex
from proofs.publish.edition.text import escape, inline_math
from proofs.reader import parse, read_chapter
from proofs.reader.records import ID_PREFIXES

SEED_FILES = {
    "self-attention": SEEDS / "000_ce182fefa314a82b.txt",
    "transformer-block": SEEDS / "002_1f7cf506cffefce0.txt",
}
needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is not here")
PDFTOTEXT = shutil.which("pdftotext")
needs_tex = pytest.mark.skipif(
    shutil.which(LUALATEX[0]) is None or PDFTOTEXT is None,
    reason="lualatex or pdftotext is not installed (apt-get install texlive-luatex "
    "texlive-lang-japanese texlive-latex-recommended texlive-latex-extra poppler-utils)",
)
OVERFULL_LIMIT = 1.0  # pt
COMPILES = "the print edition's compiles"

HOSTILE_TITLE = r"100% \ {x} $ & y_1 #2 ~ ^"
HOSTILE_MDX = f"""# 敵対的な章：{HOSTILE_TITLE}

## 1. 記号 \\section{{x}} と 50% の節

本文に 100% と \\textbf{{x}} と {{中括弧}} と ~ ^ # & _ $ と \\\\ と \\end{{document}}。

<Proposition id="prop-hostile" title="{HOSTILE_TITLE}">

$a \\% b$ と $\\end{{document}}$ と <Ref to="prop-hostile" /> と [リンク](https://example.com/a_b#c%20d)。

</Proposition>

<Proof of="prop-hostile">

\\end{{bookproof}} のあと {{。

</Proof>

| 列 % | 列 & | 列 \\ |
|---|---|---|
| [1] {{a}} | $5 | #_~^ [x](https://example.com/~u_v#w) |

```python
print("\\end{{bookcode}} 100% {{x}}")  # 日本語の注釈 \\ ~
```

```text
100% {{x}} \\end{{document}}
```
"""


def report(failing: str = "", finding: str = "") -> dict:
    """A report shaped as verify --json writes one, for every registered element: passed,
    the element `failing` failed and `finding` passed with a finding; no check runs."""
    elements = []
    for e in load_all().values():
        result = "failed" if e.id == failing else "passed"
        elements.append(
            {
                "id": e.id,
                "number": e.number,
                "title": e.title,
                "chapter": e.chapter,
                "kind": e.kind,
                "methods": list(e.methods),
                "result": result,
                "message": "the Jacobian lacks σσᵀ" if result == "failed" else "",
                "findings": ["the chapter prints 1.1428 for 8/7"] if e.id == finding else [],
            }
        )
    return {"elements": elements}


# Escaping and formulas -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tex"),
    [
        ("100%", r"100\%"),
        ("a_b & c#d", r"a\_b \& c\#d"),
        ("{x}", r"\{x\}"),
        ("\\ ~ ^", r"\textbackslash{} \textasciitilde{} \textasciicircum{}"),
        ("$5", r"\$5"),
        ("a -- b", "a -{}- b"),
        ("J₃ᵀ", r"J\textsubscript{3}\textsuperscript{T}"),
        ("証明 ∎", r"証明 \ensuremath{\blacksquare}"),
    ],
)
def test_escape_leaves_no_character_latex_treats_specially(text, tex):
    assert escape(text) == tex


@pytest.mark.parametrize(
    ("formula", "why"),
    [
        (r"J(\boldsymbol{z}) = \mathrm{diag}(\boldsymbol{\sigma})", None),
        (r"\begin{pmatrix} 1 & -1 \\ -1 & 1 \end{pmatrix}", None),
        (r"\sigma^{U", "{ is not closed"),
        (r"x \end{document}", r"\end closes no environment"),
        (r"\begin{aligned} a \end{pmatrix}", r"\begin{aligned} is closed by another \end"),
        (r"a \par b", r"\par is not a command of the edition's math"),
        (r"\def\x{1}", r"\def is not a command of the edition's math"),
    ],
)
def test_a_formula_that_cannot_be_set_as_written_is_printed_as_text(formula, why):
    told = []
    tex = inline_math(formula, lambda piece, reason: told.append((piece, reason)))
    assert tex == (f"${formula}$" if why is None else escape(f"${formula}$"))
    assert told == ([] if why is None else [(f"${formula}$", why)])


def test_a_bare_percent_or_hash_in_a_formula_is_escaped():
    assert inline_math("23.5% #") == r"$23.5\% \#$"


# The chapter's structure ------------------------------------------------------------------


def body(text: str) -> str:
    return text.split(r"\begin{document}", 1)[1]


def printed(path: Path | str, marks: dict | None = None) -> Printed:
    part = part_of(read_chapter(path), 1)
    return Printed(part, marks or {}, {}, "test")


def test_the_two_forms_of_the_sample_become_the_same_latex():
    """Both files of tests/samples print the same chapter: the same elements, proofs,
    table and listing; only what the forms say differently differs (the external
    reference, the closing line the rendered text adds)."""
    mdx = body(standalone(printed(SAMPLES / "chapter.mdx"))).splitlines()
    text = body(standalone(printed(SAMPLES / "chapter.txt"))).splitlines()
    differ = [(a, b) for a, b in zip(mdx, text, strict=False) if a != b]
    assert differ == [
        (r"$f(2) = 3$ です（sample\#def-other）。", r"$f(2) = 3$ です（定義 3.1［別の章］）。"),
        ("print(1 + 1)", "# Python 3.12"),
        (r"\end{bookcode}", "print(1 + 1)"),
        (r"\begin{bookoutput}", r"\end{bookcode}"),
        ("2", r"\begin{bookoutput}"),
        (r"\end{bookoutput}", "2"),
        ("", r"\end{bookoutput}"),
        (r"\end{document}", ""),
    ]


def test_the_sample_mdx_prints_each_piece_in_its_environment():
    tex = body(standalone(printed(SAMPLES / "chapter.mdx")))
    assert "\\booksection{1}{準備}" in tex
    assert (
        "\\begin{bookelement}{definition}{定義 1.1（ずらし）}\n"
        "\\booklabel{c1:def-1.1}{1.1}\\bookcheck{no-check}{no check}{}\n\n"
        "$x \\in \\mathbb{R}$ に対し\n\\[\\fitdisplay{f(x) := x + 1}\\]\n"
        "と定める。\n\\end{bookelement}"
    ) in tex
    assert (
        "\\begin{bookproof}{証明}\n\n"
        "\\hyperref[c1:def-1.1]{定義 1.1} より $f(0) = 0 + 1 = 1$。\n\\end{bookproof}"
    ) in tex
    assert "\\begin{bookelement}{exercise}{演習 2.1［易］}" in tex
    assert "\\begin{booksolution}{解答}" in tex
    assert "\\begin{tabular}{rr}\n\\toprule\n$x$ & $f(x)$ \\\\\n\\midrule\n1 & 2 \\\\" in tex
    assert "\\begin{bookcode}\nprint(1 + 1)\n\\end{bookcode}\n\\begin{bookoutput}\n2\n" in tex


@needs_seeds
@pytest.mark.parametrize("key", SEED_FILES)
def test_every_element_of_a_seed_is_an_environment_with_its_number_title_and_mark(key):
    document = read_chapter(SEED_FILES[key])
    part = part_of(document, 1)
    tex = standalone(Printed(part, report_marks(part, report()), {}, "report.json"))
    opened = re.findall(r"\\begin\{bookelement\}\{(\w+)\}\{(.*)\}\n\\booklabel\{([^}]*)\}", tex)
    assert [(kind, label) for kind, _, label in opened] == [
        (e.kind, f"c1:{ID_PREFIXES[e.kind]}-{e.number.split()[-1]}") for e in document.elements
    ]
    for element, (_, heading, _) in zip(document.elements, opened, strict=True):
        assert heading.startswith(escape(element.number))
        assert escape(element.title) in heading or "$" in element.title
    proofs = tex.count(r"\begin{bookproof}") + tex.count(r"\begin{booksolution}")
    assert proofs == sum(e.proof is not None for e in document.elements)
    assert tex.count(r"\bookcheck{passed}") == len(document.elements)
    assert len(document.tables) == tex.count(r"\begin{booktable}")
    assert len(document.listings) == tex.count(r"\begin{bookcode}")


@needs_seeds
def test_a_citation_of_another_chapter_of_the_book_links_to_its_element():
    files = book([printed(SEED_FILES["self-attention"]), printed(SEED_FILES["transformer-block"])])
    block = files["02-transformer-block.tex"]
    assert r"\hyperref[c1:prop-7.2]{命題 7.2［自己注意］}" in block
    assert "（定理 3.1［ニューラルネットワークと逆伝播］）" in block  # not in the book: text
    main = files["book.tex"]
    assert main.index(r"\tableofcontents") < main.index(r"\include{01-self-attention}")
    assert main.index(r"\include{01-self-attention}") < main.index(
        r"\include{02-transformer-block}"
    )


@needs_seeds
def test_an_mdx_reference_outside_the_edition_leads_to_the_chapters_site():
    tex = standalone(printed(SEED_FILES["self-attention"]))
    assert (
        r"\href{https://rikai.mugen-giken.com/mathematics/linear-algebra/determinants\#def-sign}"
        r"{determinants\#def-sign}"
    ) in tex
    assert r"[\hyperlink{c1:ref-1}{1}]" in tex  # a citation of the references list


@needs_seeds
def test_the_rendered_figure_caption_is_the_figure_the_package_draws():
    part = part_of(read_chapter(SEED_FILES["transformer-block"]), 1)
    spots = [(f.name, f.caption[:13]) for f in part.figures]
    assert spots == [("residual-paths", "3 段の Pre-LN で")]
    tex = standalone(Printed(part, {}, {"residual-paths": "residual-paths.pdf"}, "test"))
    assert r"\bookfigure{residual-paths.pdf}{図　3 段の Pre-LN で" in tex


def test_a_wide_table_wraps_its_wordy_columns_and_a_narrow_one_keeps_its_width():
    words = "デコーダのみのモデルの層と、その説明の長い文"

    def cell(text: str, row: int) -> str:
        return escape(text)

    wide = table_tex(
        [("", "A", "B"), ("自己注意", words, words), ("MLP", "あり", "あり")], cell, 42
    )
    assert r"\begin{tabularx}{\linewidth}{l>{\raggedright\arraybackslash}X" in wide
    narrow = table_tex([("n", "合計"), ("64", "1,572,864")], cell, 42)
    assert r"\begin{tabular}{rr}" in narrow and r"max width=\linewidth" in narrow


def test_an_aside_closed_after_its_element_or_never_still_nests_in_the_latex():
    chapter = (
        '# 章\n\n## 1. 節\n\n<Definition id="def-a" title="a">\n\n<Aside title="b">\n\n'
        "本文\n\n</Definition>\n\n</Aside>\n\n</Aside>\n\n<Aside>\n\n残り\n"
    )
    tex = body(standalone(printed_text(chapter)))
    tex = tex.removesuffix("\\end{document}\n")
    opened = []
    for kind, name in re.findall(r"\\(begin|end)\{(\w+)\}", tex):
        if kind == "begin":
            opened.append(name)
        else:
            assert opened.pop() == name
    assert opened == [] and tex.count(r"\begin{bookaside}") == 2


def test_an_item_number_past_latexs_counters_stays_text():
    chapter = '# 章\n\n<Definition id="def-a" title="a">\n\nx\n\n</Definition>\n\n'
    tex = body(standalone(printed_text(chapter + "12. 項\n99999999999. 項\n")))
    assert r"\setcounter{enumi}{11}\item{}項" in tex and "99999999999. 項" in tex


def printed_text(chapter: str) -> Printed:
    return Printed(part_of(parse(chapter, "c.mdx"), 1), {}, {}, "test")


def test_a_listing_line_cannot_end_its_listing():
    assert verbatim(r"s = '\end{bookcode}'  # 注") == r"s = '\textbackslash{}end\{bookcode\}'  # 注"


# Marks ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mark", "tex"),
    [
        (Mark("passed", ("symbolic", "numeric")), r"\bookcheck{passed}{passed}{symbolic, numeric}"),
        (Mark("finding", (), "1.1428 for 8/7"), r"\bookcheck{finding}{finding}{1.1428 for 8/7}"),
        (Mark("failed", (), "x_1 > 100%"), r"\bookcheck{failed}{failed}{x\_1 > 100\%}"),
        (Mark("not run", ("witness",)), r"\bookcheck{not-run}{not run}{witness}"),
        (Mark("no check"), r"\bookcheck{no-check}{no check}{}"),
    ],
)
def test_a_mark_says_the_result_and_what_was_verified_or_went_wrong(mark, tex):
    assert mark_tex(mark) == tex


@needs_seeds
def test_the_marks_of_a_report_give_each_element_its_result_and_message():
    part = part_of(read_chapter(SEED_FILES["transformer-block"]), 1)
    found = report_marks(part, report("prop-layer-norm-jacobian", "ex-layer-norm-scale"))
    by_number = {e.number: found[e.line] for e in part.document.elements}
    assert by_number["命題 3.3"] == Mark(
        "failed", ("symbolic", "numeric", "high precision"), "the Jacobian lacks σσᵀ"
    )
    assert by_number["例 3.2"].result == "finding"
    assert by_number["例 3.2"].message == "the chapter prints 1.1428 for 8/7"
    assert by_number["定理 5.1"].result == "passed"
    partial = {"elements": [e for e in report()["elements"] if e["number"] != "定理 5.1"]}
    assert report_marks(part, partial)[by_number_line(part, "定理 5.1")].result == "not run"


def by_number_line(part, number: str) -> int:
    return next(e.line for e in part.document.elements if e.number == number)


def test_a_chapter_without_checks_marks_every_element_no_check():
    part = part_of(read_chapter(CORPUS / "inference.mdx"), 1)
    assert part.key == ""
    assert set(run_marks(part, every=True).values()) == {Mark("no check")}
    assert set(report_marks(part, report()).values()) == {Mark("no check")}


@needs_seeds
def test_only_the_examples_and_exercises_are_run_unless_every_check_is_asked(monkeypatch):
    ran = []

    def fake(element):
        ran.append(element.kind)
        return CheckRun("passed", "", (), 0.0)

    monkeypatch.setattr(marks_module, "run_check", fake)
    part = part_of(read_chapter(SEED_FILES["self-attention"]), 1)
    cheap = run_marks(part)
    assert set(ran) == {"example", "exercise"}
    assert sorted(m.result for m in cheap.values()) == ["not run"] * 20 + ["passed"] * 6
    ran.clear()
    run_marks(part, every=True)
    assert len(ran) == len(part.document.elements)


# The command line -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--book", "out"], "--book sets the print edition of --chapter FILE"),
        (["--chapter", "a.mdx", "--chapter", "b.txt"], "2 chapters make a book"),
        (["--chapter", "a.mdx", "--out", "a.txt"], "--out must end in .tex with --chapter"),
        (["--chapter", "a.mdx", "softmax-jacobian"], "NAME and --list are the formulas'"),
        (["--chapter", "a.mdx", "--book", "b", "--out", "c.tex"], "--out is for one chapter"),
        (["--chapter", "a.mdx", "--results", "r.json", "--profile", "ci"], "--results runs none"),
        (["--chapter", "a.mdx", "--macros"], "not allowed with argument"),
    ],
)
def test_the_print_edition_refuses_options_that_do_not_go_together(arguments, message, capsys):
    assert cli.main(["latex", *arguments]) == 2
    assert message in capsys.readouterr().err


def test_a_file_that_is_not_a_report_is_refused_naming_it(tmp_path, capsys):
    bad = tmp_path / "report.json"
    bad.write_text('{"elements": 3}', encoding="utf-8")
    code = cli.main(["latex", "--chapter", str(SAMPLES / "chapter.mdx"), "--results", str(bad)])
    assert code == 2
    assert f"{bad}: not a report of verify --json" in capsys.readouterr().err


def test_the_book_command_writes_the_main_file_and_one_file_per_chapter(tmp_path, capsys):
    out = tmp_path / "print"
    code = cli.main(
        [
            "latex",
            "--book",
            str(out),
            "--chapter",
            str(CORPUS / "inference.mdx"),
            "--chapter",
            str(CORPUS / "training.txt"),
        ]
    )
    assert code == 0, capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["01-chapter.tex", "02-chapter.tex", "book.tex"]
    main = (out / "book.tex").read_text(encoding="utf-8")
    assert main.startswith("% transformer-proofs")
    assert r"\include{01-chapter}" in main and r"\include{02-chapter}" in main
    assert cli.main(["latex", "--book", str(out), "--chapter", str(CORPUS / "inference.mdx")]) == 2
    assert "exists; pass --force" in capsys.readouterr().err


# Compiling -------------------------------------------------------------------------------


def problems(log: str, references: bool = True) -> list[str]:
    """The errors, missing characters, overfull boxes wider than OVERFULL_LIMIT and (with
    `references`: a last run) undefined references of a LuaLaTeX log."""
    undefined = re.compile(r"(Reference|Hyper reference) `[^']*' on page \d+ undefined")
    found = [
        line
        for line in log.splitlines()
        if line.startswith("!")
        or "Missing character" in line
        or (references and undefined.search(line))
        or "multiply defined" in line
    ]
    for line in log.splitlines():
        overfull = re.match(r"Overfull \\[hv]box \(([\d.]+)pt too (?:wide|high)\)", line)
        if overfull and float(overfull.group(1)) > OVERFULL_LIMIT:
            found.append(line)
    return found


@dataclass(frozen=True)
class Compiled:
    """What compiling a file gave: the PDF's text (pdftotext), its page count and the
    seconds taken; or, when the command writing the file or a LuaLaTeX run failed, or the
    last run's log shows a problem, `failure` saying what."""

    text: str = ""
    pages: int = 0
    seconds: float = 0.0
    failure: str | None = None


def compile_tex(tex: Path, runs: int) -> Compiled:
    """Compile the file `runs` times (2 resolves the references)."""
    start = time.perf_counter()
    # a log line per message, unwrapped; the restrictions the edition's files state
    env = early.environment(max_print_line="100000", **RESTRICTIONS)
    for _ in range(runs):
        run = subprocess.run(
            [*LUALATEX, "-interaction=nonstopmode", "-halt-on-error", tex.name],
            cwd=tex.parent,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        log = tex.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
        if run.returncode != 0:
            return Compiled(failure=str(problems(log) or run.stdout[-3000:]))
    seconds = time.perf_counter() - start
    found = problems(log, references=runs > 1)
    if found:
        return Compiled(failure=f"{tex.name}: {found}")
    pages = int(re.search(r"Output written on .*?\((\d+) pages?", log).group(1))
    text = subprocess.run(
        [str(PDFTOTEXT), "-enc", "UTF-8", tex.with_suffix(".pdf").name, "-"],
        cwd=tex.parent,
        env=early.environment(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return Compiled(text, pages, seconds)


def written_and_compiled(arguments: list[str], tex: Path, runs: int) -> Compiled:
    """`proofs latex ARGUMENTS` in a process of its own, then `tex` compiled."""
    made = subprocess.run(
        [sys.executable, "-m", "proofs", "latex", *arguments],
        cwd=ROOT,
        env=early.environment(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    if made.returncode != 0:
        return Compiled(failure=f"proofs latex exited {made.returncode}: {made.stderr[-3000:]}")
    return compile_tex(tex, runs)


def compilation(folder: Path, name: str, key: str | None) -> Compiled:
    """The compile a test of this module takes (its name, its chapter key), in `folder`."""
    if name == "test_a_seed_chapter_compiles_with_every_element_and_table_in_the_pdf":
        tex = folder / f"{key}.tex"
        report = report_file(folder)
        arguments = ["--chapter", str(SEED_FILES[key]), "--out", str(tex), "--results", str(report)]
        return written_and_compiled(arguments, tex, runs=2)
    if name == "test_a_chapter_the_package_has_no_checks_for_compiles":
        tex = folder / "inference.tex"
        arguments = ["--chapter", str(CORPUS / "inference.mdx"), "--out", str(tex)]
        return written_and_compiled(arguments, tex, runs=1)
    if name == "test_hostile_text_is_escaped_and_appears_in_the_pdf":
        chapter = folder / "hostile.mdx"
        chapter.write_text(HOSTILE_MDX, encoding="utf-8")
        tex = folder / "hostile.tex"
        return written_and_compiled(["--chapter", str(chapter), "--out", str(tex)], tex, runs=1)
    assert name == "test_a_book_of_two_chapters_numbered_alike_compiles_with_its_contents"
    out = folder / "print"
    arguments = ["--book", str(out)]
    for sample in ("chapter.mdx", "chapter.txt"):
        arguments += ["--chapter", str(SAMPLES / sample)]
    return written_and_compiled(arguments, out / "book.tex", runs=2)


@early.job(COMPILES)
def compile_all(items: Sequence[pytest.Item]) -> dict[str, Compiled]:
    """Each selected compiling test's files written and compiled, by the test's node id, in
    a folder removed when the tests end."""
    folder = Path(tempfile.mkdtemp(prefix="print-edition-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    found = {}
    for number, item in enumerate(items):
        place = folder / str(number)
        place.mkdir()
        key = item.callspec.params.get("key") if hasattr(item, "callspec") else None
        try:
            found[item.nodeid] = compilation(place, item.originalname, key)
        except (OSError, ValueError, AttributeError, subprocess.SubprocessError) as why:
            # one compile's error is its test's failure, saying what, not every test's
            found[item.nodeid] = Compiled(failure=f"{type(why).__name__}: {why}")
    return found


def compiled(request: pytest.FixtureRequest) -> Compiled:
    """The compile of the requesting test, done in the background (tests/early.py)."""
    result = early.result(COMPILES)[request.node.nodeid]
    assert result.failure is None, result.failure
    return result


def squeezed(text: str) -> str:
    """Text without its white space: pdftotext breaks lines where the page does."""
    return re.sub(r"\s+", "", text)


def assert_printed(document, pdf_text: str) -> None:
    """Every element's number and title, and every cell of every table that is plain text,
    stand in the PDF's text."""
    pdf = squeezed(pdf_text)
    for element in document.elements:
        assert squeezed(element.number) in pdf
        if element.title and "$" not in element.title:
            assert squeezed(f"{element.number}（{element.title}）") in pdf
    for table in document.tables:
        for row in table.rows:
            for cell in row:
                if cell and not re.search(r"[$*<\[`]", cell):
                    assert squeezed(cell) in pdf, (table.line, cell)


def report_file(folder: Path) -> Path:
    path = folder / "report.json"
    path.write_text(json.dumps(report(finding="ex-layer-norm-scale")), encoding="utf-8")
    return path


@pytest.mark.slow
@needs_tex
@needs_seeds
@pytest.mark.early(COMPILES)
@pytest.mark.parametrize("key", SEED_FILES)
def test_a_seed_chapter_compiles_with_every_element_and_table_in_the_pdf(
    key, request, record_property
):
    done = compiled(request)
    assert_printed(read_chapter(SEED_FILES[key]), done.text)
    assert "passed" in done.text and "図はこの版に描かれていない" not in done.text
    record_property("pages", done.pages)
    print(f"{key}: {done.pages} pages, 2 runs of lualatex in {done.seconds:.1f} s")


@pytest.mark.slow
@needs_tex
@pytest.mark.early(COMPILES)
def test_a_chapter_the_package_has_no_checks_for_compiles(request):
    done = compiled(request)
    assert_printed(read_chapter(CORPUS / "inference.mdx"), done.text)
    assert squeezed("この記事で使う事前知識") in squeezed(done.text)  # the <Aside>'s title
    print(f"inference.mdx: {done.pages} pages, 1 run of lualatex in {done.seconds:.1f} s")


@pytest.mark.slow
@needs_tex
@pytest.mark.early(COMPILES)
def test_hostile_text_is_escaped_and_appears_in_the_pdf(request):
    pdf = squeezed(compiled(request).text)
    for shown in (
        f"命題1.1（{squeezed(HOSTILE_TITLE)}）",
        r"記号\section{x}と50%の節",
        r"\textbf{x}と{中括弧}と~^#&_$と\\と\end{document}。",
        r"$\end{document}$",
        r"\end{bookproof}のあと{。",
        r'print("\end{bookcode}100%{x}")',
        r"100%{x}\end{document}",
        "[1]{a}",
        "#_~^x",
    ):
        assert squeezed(shown) in pdf, shown


@pytest.mark.slow
@needs_tex
@pytest.mark.early(COMPILES)
def test_a_book_of_two_chapters_numbered_alike_compiles_with_its_contents(request):
    """The two samples number their elements alike (定義 1.1, 命題 1.2, 演習 2.1): in one
    book each keeps its numbers, under its own chapter, and no label is defined twice."""
    done = compiled(request)
    pdf = squeezed(done.text)
    assert pdf.index("目次") < pdf.index("第1章") < pdf.index("第2章")
    assert pdf.count("命題1.2（ずらしの値）") == 2 and pdf.count("演習2.1［易］") == 2
    print(
        f"book of the two samples: {done.pages} pages, 2 runs of lualatex in {done.seconds:.1f} s"
    )
