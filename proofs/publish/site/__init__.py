"""The annotated site of an audit (`proofs audit FILE… --html DIR`): static pages that
show each chapter's text with the findings at their lines, and an index of the chapters
with their counts and maps. Plain HTML and CSS, no script: it opens from file://.

Records first (marks: which line is what, which element has which result), then pages
(chapter_page, index_page, around frame and style), then the files (writer)."""

from proofs.publish.site.writer import INDEX, check_site, page_names, write_site

__all__ = ["INDEX", "check_site", "page_names", "write_site"]
