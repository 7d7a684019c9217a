"""A third chapter, added as a package of its own: `new-chapter` writes the skeleton,
an entry point names it, `verify` lists its elements as unchecked and `audit` reads
its file; once a check is written, that element passes."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from proofs.reader import parse
from proofs.scaffold import element_id, package_name, skeleton

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
        [sys.executable, "-m", "proofs", *args], capture_output=True, text=True, env=env,
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


def test_verify_lists_the_skeletons_elements_as_unchecked_and_fails(third_chapter):
    _, site = third_chapter
    result = run("verify", "kv-cache", "--json", path=site)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert [(e["id"], e["result"]) for e in report["elements"]] == [
        ("def-cache", "unchecked"),
        ("prop-cache-value", "unchecked"),
    ]
    assert report["unchecked"] == 2 and report["passed"] == 0
    assert run("verify", "kv-cache", "--allow-unchecked", path=site).returncode == 0


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
    report = json.loads(run("verify", "--json", "--allow-unchecked", "def-softmax", "kv-cache",
                            path=site).stdout)
    assert [e["chapter"] for e in report["elements"]] == ["self-attention", "kv-cache", "kv-cache"]


def test_skeleton_ids_come_from_mdx_or_from_kind_and_number():
    document = parse(THIRD)
    assert [element_id(e) for e in document.elements] == ["def-cache", "prop-cache-value"]
    rendered = parse("章\n\n1. 節\n\n補題 1.1（x）✓\n\n本文。\n")
    assert [element_id(e) for e in rendered.elements] == ["lem-1-1"]
    assert set(skeleton(document, "kv-cache")) == {"__init__.py", "chapter.py", "section_1.py"}


@pytest.mark.parametrize("key", ["KV", "kv_cache", "1kv", "import", ""])
def test_a_malformed_key_is_refused(key):
    with pytest.raises(ValueError, match="key"):
        package_name(key)


def test_new_chapter_refuses_to_overwrite(third_chapter):
    chapter, site = third_chapter
    again = run("new-chapter", str(chapter), "--key", "kv-cache", "--out", str(site), path=site)
    assert again.returncode == 2
    assert again.stderr.count("\n") == 1 and "exists" in again.stderr
