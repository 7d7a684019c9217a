"""The listing-sandbox benchmark's table (benchmarks/listing_sandbox.py), on made-up runs."""

from __future__ import annotations

from benchmarks import listing_sandbox


def test_each_listing_has_its_median_either_way_and_their_ratio(monkeypatch, tmp_path):
    seconds = {False: iter([1.0, 3.0, 2.0]), True: iter([1.5, 4.5, 3.0])}

    def fake(document, contain):
        second = next(seconds[contain])
        return [("a.py", second), ("listing_9.py", 2 * second)]

    monkeypatch.setattr(listing_sandbox, "why_not_contained", lambda memory, disk: "")
    (tmp_path / listing_sandbox.SEED).write_text("", encoding="utf-8")
    monkeypatch.setattr(listing_sandbox, "chapter_folders", lambda: [tmp_path])
    monkeypatch.setattr(listing_sandbox, "read_chapter", lambda path: None)
    monkeypatch.setattr(listing_sandbox, "seconds_by_listing", fake)
    monkeypatch.setattr(listing_sandbox, "starting", lambda contain: 0.2 if contain else 0.1)
    lines: list[str] = []
    listing_sandbox.main(["--rounds", "3"], lines.append)
    rows = [line.split() for line in lines[2:6]]
    assert rows == [
        ["a.py", "2.000", "s", "3.000", "s", "1.50"],
        ["listing_9.py", "4.000", "s", "6.000", "s", "1.50"],
        ["the", "chapter", "6.000", "s", "9.000", "s", "1.50"],
        ["start", "and", "end", "0.100", "s", "0.200", "s", "2.00"],
    ]


def test_a_machine_without_a_sandbox_is_said_and_nothing_is_run(monkeypatch):
    monkeypatch.setattr(listing_sandbox, "why_not_contained", lambda memory, disk: "no bwrap")
    lines: list[str] = []
    listing_sandbox.main([], lines.append)
    assert lines == ["no sandbox on this machine (no bwrap): nothing to compare"]
