"""The language server with one rule that raises (the rule of numbers printed twice), as
a defect of the package would make it: tests/lsp/test_server.py starts it to see the
crash reported and the other rules' findings still delivered."""

import sys


def _raises(*args, **kwargs):
    raise ZeroDivisionError("a defect of the rule")


if __name__ == "__main__":
    import proofs.audit
    from proofs.cli import main

    proofs.audit.audit_restated = _raises
    sys.exit(main(["lsp"]))
