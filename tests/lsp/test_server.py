"""`python -m proofs lsp` end to end: the server started as an editor starts it, spoken to
by pytest-lsp's client with VS Code's capabilities, on copies of the chapters. One server
serves every test of the module, each test its own documents, so that each also shows
the server still serving after what the tests before it sent."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from places import SAMPLES, SEEDS
from seed_slips import SLIPS

pytest_lsp = pytest.importorskip(
    "pytest_lsp", reason="needs the editor extra: pip install '.[editor]'"
)
from lsprotocol import types  # noqa: E402
from pygls.exceptions import JsonRpcInvalidParams  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

BLOCK = "002_1f7cf506cffefce0.txt"
WAIT = 120.0  # seconds a test waits for the diagnostics of a version (a loaded machine)
SERVER = [sys.executable, "-m", "proofs", "lsp"]


async def started(lsp_client: LanguageClient, budget: float) -> None:
    options = {"debounce": 0.0, "budget": budget}
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options=options,
        )
    )


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    """The server most tests share, with the default budget: a seed chapter's first audit
    runs every check of its elements (seconds, more on a loaded machine)."""
    await started(lsp_client, WAIT / 2)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def hurried(lsp_client: LanguageClient):
    """A server whose audits stop after 2 seconds, for input whose audit takes longer."""
    await started(lsp_client, 2.0)
    yield
    await lsp_client.shutdown_session()


def seed(name: str) -> str:
    path = SEEDS / name
    if not path.is_file():
        pytest.skip(f"{path} is not here: the test opens a seed chapter")
    return path.read_text(encoding="utf-8")


async def published(client: LanguageClient, uri: str, version: int) -> list[types.Diagnostic]:
    """The diagnostics the server publishes for this version of the document."""

    async def wait() -> list[types.Diagnostic]:
        while True:
            params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == uri and params.version in (version, None):
                return list(params.diagnostics)

    return await asyncio.wait_for(wait(), WAIT)


async def opened(
    client: LanguageClient, uri: str, text: str, version: int = 1
) -> list[types.Diagnostic]:
    waiting = asyncio.ensure_future(published(client, uri, version))
    await asyncio.sleep(0)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "plaintext", version, text))
    )
    return await waiting


async def changed(
    client: LanguageClient, uri: str, version: int, changes: list
) -> list[types.Diagnostic]:
    waiting = asyncio.ensure_future(published(client, uri, version))
    await asyncio.sleep(0)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version, uri), changes
        )
    )
    return await waiting


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The folder of the module's documents: the server may read it, never writes it."""
    return tmp_path_factory.mktemp("documents")


def uri_of(folder: Path, name: str) -> str:
    return (folder / name).as_uri()


def applied(text: str, edit: types.TextEdit) -> str:
    """The text with one edit applied (positions in UTF-16 units, as the server sent)."""
    lines = text.splitlines(keepends=True)

    def offset(p: types.Position) -> int:
        before = sum(len(line) for line in lines[: p.line])
        line = lines[p.line] if p.line < len(lines) else ""
        units, k = 0, 0
        while units < p.character:
            units += 2 if ord(line[k]) > 0xFFFF else 1
            k += 1
        return before + k

    return text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]


async def test_ex_layer_norm_scale_its_slip_at_its_line(client, folder):
    found = await opened(client, uri_of(folder, "block.txt"), seed(BLOCK))
    checks = [d for d in found if d.code == "CHK001"]
    assert [(d.range.start.line, d.severity) for d in checks] == [
        (113, types.DiagnosticSeverity.Error)
    ]
    line = seed(BLOCK).splitlines()[113]
    start, end = checks[0].range.start.character, checks[0].range.end.character
    assert line[start:end] == "1.1428"
    assert "which rounds to 1.1429" in checks[0].message
    errors = [d for d in found if d.severity == types.DiagnosticSeverity.Error]
    assert [(d.code, d.range.start.line) for d in errors] == [("CHK001", 113), ("CLM001", 113)]
    assert not [d for d in found if d.severity == types.DiagnosticSeverity.Warning]


async def test_progress_while_the_first_audit_runs(client, folder):
    await opened(client, uri_of(folder, "progress.txt"), seed(BLOCK))
    kinds = [[type(v).__name__ for v in values] for values in client.progress_reports.values()]
    assert ["WorkDoneProgressBegin", "WorkDoneProgressEnd"] in kinds


