"""The book as the package knows it: the registry of chapters and their elements, the
claims a check reads from the chapter and how it reads them (`claims`, `stated`,
`printed`), the named formulas, the judge of a check's verdict, the Hypothesis profiles,
and the skeleton package of a new chapter (`scaffold`)."""
