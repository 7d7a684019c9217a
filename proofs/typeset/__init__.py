"""How the book's material is typeset, without knowing the book: TeX text, tables in
every format the chapters use, the SVG figure style, and matplotlib plots."""