async def test_ex_gpt2_parameters_table_cell_edited_then_synced(client, folder):
    uri = uri_of(folder, "table.txt")
    text = seed(BLOCK)
    (folder / "table.txt").write_text(text, encoding="utf-8")
    await opened(client, uri, text)
    lines = text.splitlines()
    line = next(k for k, t in enumerate(lines) if "7,087,872" in t and "ブロック 1 つ" in t)
    column = lines[line].index("7,087,872")
    cell = types.Range(types.Position(line, column + 7), types.Position(line, column + 9))
    found = await changed(
        client, uri, 2, [types.TextDocumentContentChangePartial(range=cell, text="27")]
    )
    tables = [d for d in found if d.code == "TAB001"]
    assert [d.range.start.line for d in tables] == [line]
    assert "regenerated 7,087,872" in tables[0].message
    offered = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            tables[0].range,
            types.CodeActionContext(diagnostics=tables),
        )
    )
    titles = [a.title for a in offered]
    assert "Regenerate table gpt2-parameters (sync)" in titles
    assert "Accept this mismatch in the baseline (audit-baseline.json)" in titles
    assert not [t for t in titles if t.startswith("Suppress")]  # rendered text: no comments
    sync = offered[titles.index("Regenerate table gpt2-parameters (sync)")]
    edits = [e for change in sync.edit.document_changes for e in change.edits]
    edited = text[: text.index("7,087,872")] + "7,087,827" + text[text.index("7,087,872") + 9 :]
    assert applied(edited, edits[0]) == text


THREE_FACTS = next(e for e in SLIPS if e.name == "sa-three-facts")  # 3 つ → 4 つ, CNT001
ATTENTION = "000_ce182fefa314a82b.txt"


def shown(found: list[types.Diagnostic]) -> list[tuple[str, int]]:
    return sorted((str(d.code), d.range.start.line) for d in found)


async def test_sa_three_facts_suppressed_by_the_comment_the_action_inserts(client, folder):
    uri = uri_of(folder, "attention.mdx")
    lines = seed(ATTENTION).splitlines(keepends=True)
    at = THREE_FACTS.line - 1
    lines[at] = lines[at].replace(THREE_FACTS.old, THREE_FACTS.new)
    text = "".join(lines)
    found = await opened(client, uri, text)
    counted = [d for d in found if d.code == "CNT001"]
    assert [(d.range.start.line, d.severity) for d in counted] == [
        (at, types.DiagnosticSeverity.Warning)
    ]
    assert counted[0].code_description is not None
    assert counted[0].code_description.href.endswith("/docs/rules.md#cnt001")
    offered = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            counted[0].range,
            types.CodeActionContext(diagnostics=counted),
        )
    )
    (suppress,) = [a for a in offered if a.title.startswith("Suppress CNT001")]
    (edit,) = [e for change in suppress.edit.document_changes for e in change.edits]
    assert edit.new_text == "{/* proofs: ignore[CNT001] reason */}\n"
    assert (edit.range.start.line, edit.range.start.character) == (at, 0)
    after = await changed(
        client, uri, 2, [types.TextDocumentContentChangePartial(edit.range, edit.new_text)]
    )
    others = [(code, line + (line > at)) for code, line in shown(found) if code != "CNT001"]
    assert others
    assert shown(after) == sorted(others)
    suppressed = applied(text, edit)
    wrong = suppressed.replace("ignore[CNT001]", "ignore[EQ001]")
    again = await changed(client, uri, 3, [types.TextDocumentContentChangeWholeDocument(wrong)])
    assert shown(again) == sorted([*others, ("CNT001", at + 1), ("SUP001", at)])
    (idle,) = [d for d in again if d.code == "SUP001"]
    assert "suppresses nothing: no finding of EQ001 on this line or the next" in idle.message


async def test_ex_layer_norm_scale_hover_on_its_heading(client, folder):
    uri = uri_of(folder, "hover.txt")
    text = seed(BLOCK)
    await opened(client, uri, text)
    heading = next(k for k, t in enumerate(text.splitlines()) if t.startswith("例 3.2"))
    shown = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(heading, 1))
    )
    assert "ex-layer-norm-scale" in shown.contents.value
    assert "check: **passed** in" in shown.contents.value


async def test_hover_on_a_number_no_rule_reads(client, folder):
    uri = uri_of(folder, "number.mdx")
    text = (SAMPLES / "chapter.mdx").read_text(encoding="utf-8") + "\n幅は 7 です。\n"
    await opened(client, uri, text)
    unread = len(text.splitlines()) - 1  # the number of prose no relation reads
    shown = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(unread, 3))
    )
    assert shown is not None


