"""`python -m proofs lsp` without the editor extra: one line naming what to install, exit
code 2, never a traceback (the extra's absence is made by refusing the import of pygls;
where lsprotocol is missing too, the line names it)."""

from __future__ import annotations

import re
import subprocess
import sys

WITHOUT_PYGLS = (
    "import sys; sys.modules['pygls'] = None; from proofs.cli import main; sys.exit(main(['lsp']))"
)


def test_lsp_without_the_editor_extra_says_what_to_install():
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_PYGLS],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert done.returncode == 2
    said = r"proofs: lsp: the editor extra is not installed \((pygls|lsprotocol)\): "
    assert re.fullmatch(said + re.escape("pip install 'transformer-proofs[editor]'\n"), done.stderr)
    assert done.stdout == ""
