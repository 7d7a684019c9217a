"""Checks of every element of the two chapters, tables, LaTeX export and the command line."""
