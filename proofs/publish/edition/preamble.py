"""The preamble every file of the print edition shares: the class (jlreq, a book set in
Japanese for LuaLaTeX), the packages the chapters' formulas, tables and listings need, and
the environments the chapter body is written in.

The environments, so that a chapter's LaTeX names what each piece is, not how it looks:

- `\\booksection{3}{…}`, `\\booksubsection{4.1}{…}`: sections numbered as the chapter
  numbers them; `\\bookunnumbered{参考文献}`;
- `bookelement` (a box titled 命題 3.2（…）) with `\\booklabel` and `\\bookcheck` (the line
  under the heading saying the check's result), `bookproof` (証明 … ■), `booksolution`
  (解答), `bookaside` (an MDX `<Aside>`), `booksummary` (the chapter's lead);
- `\\fitdisplay`: a display scaled to the line when it is wider;
- `bookcode` and `bookoutput`: a listing and what it prints (fvextra, lines broken to the
  line; no shell escape), their \\ { } written \\textbackslash{} \\{ \\} (blocks.verbatim);
- `booktable`, `\\bookfigure`, `\\bookplaceholder`, `bookreferences`;
- `\\bookchar{007F}`: a character that is no glyph, shown by its code point in a frame.

In the body, ^ is an ordinary character: the chapter's text never holds one (prose writes
it \\textasciicircum, a formula's superscript is \\sp), and TeX reads ^^ followed by two
hex digits as the character they name before any command runs (^^5c is a backslash), so
a ^ that slipped through would still begin no command.
"""

from __future__ import annotations

# paper -> (jlreq's paper option, the line length in zw): a line of 42 (A4) or 36 (B5)
# full-width characters, as Japanese books set them
PAPERS = {"a4": ("a4", 42), "b5": ("{176mm,250mm}", 36)}
FONT_SIZE = 10  # pt; jlreq's zw is then 10 pt, one em of the body

COLOURS = {  # the frames of the elements, by kind, and the marks, by result
    "book-definition": "blue!55!black",
    "book-proposition": "teal!60!black",
    "book-lemma": "teal!60!black",
    "book-theorem": "teal!70!black",
    "book-corollary": "teal!60!black",
    "book-example": "green!45!black",
    "book-remark": "gray!70!black",
    "book-exercise": "orange!75!black",
    "check-passed": "green!45!black",
    "check-finding": "orange!85!black",
    "check-failed": "red!75!black",
    "check-unchecked": "gray!75!black",
    "check-not-run": "gray!75!black",
    "check-no-check": "gray!75!black",
}

_DEFINITIONS = r"""
\usepackage{amsmath,amssymb,mathtools}
\usepackage{bm}
\usepackage{graphicx,xcolor}
\usepackage{booktabs,array,tabularx,adjustbox}
\usepackage{fvextra}
\usepackage{tcolorbox}
\tcbuselibrary{breakable,skins}
\usepackage{xurl}
\usepackage[hidelinks,bookmarksnumbered]{hyperref}
\emergencystretch=2em
%COLOURS%
\makeatletter
\newcommand\booklabel[2]{\phantomsection\def\@currentlabel{#2}\label{#1}}
\makeatother
\newcommand\booksection[2]{\renewcommand\thesection{#1}\section{#2}}
\newcommand\booksubsection[2]{\renewcommand\thesubsection{#1}\subsection{#2}}
\newcommand\bookunnumbered[1]{\section*{#1}\addcontentsline{toc}{section}{#1}}
\newsavebox\bookdisplaybox
\newcommand\fitdisplay[1]{\sbox\bookdisplaybox{$\displaystyle #1$}%
  \ifdim\wd\bookdisplaybox>\linewidth\resizebox{\linewidth}{!}{\usebox\bookdisplaybox}%
  \else\usebox\bookdisplaybox\fi}
\newtcolorbox{bookelement}[2]{breakable, enhanced, colframe=book-#1, colback=white,
  colbacktitle=book-#1!12, coltitle=black, fonttitle=\sffamily\bfseries, title={#2},
  boxrule=0.6pt, arc=1pt, left=6pt, right=6pt, before skip=10pt, after skip=10pt,
  before upper={\parindent=1\zw}}
\newcommand\bookcheck[3]{\par\noindent{\footnotesize\sffamily
  \colorbox{check-#1!15}{\textcolor{check-#1}{\bfseries #2}}\enspace #3\par}\smallskip}
\newcommand\bookresults[1]{\par\noindent{\footnotesize\sffamily #1\par}\medskip}
\newcommand\bookhead[1]{\par\addvspace{\medskipamount}\noindent{\sffamily\bfseries #1}%
  \par\nopagebreak}
\newenvironment{bookproof}[1]{\bookhead{#1}}
  {\nobreak\hfill\ensuremath{\blacksquare}\par\addvspace{\medskipamount}}
\newenvironment{booksolution}[1]{\bookhead{#1}}{\par\addvspace{\medskipamount}}
\newtcolorbox{bookaside}[1]{breakable, colback=gray!5, colframe=gray!50, boxrule=0.4pt,
  arc=1pt, colbacktitle=gray!15, coltitle=black, fonttitle=\sffamily\bfseries, title={#1}}
\newenvironment{booksummary}{\begin{quote}\small}{\end{quote}}
\newenvironment{booktable}{\par\addvspace{\medskipamount}\begin{center}\small}
  {\end{center}\par\addvspace{\medskipamount}}
\DefineVerbatimEnvironment{bookcode}{Verbatim}{fontsize=\small, breaklines, tabsize=4,
  commandchars=\\\{\}, frame=leftline, framerule=1pt, rulecolor=\color{gray!60},
  xleftmargin=0.5em}
\DefineVerbatimEnvironment{bookoutput}{Verbatim}{fontsize=\small, breaklines, tabsize=4,
  commandchars=\\\{\}, frame=single, rulecolor=\color{gray!60}, xleftmargin=0.5em,
  label=\textsf{出力}}
\newcommand\bookfigure[2]{\begin{center}\includegraphics[width=0.8\linewidth,
  height=0.3\textheight,keepaspectratio]{#1}\par\smallskip
  \parbox{0.9\linewidth}{\small #2}\end{center}}
\newcommand\bookplaceholder[1]{\begin{center}\fbox{\parbox[c][3cm][c]{0.8\linewidth}{%
  \centering\small（図はこの版に描かれていない）}}\par\smallskip
  \parbox{0.9\linewidth}{\small #1}\end{center}}
\newenvironment{bookreferences}{\begin{list}{}{\small\setlength\leftmargin{2.5em}%
  \setlength\labelwidth{2em}\setlength\labelsep{0.5em}}\raggedright}{\end{list}}
\DeclareRobustCommand\bookchar[1]{{\fboxsep=0.5pt\fbox{\ttfamily\scriptsize U+#1}}}
\pdfstringdefDisableCommands{\def\bookchar#1{U+#1}}
\AddToHook{begindocument/end}{\catcode`\^=12 }
"""


def line_em(paper: str) -> int:
    """The length of the body's line on `paper`, in em of the body (= zw)."""
    return PAPERS[paper][1]


def preamble(paper: str = "a4") -> str:
    """The document class and everything before \\begin{document}."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {tuple(PAPERS)}, got {paper!r}")
    option, line = PAPERS[paper]
    colours = "\n".join(f"\\colorlet{{{name}}}{{{value}}}" for name, value in COLOURS.items())
    options = f"book,paper={option},fontsize={FONT_SIZE}pt,line_length={line}zw,openany"
    return f"\\documentclass[{options}]{{jlreq}}" + _DEFINITIONS.replace("%COLOURS%", colours)
