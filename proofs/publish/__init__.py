"""What the package publishes from the registry and the chapters: the verify screen, each
chapter's map, the catalogue of pictures, and the LaTeX files of the formulas."""
