"""A third chapter, added as a package of its own: `new-chapter` writes the skeleton,
an entry point names it, `verify` lists its elements as unchecked and `audit` reads
its file; once a check is written, that element passes."""

import ast
import json
import os
import re
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from places import CORPUS, ROOT

from proofs.book.registry import load_all
from proofs.book.scaffold import element_id, package_name, skeleton, write_skeleton
from proofs.reader import Document, parse

THIRD = textwrap.dedent(
    """\
    # KV キャッシュ：見本の第三章

    ## 1. 定義

    <Definition id="def-cache" title="キャッシュ">

    $f(x) := 2x$ と定める。

    </Definition>

    <Proposition id="prop-cache-value" title="キャッシュの値">

    $f(3) = 6$ である。

    </Proposition>
    """
)

CHECK = '''@CHAPTER.element("prop-cache-value", "命題 1.2", "キャッシュの値", "proposition",
                 ("symbolic",))
def prop_cache_value() -> list[str]:
    """f(3) = 6 for f(x) = 2x, by SymPy."""
    import sympy

    x = sympy.Symbol("x")
    require((2 * x).subs(x, 3) == 6, "f(3) != 6")
    return ["f(3) = 6"]
'''


def run(*args: str, path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), *sys.path])}
    return subprocess.run(
        [sys.executable, "-m", "proofs", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


@pytest.fixture
def third_chapter(tmp_path):
    """The third chapter's file and its skeleton package installed on a path of its own
    (a .dist-info folder declaring the entry point, as pip would write it)."""
    chapter = tmp_path / "kv-cache.mdx"
    chapter.write_text(THIRD, encoding="utf-8")
    site = tmp_path / "site"
    site.mkdir()
    made = run("new-chapter", str(chapter), "--key", "kv-cache", "--out", str(site), path=site)
    assert made.returncode == 0, made.stderr
    info = site / "kv_cache_chapter-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kv-cache-chapter\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[transformer_proofs.chapters]\nkv-cache = kv_cache\n")
    return chapter, site


def test_verify_lists_the_skeletons_elements_as_unchecked_and_fails_only_if_asked(
    third_chapter,
):
    _, site = third_chapter
    result = run("verify", "kv-cache", "--json", path=site)
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert [(e["id"], e["result"]) for e in report["elements"]] == [
        ("def-cache", "unchecked"),
        ("prop-cache-value", "unchecked"),
    ]
    assert report["unchecked"] == 2 and report["passed"] == 0
    assert run("verify", "kv-cache", "--fail-unchecked", path=site).returncode == 1


def test_audit_reads_the_new_chapters_file(third_chapter):
    chapter, site = third_chapter
    result = run("audit", str(chapter), "--json", path=site)
    assert result.returncode == 0, result.stderr
    (report,) = json.loads(result.stdout)
    assert report["chapter"] == "kv-cache"
    assert report["summary"]["element"]["confirmed"] == 2


def test_a_written_check_passes_beside_the_remaining_stub(third_chapter):
    _, site = third_chapter
    module = site / "kv_cache" / "section_1.py"
    text = module.read_text(encoding="utf-8")
    start = text.index('@CHAPTER.element("prop-cache-value"')
    text = text[:start] + CHECK
    text = text.replace("import Unchecked", "import Unchecked, require")
    module.write_text(text, encoding="utf-8")
    report = json.loads(run("verify", "kv-cache", "--json", path=site).stdout)
    assert [(e["id"], e["result"]) for e in report["elements"]] == [
        ("def-cache", "unchecked"),
        ("prop-cache-value", "passed"),
    ]


def test_the_book_still_lists_its_own_chapters_first(third_chapter):
    _, site = third_chapter
    report = json.loads(run("verify", "--json", "def-softmax", "kv-cache", path=site).stdout)
    assert [e["chapter"] for e in report["elements"]] == ["self-attention", "kv-cache", "kv-cache"]


def test_skeleton_ids_come_from_mdx_or_from_kind_and_number():
    document = parse(THIRD)
    assert [element_id(e) for e in document.elements] == ["def-cache", "prop-cache-value"]
    rendered = parse("章\n\n1. 節\n\n補題 1.1（x）✓\n\n本文。\n")
    assert [element_id(e) for e in rendered.elements] == ["lem-1-1"]
    assert set(skeleton(document, "kv-cache")) == {
        "__init__.py",
        "chapter.py",
        "notation.py",
        "section_1.py",
        "tests/test_section_1.py",
    }


@pytest.mark.parametrize("key", ["KV", "kv__cache", "1kv", "import", "", "kv cache"])
def test_a_malformed_key_is_refused(key):
    with pytest.raises(ValueError, match="key"):
        package_name(key)


def test_new_chapter_refuses_to_overwrite(third_chapter):
    chapter, site = third_chapter
    again = run("new-chapter", str(chapter), "--key", "kv-cache", "--out", str(site), path=site)
    assert again.returncode == 2
    assert again.stderr.count("\n") == 1 and "exists" in again.stderr


# chapter text in the generated code ------------------------------------------------------

HOSTILE = {  # what a title may hold, and what pasting it into code would do
    "docstring-break": '"""; import pathlib; pathlib.Path("INJECTED").touch(); """',
    "single-quotes": "'''\nraise SystemExit(3)\n'''",
    "tex": r"$\xi$ と \underline{x}、\N{x} と \u0041",
    "trailing-backslash": "終わり\\",
    "comment": "# noqa: E501",
    "control": "NUL \x00 and ESC \x1b",
    "surrogate": "lone \ud800",
    "line-separator": "one\u2028two\nthree",
    "braces": "{x} {{y}} %s",
}


def hostile(title: str) -> Document:
    """THIRD with `title` as the chapter's title and each element's."""
    document = parse(THIRD, "kv-cache.mdx")
    elements = tuple(replace(e, title=title) for e in document.elements)
    return replace(document, title=title, elements=elements)


def without_strings(source: str) -> str:
    """The module's syntax tree with every string constant blanked: what the code does."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.dump(tree)


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_title_is_data_in_the_skeleton_never_code(case):
    plain, files = skeleton(hostile("x"), "kv-cache"), skeleton(hostile(HOSTILE[case]), "kv-cache")
    assert {name: without_strings(text) for name, text in files.items()} == {
        name: without_strings(text) for name, text in plain.items()
    }
    namespace: dict = {}
    exec(
        compile(
            files["chapter.py"].replace("from proofs.book.registry import Chapter", ""),
            "chapter.py",
            "exec",
        ),
        {"Chapter": dict},
        namespace,
    )
    assert namespace["CHAPTER"]["title"] == HOSTILE[case]


def test_the_skeleton_of_hostile_titles_imports_in_a_fresh_interpreter(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    for k, title in enumerate(HOSTILE.values()):
        document = hostile(title)
        ids = tuple(replace(e, id=f"{e.id}-{k}") for e in document.elements)
        write_skeleton(replace(document, elements=ids), f"hostile-{k}", site)
    names = [f"hostile_{k}" for k in range(len(HOSTILE))]
    script = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    module = importlib.import_module(name)\n"
        "    print(repr(module.CHAPTER.title))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(site)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [repr(t) for t in HOSTILE.values()]
    assert not (tmp_path / "INJECTED").exists()


@given(title=st.text(), element_title=st.text())
def test_the_skeleton_compiles_to_the_same_code_whatever_the_titles(title, element_title):
    document = hostile(element_title)
    document = replace(document, title=title)
    plain = skeleton(hostile("x"), "kv-cache")
    for name, text in skeleton(document, "kv-cache").items():
        assert without_strings(text) == without_strings(plain[name]), name


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        (("1st", "prop-cache-value"), "the id '1st' of 定義 1.1 cannot name a check"),
        (("def-cache", "import"), "the id 'import' of 命題 1.2 cannot name a check"),
        (("def.cache", "prop-cache-value"), "the id 'def.cache' of 定義 1.1 cannot name"),
        (("def-cache", "def-cache"), "id 'def-cache' is the id of line 5 too"),
    ],
)
def test_an_id_that_cannot_name_a_check_is_refused_at_its_line(ids, message):
    document = parse(THIRD, "kv-cache.mdx")
    elements = tuple(replace(e, id=i) for e, i in zip(document.elements, ids, strict=True))
    with pytest.raises(ValueError, match=re.escape(message)) as raised:
        skeleton(replace(document, elements=elements), "kv-cache")
    assert str(raised.value).startswith("kv-cache.mdx:")


def test_an_id_registered_by_another_chapter_is_refused():
    document = parse(THIRD.replace("def-cache", "def-softmax"), "kv-cache.mdx")
    with pytest.raises(ValueError, match="kv-cache.mdx:5: id 'def-softmax' is registered by"):
        skeleton(document, "kv-cache", frozenset(load_all()))


def test_a_key_written_with_underscores_is_the_same_chapter():
    files = skeleton(parse(THIRD, "kv-cache.mdx"), "kv_cache")
    assert 'key="kv-cache"' in files["chapter.py"]
    assert package_name("kv_cache") == package_name("kv-cache") == "kv_cache"


def test_the_worked_check_of_the_docs_proves_its_lemma(tmp_path):
    """docs/adding-a-chapter.md's worked check, as written there, in the skeleton of the
    corpus's inference chapter: it passes, fits in 40 lines, and the audit of a copy whose
    formula is changed fails it at the formula's line."""
    page = (ROOT / "docs" / "adding-a-chapter.md").read_text(encoding="utf-8")
    code = page.split("## A worked check", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.strip().splitlines()) <= 40
    site = tmp_path / "site"
    site.mkdir()
    chapter = CORPUS / "inference.mdx"
    made = run("new-chapter", str(chapter), "--key", "inference", "--out", str(site), path=site)
    assert made.returncode == 0, made.stderr
    info = site / "inference_chapter-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: inference-chapter\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[transformer_proofs.chapters]\ninference = inference\n")
    module = site / "inference" / "section_3.py"
    text = module.read_text(encoding="utf-8")
    start = text.index('@CHAPTER.element("lem-temperature-ratio"')
    end = text.index("@CHAPTER.element(", start + 1)
    module.write_text(text[:start] + code + "\n\n" + text[end:], encoding="utf-8")
    verified = json.loads(run("verify", "lem-temperature-ratio", "--json", path=site).stdout)
    assert [e["result"] for e in verified["elements"]] == ["passed"]
    pristine = run("audit", str(chapter), "--quiet", path=site)
    assert pristine.returncode == 0, pristine.stdout
    slipped = tmp_path / "inference.mdx"
    slipped.write_text(
        chapter.read_text(encoding="utf-8").replace(
            "p_j/p_k = e^{(z_j - z_k)/T}$ である", "p_j/p_k = e^{(z_j + z_k)/T}$ である"
        ),
        encoding="utf-8",
    )
    audited = run("audit", str(slipped), "--quiet", path=site)
    assert audited.returncode == 1
    assert f"{slipped}:61:" in audited.stdout and "lem-temperature-ratio" in audited.stdout
