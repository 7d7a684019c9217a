"""The audit's rules, one module per family: each reads a chapter's Document and returns
its findings, each finding with the code of the rule that made it."""
