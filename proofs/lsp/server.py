"""`python -m proofs lsp`: the audit as a language server, over standard input and output.

One handler per LSP feature, each small, over one store of documents (proofs.lsp.store):
a change replaces the document's snapshot and hands it to the scheduler
(proofs.lsp.scheduler), which audits it off this thread (proofs.lsp.incremental) and
publishes what it finds (proofs.lsp.diagnostics); a hover, a code action, a definition or
an outline reads the latest analysis of the document. Nothing is written to a file: a
code action is an edit the editor applies.

Options (`initializationOptions`): `debounce`, the seconds a change waits for the next
one (0.05); `budget`, the seconds an audit may run before it is stopped (60).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from proofs.audit.findings import Finding
from proofs.lsp import actions, hover, symbols
from proofs.lsp.diagnostics import at_top, diagnostics, message
from proofs.lsp.guard import guard_rules
from proofs.lsp.incremental import Analysis, Auditor
from proofs.lsp.positions import OutOfRange, encoding_name
from proofs.lsp.scheduler import BUDGET, DEBOUNCE, Job, Scheduler
from proofs.lsp.store import Snapshot, Store, StoreError

NAME = "transformer-proofs"


class ProofsProtocol(LanguageServerProtocol):
    """pygls' protocol with the documents kept in the server's Store instead of pygls'
    workspace: a change the store refuses is answered with a diagnostic, never applied
    halfway."""

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        yield self.fm.features[types.TEXT_DOCUMENT_DID_OPEN], (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        yield self.fm.features[types.TEXT_DOCUMENT_DID_CHANGE], (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        yield self.fm.features[types.TEXT_DOCUMENT_DID_CLOSE], (params,), None


class ProofsServer(LanguageServer):
    """The server's state: the store, the auditor, the scheduler and the latest analysis
    of each document."""

    def __init__(self) -> None:
        try:
            release = version(NAME)
        except PackageNotFoundError:
            release = "0"
        super().__init__(
            NAME,
            release,
            protocol_cls=ProofsProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self.store = Store()
        self.auditor = Auditor()
        self.analyses: dict[str, Analysis] = {}
        self.published: dict[str, asyncio.Event] = {}
        self.begun: dict[int, asyncio.Future] = {}
        self.scheduler = Scheduler(
            self.auditor.analyse, self.publish, self.begin_progress, self.end_progress
        )

    def publish(self, analysis: Analysis) -> None:
        uri = analysis.snapshot.uri
        if uri not in self.store.documents:  # closed while its audit ended
            return
        self.analyses[uri] = analysis
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri, diagnostics(analysis), analysis.snapshot.version)
        )
        self.published.setdefault(uri, asyncio.Event()).set()

    def begin_progress(self, job: Job) -> None:
        """Work-done progress while the first audit of a document runs."""
        if job.snapshot.uri in self.analyses or not _supports_progress(self):
            return
        token = f"proofs-audit-{id(job)}"
        name = job.snapshot.uri.rsplit("/", 1)[-1]

        async def begin() -> str:
            await self.work_done_progress.create_async(token)
            self.work_done_progress.begin(
                token, types.WorkDoneProgressBegin(f"auditing {name}", cancellable=False)
            )
            return token

        self.begun[id(job)] = asyncio.ensure_future(begin())

    def end_progress(self, job: Job) -> None:
        begun = self.begun.pop(id(job), None)
        if begun is None:
            return

        def end(done: asyncio.Future) -> None:
            if not done.cancelled() and done.exception() is None:
                self.work_done_progress.end(done.result(), types.WorkDoneProgressEnd())

        begun.add_done_callback(end)

    async def fresh(self, uri: str, wait: float = 2.0) -> Analysis:
        """The analysis of the document's current version, waiting up to `wait` seconds
        for it; the latest one there is after that. InvalidParams when there is none."""
        current = _snapshot(self, uri)
        deadline = asyncio.get_running_loop().time() + wait
        while True:
            analysis = self.analyses.get(uri)
            if analysis is not None and analysis.snapshot.version == current.version:
                return analysis
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                break
            event = self.published.setdefault(uri, asyncio.Event())
            event.clear()
            try:
                await asyncio.wait_for(event.wait(), left)
            except TimeoutError:
                break
        if analysis is None:
            raise JsonRpcInvalidParams(f"{uri}: not audited yet")
        return analysis


def _supports_progress(server: LanguageServer) -> bool:
    window = server.client_capabilities.window
    return bool(window is not None and window.work_done_progress)


def _snapshot(server: ProofsServer, uri: str) -> Snapshot:
    try:
        return server.store.get(uri)
    except StoreError as exc:
        raise JsonRpcInvalidParams(str(exc)) from None


def _reader_position(analysis: Analysis, position: types.Position) -> tuple[int, int]:
    """The reader's line and character of an editor position; InvalidParams outside."""
    try:
        return analysis.snapshot.lines.reader_position(position.line, position.character)
    except OutOfRange as exc:
        raise JsonRpcInvalidParams(f"{analysis.snapshot.uri}: {exc}") from None


