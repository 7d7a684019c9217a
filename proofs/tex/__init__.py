"""The chapters' formulas: TeX read into a tree (`tree`), evaluated in SymPy under a
chapter's notation (`symbolic`) or as interval arithmetic on printed numbers
(`arithmetic`), and a relation decided in that notation (`decide`)."""
