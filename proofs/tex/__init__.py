"""The chapters' formulas: TeX split into tokens (`tokens`) and read by one parser into a
tree (`tree`), evaluated in SymPy under a chapter's notation (`symbolic`) or as interval
arithmetic on printed numbers (`intervals`, behind the audit's evaluator `arithmetic`), and
a relation decided in that notation (`decide`)."""