async def test_outline_and_the_check_of_an_element(client, folder):
    uri = uri_of(folder, "outline.txt")
    text = seed(BLOCK)
    await opened(client, uri, text)
    outline = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    names = [s.name for s in outline]
    assert any(name.startswith("3.") for name in names)
    heading = next(k for k, t in enumerate(text.splitlines()) if t.startswith("例 3.2"))
    where = await client.text_document_definition_async(
        types.DefinitionParams(types.TextDocumentIdentifier(uri), types.Position(heading, 0))
    )
    assert where.uri.endswith(".py") and "/proofs/chapters/" in where.uri


async def test_a_chapter_with_bad_structure(client, folder):
    text = (SAMPLES / "chapter.mdx").read_text(encoding="utf-8")
    unclosed = text.replace("</Proposition>\n", "", 1)
    found = await opened(client, uri_of(folder, "unclosed.mdx"), unclosed)
    assert any(d.code == "STR001" and d.severity == 1 for d in found)
    fence = text + "\n```python\nx = 1\n"
    found = await opened(client, uri_of(folder, "fence.mdx"), fence)
    assert [(d.code, d.range.start.line) for d in found] == [("input", text.count("\n") + 1)]
    assert "never closed" in found[0].message


async def test_a_file_that_is_no_chapter(client, folder):
    found = await opened(client, uri_of(folder, "notes.md"), "# Notes\n\nshopping list\n")
    assert [(d.code, d.severity) for d in found] == [
        ("not-a-chapter", types.DiagnosticSeverity.Information)
    ]
    assert "neither form of chapter" in found[0].message
    binary = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    found = await opened(client, uri_of(folder, "figure.png"), binary)
    assert "a binary file" in found[0].message


async def test_a_position_outside_the_document_is_an_error(client, folder):
    uri = uri_of(folder, "small.mdx")
    await opened(client, uri, (SAMPLES / "chapter.mdx").read_text(encoding="utf-8"))
    with pytest.raises(JsonRpcInvalidParams, match="outside the document"):
        await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(500, 0))
        )
    far = types.Range(types.Position(900, 0), types.Position(900, 3))
    found = await changed(
        client, uri, 2, [types.TextDocumentContentChangePartial(range=far, text="x")]
    )
    assert [d.code for d in found][:1] == ["out-of-step"]


async def test_an_edit_to_a_document_never_opened(client, folder):
    uri = uri_of(folder, "never.mdx")
    where = types.Range(types.Position(0, 0), types.Position(0, 0))
    found = await changed(
        client, uri, 2, [types.TextDocumentContentChangePartial(range=where, text="x")]
    )
    assert "not an open document" in found[0].message
    with pytest.raises(JsonRpcInvalidParams, match="not an open document"):
        await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))
        )


async def test_a_line_of_30000_equalities_and_a_chapter_of_10_mb(hurried, folder):
    text = (SAMPLES / "chapter.txt").read_text(encoding="utf-8")
    line = "、".join(f"${k} = {k}$" for k in range(30000))
    found = await opened(hurried, uri_of(folder, "long.txt"), text + "\n" + line + "\n")
    assert found, "a diagnostic: the audit's findings, or that it stopped"
    body = seed(BLOCK)
    big = body + ("\n" + body.split("\n", 1)[1]) * (10 * 2**20 // len(body.encode()))
    found = await opened(hurried, uri_of(folder, "big.txt"), big)
    assert found
    after = await opened(hurried, uri_of(folder, "after.txt"), text)
    assert [d.range.start.line for d in after if d.code == "ELT001"] == [4, 12, 28]


async def test_nothing_is_written_to_the_chapters(client, folder):
    """Of the documents of the tests above, one is a file (table.txt, whose table was
    offered a sync and a baseline entry): it is as it was written, and no file was made
    beside it (no baseline, no chapter written from what the editor sent)."""
    written = seed(BLOCK)  # skipped, as the tests that wrote the file were, without it
    assert [p.name for p in folder.iterdir()] == ["table.txt"]
    assert (folder / "table.txt").read_text(encoding="utf-8") == written


CRASHING = [sys.executable, str(Path(__file__).with_name("crashing_server.py"))]


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=CRASHING))
async def crashing(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


async def test_a_rule_that_raises_is_reported_and_the_others_delivered(crashing, folder):
    found = await opened(crashing, uri_of(folder, "crash.txt"), seed(BLOCK))
    crashes = [d for d in found if d.code == "crash"]
    assert len(crashes) == 1
    assert "the rule audit_restated raised ZeroDivisionError: a defect of the rule" in (
        crashes[0].message
    )
    assert [d.range.start.line for d in found if d.code == "CHK001"] == [113]
