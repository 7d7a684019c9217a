"""What the audit's rules share to decide a chapter's formulas and numbers: the chapter's
own notation read from what it declares and defines (`defined`), its statements tried at
points (`instances`), the open notation of a chapter without one (`notation`), printed
decimals read as the constants they round (`readings`), a formula's place in its sentence
(`sentence`), and claims compared by what they say (`meaning`). Nothing here reports a
finding: the rules (proofs.audit.rules) do."""
