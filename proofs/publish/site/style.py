"""The site's one style sheet, inlined in every page so that a page opened from file://
alone looks as it should. The marks' colours are those of the chapter map's fills
(proofs.publish.maps.FILL), with a darker bar of the same hue in the gutter."""

from __future__ import annotations

TEXT_FONTS = (  # monospace first, with Japanese glyphs of the same width
    '"Noto Sans Mono CJK JP", "Source Han Code JP", "BIZ UDGothic", "Osaka-Mono", '
    '"MS Gothic", ui-monospace, "DejaVu Sans Mono", monospace'
)
PROSE_FONTS = '"Noto Sans CJK JP", "Hiragino Sans", "Yu Gothic", system-ui, sans-serif'

CSS = f"""
:root {{
  --mismatched: #f4c5bb; --mismatched-bar: #b3261e;
  --not-checkable: #f6e7b4; --not-checkable-bar: #b58100;
  --confirmed: #eef7f0; --confirmed-bar: #2e7d32;
  --not-examined: #f3f3f3; --not-examined-bar: #9a9a9a;
}}
body {{ margin: 0; font-family: {PROSE_FONTS}; color: #1d1d1d; background: #fff; }}
header, nav.elements, section.chapter, .index {{ padding: 0 1.5rem; max-width: 72rem; }}
h1 {{ font-size: 1.4rem; margin: 1rem 0 .3rem; }}
h2 {{ font-size: 1.15rem; margin: 1.6rem 0 .3rem; }}
.where {{ color: #555; margin: 0 0 .6rem; font-size: .9rem; }}
dl.counts {{ display: flex; flex-wrap: wrap; gap: .3rem 1.4rem; margin: .4rem 0; }}
dl.counts div {{ display: flex; gap: .35rem; align-items: baseline; padding: 0 .4rem; }}
dl.counts dt {{ color: #555; font-size: .85rem; }}
dl.counts dd {{ margin: 0; font-weight: 600; }}
dl.counts .mismatched dd {{ color: var(--mismatched-bar); }}
dl.counts .not-checkable dd {{ color: var(--not-checkable-bar); }}
dl.counts .confirmed dd {{ color: var(--confirmed-bar); }}
ul.legend {{ display: flex; flex-wrap: wrap; gap: .3rem 1rem; list-style: none;
  padding: 0; margin: .4rem 0; font-size: .85rem; }}
ul.legend li {{ padding: 0 .4rem; border-left: 4px solid transparent; }}
ul.mismatches {{ margin: .3rem 0 .8rem; padding-left: 1.2rem; font-size: .9rem; }}
table.summary {{ border-collapse: collapse; font-size: .9rem; }}
table.summary th, table.summary td {{ padding: .2rem .7rem; border-bottom: 1px solid #ddd;
  text-align: left; }}
table.summary td.count {{ text-align: right; font-variant-numeric: tabular-nums; }}
table.summary td.count.mismatched {{ font-weight: 700; color: var(--mismatched-bar); }}
.map {{ overflow-x: auto; margin: .6rem 0 1.2rem; }}
.map svg {{ max-width: 100%; height: auto; }}
.map a rect {{ cursor: pointer; }}
.map a:hover rect, .map a:focus rect {{ fill-opacity: .12; }}
nav.elements ul {{ display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; padding: 0;
  margin: .4rem 0 1rem; font-size: .8rem; }}
.badge {{ display: inline-block; padding: 0 .45rem; border-radius: .7rem; font-size: .8rem;
  font-family: {PROSE_FONTS}; white-space: nowrap; border: 1px solid #bbb; }}
.badge.passed {{ background: #cfe8d6; }}
.badge.finding {{ background: #f3e2a9; }}
.badge.failed {{ background: #f4c5bb; }}
.badge.unchecked {{ background: #e6e6e6; }}
a.badge {{ color: inherit; text-decoration: none; }}
main.text {{ font-family: {TEXT_FONTS}; font-size: 14px; line-height: 1.65;
  border-top: 1px solid #ddd; margin-top: .6rem; }}
.line {{ display: grid; grid-template-columns: 4.2rem minmax(0, 1fr); }}
.line > .n {{ grid-column: 1; text-align: right; padding-right: .6rem; color: #8a8a8a;
  text-decoration: none; border-right: 4px solid transparent; user-select: none; }}
.line > .t {{ grid-column: 2; padding: 0 .8rem 0 .5rem; white-space: pre-wrap;
  overflow-wrap: anywhere; tab-size: 4; min-height: 1.65em; }}
.line > details {{ grid-column: 2; margin: 0 .8rem .3rem .5rem; font-family: {PROSE_FONTS};
  font-size: .82rem; line-height: 1.5; }}
.line > details > summary {{ cursor: pointer; color: #555; font-size: .75rem;
  line-height: 1.3; }}
.line > details ul {{ margin: .15rem 0 0; padding: .2rem .5rem .2rem 1.4rem;
  background: rgba(255, 255, 255, .82); border-radius: 3px; }}
.line > details pre {{ margin: .2rem 0 0; font-size: .78rem; white-space: pre-wrap; }}
.line .badge {{ margin-left: .8rem; }}
.mismatched {{ background: var(--mismatched); }}
.not-checkable {{ background: var(--not-checkable); }}
.confirmed {{ background: var(--confirmed); }}
.not-examined {{ background: var(--not-examined); }}
.line.mismatched > .n, ul.legend .mismatched {{ border-color: var(--mismatched-bar); }}
.line.not-checkable > .n, ul.legend .not-checkable {{ border-color: var(--not-checkable-bar); }}
.line.confirmed > .n, ul.legend .confirmed {{ border-color: var(--confirmed-bar); }}
.line.not-examined > .n, ul.legend .not-examined {{ border-color: var(--not-examined-bar); }}
.line.mismatched > .n {{ color: var(--mismatched-bar); font-weight: 700; }}
.line mark {{ background: none; text-decoration: underline wavy var(--mismatched-bar);
  text-underline-offset: 3px; }}
details li.mismatched, details li.not-checkable, details li.confirmed,
details li.not-examined {{ background: none; }}
details li .status {{ font-weight: 600; }}
details li.mismatched .status {{ color: var(--mismatched-bar); }}
details li.mismatched.warning .status {{ color: #8a5a00; font-style: italic; }}
details li.not-checkable .status {{ color: var(--not-checkable-bar); }}
details li.confirmed .status {{ color: var(--confirmed-bar); }}
details li.not-examined .status {{ color: var(--not-examined-bar); }}
details code {{ font-family: {TEXT_FONTS}; background: rgba(255, 255, 255, .6); }}
.line:target, .badge:target {{ outline: 2px solid #1d1d1d; outline-offset: -2px; }}
"""
