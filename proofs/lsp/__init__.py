"""The audit in the author's editor: a language server (`python -m proofs lsp`).

The chapter's findings as diagnostics while it is typed, hovers that say what a check or
a rule found, code actions that sync a drifted region, suppress a finding or accept it in
the baseline, the outline of sections and elements, and go to definition of a check
(docs/editor.md). Needs the `editor` extra (pygls and lsprotocol).

- `store`: the open documents, one snapshot per version;
- `positions`: the reader's lines and columns against the editor's;
- `incremental`: the audit of each version, reusing what earlier ones decided;
- `guard`: a rule that raises, reported without losing the others' findings;
- `scheduler`: when audits run, and stopping those a newer version supersedes;
- `diagnostics`, `hover`, `actions`, `symbols`: what each feature answers;
- `server`: the handlers.
"""
