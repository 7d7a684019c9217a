"""`proofs lsp`: the language server of docs/editor.md, over standard input and output."""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO, cast

from proofs.cli.arguments import UsageError
from proofs.cli.verify import load_registry

EXTRA = "pip install 'transformer-proofs[editor]'"


def add_parser(sub: argparse._SubParsersAction) -> None:
    sub.add_parser(
        "lsp",
        help="the audit in an editor: a language server on stdin and stdout (docs/editor.md)",
        description="Serve an editor over the Language Server Protocol on standard input and "
        "output: the audit's findings as diagnostics while a chapter is typed, hovers, code "
        f"actions (sync, suppress, accept in the baseline), the outline. Needs {EXTRA}.",
    )


def lsp(args: argparse.Namespace) -> int:
    try:
        from proofs.lsp.server import serve
    except ImportError as exc:
        missing = (exc.name or "pygls").split(".")[0]
        raise UsageError(f"lsp: the editor extra is not installed ({missing}): {EXTRA}") from None
    from proofs.book.profiles import load_profile

    load_profile(None, in_cache=True)  # for the checks of the examples and exercises
    load_registry()
    protocol = sys.__stdout__
    if protocol is None:
        raise UsageError("lsp: standard output is closed; the server speaks over it")
    sys.stdout = sys.stderr  # whatever prints goes to stderr, never into the protocol
    serve(sys.stdin.buffer, cast(BinaryIO, protocol.buffer))
    return 0
