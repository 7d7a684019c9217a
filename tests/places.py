"""Where the tests find the repository, the seed chapters and their own inputs: one
place for the paths that every folder of tests would otherwise compute from its depth."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SEEDS = ROOT.parent / "shared" / "seeds"  # the development default of the chapters' folder
SAMPLES = TESTS / "samples"  # small chapters of both forms, written for the tests
CORPUS = TESTS / "corpus"  # two chapters the package has never seen, and their slips
MDX = TESTS / "mdx"  # the MDX compiler a docs site uses