def _options(given: Any) -> tuple[float, float]:
    """debounce and budget from the initialization options, each a number of seconds."""
    given = given if isinstance(given, dict) else {}
    out = []
    for name, default in (("debounce", DEBOUNCE), ("budget", BUDGET)):
        value = given.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise JsonRpcInvalidParams(
                f"initializationOptions.{name}: expected a number of seconds >= 0, got {value!r}"
            )
        out.append(float(value))
    return out[0], out[1]


def make_server() -> ProofsServer:
    """The server with its handlers."""
    server = ProofsServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: ProofsServer, params: types.InitializeParams) -> None:
        ls.scheduler.debounce, ls.scheduler.budget = _options(params.initialization_options)
        ls.store.encoding = encoding_name(ls.workspace.position_encoding)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: ProofsServer, params: types.DidOpenTextDocumentParams) -> None:
        document = params.text_document
        ls.scheduler.submit(ls.store.open(document.uri, document.version, document.text), False)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: ProofsServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        edits = [
            change.text
            if isinstance(change, types.TextDocumentContentChangeWholeDocument)
            else (
                (change.range.start.line, change.range.start.character),
                (change.range.end.line, change.range.end.character),
                change.text,
            )
            for change in params.content_changes
        ]
        try:
            snapshot = ls.store.change(uri, params.text_document.version, edits)
        except StoreError as exc:
            logging.getLogger(NAME).warning("%s", exc)
            if uri not in ls.store.documents:
                said = f"{exc}; close and reopen the file to audit it"
                found = [at_top(said, types.DiagnosticSeverity.Warning, "out-of-step")]
                ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, found))
                return
            snapshot = ls.store.documents[uri]
        ls.scheduler.submit(snapshot)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: ProofsServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri in ls.store.documents:
            ls.scheduler.submit(ls.store.documents[uri], False)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: ProofsServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.store.close(uri)
        ls.scheduler.forget(uri)
        ls.analyses.pop(uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: ProofsServer, params: types.HoverParams) -> types.Hover | None:
        analysis = await ls.fresh(params.text_document.uri)
        line, character = _reader_position(analysis, params.position)
        heading = hover.element_at(analysis, line)
        if heading is not None:
            record, element = heading
            run = (
                None
                if element is None
                else await ls.scheduler.run(hover.check_run, analysis, record)
            )
            text: str | None = hover.element_hover(record, element, run)
        else:
            text = hover.number_hover(analysis, line, character)
        if text is None:
            return None
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL]),
    )
    async def code_action(
        ls: ProofsServer, params: types.CodeActionParams
    ) -> list[types.CodeAction]:
        analysis = await ls.fresh(params.text_document.uri)
        first, _ = _reader_position(analysis, params.range.start)
        last, _ = _reader_position(analysis, params.range.end)
        await ls.scheduler.run(actions.drifted, analysis)  # the package's regions, in the lane
        out = actions.sync_actions(analysis, first, last)
        can_create = _can_create_files(ls)
        for finding in _findings_of(analysis, params.context.diagnostics):
            suppress = actions.suppression_action(analysis, finding)
            accept = actions.baseline_action(analysis, finding, _open_text(ls), can_create)
            out += [a for a in (suppress, accept) if a is not None]
        return actions.of_kinds(out, params.context.only)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: ProofsServer, params: types.DefinitionParams) -> types.Location | None:
        analysis = await ls.fresh(params.text_document.uri)
        line, character = _reader_position(analysis, params.position)
        element = symbols.element_named(analysis, line, character)
        return None if element is None else symbols.check_location(element)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def document_symbol(
        ls: ProofsServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol]:
        return symbols.document_symbols(await ls.fresh(params.text_document.uri))

    return server


def _findings_of(analysis: Analysis, sent: Sequence[types.Diagnostic]) -> list[Finding]:
    """The findings behind the diagnostics the editor sends with a code action request
    (those of this server whose finding still says the same)."""
    report = analysis.report
    if report is None:
        return []
    out = []
    for d in sent:
        index = d.data.get("finding") if isinstance(d.data, dict) else None
        if isinstance(index, int) and 0 <= index < len(report.findings):
            finding = report.findings[index]
            if message(finding) == d.message:
                out.append(finding)
    return out


def _open_text(ls: ProofsServer):
    def opened(uri: str) -> tuple[int, str] | None:
        snapshot = ls.store.documents.get(uri)
        return None if snapshot is None else (snapshot.version, snapshot.text)

    return opened


def _can_create_files(ls: LanguageServer) -> bool:
    workspace = ls.client_capabilities.workspace
    edit = workspace.workspace_edit if workspace is not None else None
    return bool(
        edit is not None
        and edit.document_changes
        and types.ResourceOperationKind.Create in (edit.resource_operations or [])
    )


def serve(stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Serve one editor over these streams until it exits."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    guard_rules()
    make_server().start_io(stdin, stdout)
