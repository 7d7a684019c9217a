"""docs/api.md is what proofs.publish.api_page writes from the docstrings now, and every
name it lists shows an example, which the doctests run."""

import inspect

from proofs.publish import api_page


def test_the_api_page_is_not_stale():
    written = api_page.PAGE.read_text(encoding="utf-8")
    assert written == api_page.page(), (
        "docs/api.md is stale: python -m proofs.publish.api_page rewrites it"
    )


def test_every_name_of_the_api_page_has_an_example():
    missing = [
        f"{module}.{name}"
        for module, names, _ in api_page.SECTIONS
        for name, value in api_page.public_names(module, names)
        if ">>>" not in (inspect.getdoc(value) or "")
    ]
    assert missing == []


def test_the_api_page_lists_every_reader_of_claims_and_every_known_name():
    text = api_page.page()
    readers = api_page.public_names("proofs.book.stated", ())
    assert len(readers) >= 30
    assert all(f"### `{name}`" in text for name, _ in readers)
    assert "| `log` | the natural logarithm" in text


def test_a_keyword_only_signature_is_written_as_python_writes_it():
    def check(x, /, y, *, stated: "int" = 1) -> "list[str]":
        """A check."""

    assert api_page.signature("check", check) == "check(x, /, y, *, stated: int = 1) -> list[str]"
