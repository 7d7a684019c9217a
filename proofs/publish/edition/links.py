"""Where a reference of a chapter leads in print: to an element of the edition (its own
chapter's, or another chapter's printed in the same book) as a \\hyperref, to the web as
a \\href when the chapter states its address, else to nothing, as plain text.

Every element of a chapter is labelled `<part>:<kind>-<number>` (c1:prop-3.2), so that
two chapters of a book, which number their elements alike, never share a label.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from proofs.publish.edition.parts import Part
from proofs.publish.edition.text import escape, glyphless
from proofs.reader.records import ID_PREFIXES, Element

MAX_URL = 2000  # characters of a link the edition writes as one; a longer one is text


def _key(number: str) -> str:
    """A number as a label holds it: its ASCII letters, digits and points, any other
    character by its code point (the readers' numbers are digits, but \\d is Unicode's)."""
    return re.sub(r"[^0-9A-Za-z.]", lambda m: f"+{ord(m.group()):X}", number)


def label(part: Part, element: Element) -> str:
    """The LaTeX label of an element: c1:prop-3.2."""
    return f"{part.label}:{ID_PREFIXES[element.kind]}-{_key(element.number.split()[-1])}"


def reference_label(part: Part, number: str) -> str:
    """The anchor of the entry [number] of a chapter's references list."""
    return f"{part.label}:ref-{_key(number)}"


def url_tex(url: str) -> str:
    """A URL as \\href and \\url take it in any context (a table cell, a heading, a bold
    span): # % & _ escaped, which hyperref reads back as the characters, and the characters
    TeX would read as commands, groups, math or white space, and the glyphless ones,
    percent-encoded.

    >>> print(url_tex("https://example.com/a_b?c=1&d=$2#e f"))
    https://example.com/a\\_b?c=1\\&d=\\%242\\#e\\%20f
    """
    encoded = "".join(_percent(ch) if ch in "\\{}^~$ \t" or glyphless(ch) else ch for ch in url)
    return re.sub(r"([#%&_])", r"\\\1", encoded)


def _percent(ch: str) -> str:
    return "".join(f"%{byte:02X}" for byte in ch.encode("utf-8", "surrogatepass"))


class Links:
    """The references of one chapter (`part`) of an edition of `parts`."""

    def __init__(self, part: Part, parts: Sequence[Part]) -> None:
        self.part = part
        self.parts = parts

    def _to(self, part: Part, element: Element | None, text: str) -> str | None:
        if element is None:
            return None
        return f"\\hyperref[{label(part, element)}]{{{text}}}"

    def ref(self, target: str) -> str:
        """An MDX `<Ref to=…/>`: an id of this chapter, or a site path `a/b/page#id`."""
        own = self.part.document.element(target)
        if own is not None:
            return self._to(self.part, own, escape(own.number)) or ""
        page, _, anchor = target.partition("#")
        for other in self.parts:
            if other.address and other.address.rstrip("/").endswith("/" + page.split("/")[-1]):
                found = other.document.element(anchor)
                shown = escape(f"{found.number}［{other.short}］") if found else ""
                linked = self._to(other, found, shown)
                if linked is not None:
                    return linked
        shown = escape(f"{page.split('/')[-1]}#{anchor}" if anchor else page)
        return self.href(f"/{target}", shown) if "/" in target else shown

    def cited(self, label_word: str, number: str, chapter: str) -> str:
        """A rendered citation: 命題 3.1 of this chapter, 命題 7.2［自己注意］ of another."""
        text = f"{label_word} {number}"
        shown = escape(f"{text}［{chapter}］" if chapter else text)
        if not chapter or chapter == self.part.short:
            return self._to(self.part, self.part.document.element(text), shown) or shown
        for other in self.parts:
            if other.short == chapter:
                return self._to(other, other.document.element(text), shown) or shown
        return shown

    def href(self, url: str, text: str) -> str:
        """A link: a full URL as it is, a site-relative one (/a/b) on the chapter's site;
        the text alone when the chapter states no site."""
        if url.startswith("/"):
            if not self.part.site:
                return text
            url = self.part.site + url
        if not re.match(r"https?://", url) or len(url) > MAX_URL:
            return text
        return f"\\href{{{url_tex(url)}}}{{{text}}}"

    def url(self, url: str) -> str:
        """A URL written out in the text, broken anywhere at the end of a line (xurl)."""
        if len(url) > MAX_URL:
            return escape(url)
        return f"\\url{{{url_tex(url)}}}"

    def citation(self, numbers: str) -> str:
        """A citation [1] (or [1, 2]) of the chapter's references list, each number linked
        to its entry when the list has it."""
        parts = [n.strip() for n in numbers.split(",")]
        linked = [
            f"\\hyperlink{{{reference_label(self.part, n)}}}{{{n}}}"
            if n in self.part.references
            else n
            for n in parts
        ]
        return "[" + ", ".join(linked) + "]"
