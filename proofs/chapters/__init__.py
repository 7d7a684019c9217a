"""The chapters of the book, one package each; `proofs.book.registry` discovers them.

A chapter package defines `CHAPTER = Chapter(...)` in its `chapter.py` and
imports, in its `__init__.py`, the modules that register its checks, tables,
formulas and listings. Nothing outside this folder names a chapter.
"""
