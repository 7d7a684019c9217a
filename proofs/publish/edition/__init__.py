"""The print edition: a chapter file, in either form, as a LuaLaTeX book chapter that says
under each element what its check found.

Read → plan → write: `parts` says what the edition needs to know of each chapter (its
labels, the name citations give it, its figures), `marks` each element's result (checks
run, or a report of verify --json), `text` and `links` the running text and its references,
`formulas` the allow-list a formula passes to reach the LaTeX,
`tables` the tables' layout, `blocks` the chapter line by line, `preamble` the class and
environments, and `files` the documents: one chapter, or a book of several.
"""
