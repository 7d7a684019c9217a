"""Checks of every element of the two chapters, tables, LaTeX export and the command line."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("transformer-proofs")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"
