"""docs/RULES.md is the shared rules page, and every part of it the code cites still exists.

The help texts come from walking the ``boardgames`` click group (its lazy subcommands load
themselves) and the sources from a glob of ``boardgames/**/*.py``, so nothing here depends
on which module a command lives in.

RULES.md numbering: ``## 2. Title`` is section 2; the items of the numbered list at the
start of a line inside section 2 are 2.1, 2.2, ... (``RULES.md 1.4`` is item 4 of the list
in section 1). A deeper heading ``### 2.3 Title`` would be section 2.3.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "RULES.md"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
SOURCES = ROOT / "boardgames"

# --- RULES.md structure --------------------------------------------------------------------

_HEADING = re.compile(r"^#{2,6}\s+(\d+(?:\.\d+)*)\.?\s+(\S.*)$")
_ITEM = re.compile(r"^(\d+)\.\s+(\S.*)$")


def rules_sections(text: str) -> dict[str, str]:
    """Section number -> its heading title, or the first line of a numbered list item.

    Raises ValueError when a number occurs twice (a citation of it would be ambiguous).
    """
    sections: dict[str, str] = {}
    current: str | None = None
    fenced = False
    for line in text.splitlines():
        if line.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced:
            continue
        if heading := _HEADING.match(line):
            number, title = heading.groups()
            current = number
        elif current is not None and (item := _ITEM.match(line)):
            number, title = f"{current}.{item.group(1)}", item.group(2)
        else:
            continue
        if number in sections:
            raise ValueError(f"RULES.md numbers {number} twice: {sections[number]!r}, {title!r}")
        sections[number] = title.strip()
    return sections


# --- citations -----------------------------------------------------------------------------

_NUMBER = r"\d+(?:\.\d+)*(?!\.?\w)"  # "1", "2.4"; not the "2" of "2m+2"
_JOIN = r"\s*(?:-|–|,|and|or|to)\s*(?:§\s*)?"
_CITATION = re.compile(
    rf"RULES\.md,?\s+(?:§\s*|sections?\s+|§§\s*)?(?P<refs>{_NUMBER}(?:{_JOIN}{_NUMBER})*)"
)
_RANGE = re.compile(rf"(?P<first>{_NUMBER})\s*(?:-|–|to)\s*(?:§\s*)?(?P<last>{_NUMBER})")
# RULES.md citing itself: "as in 1.3", "unlike 1.5"
_SELF_CITATION = re.compile(r"\b(?:as in|in|unlike|see|of)\s+(?P<refs>\d+\.\d+)(?!\.?\w)")

# Help texts that cite RULES.md without a number name the part they rely on; each such
# phrase (a regex on the help text, whitespace collapsed) maps to a regex that must match
# RULES.md (multiline).
NAMED_PARTS: dict[str, tuple[str, str]] = {
    r"compound moves \(RULES\.md\)": ("the paragraph 'Compound moves.'", r"^Compound moves\."),
    r"RULES\.md (?:order|numbering)": ("the paragraph 'Numbering'", r"^Numbering\b"),
}


def _flat(text: str) -> str:
    return " ".join(text.split())


def _expand(refs: str) -> list[str]:
    """'1-3' -> 1, 2, 3; '1.1-1.4' -> 1.1 ... 1.4; '1, 2.4' -> 1, 2.4."""
    numbers: list[str] = []
    for part in re.split(r"\s*(?:,|and|or)\s*", refs):
        if not part:
            continue
        span = _RANGE.fullmatch(part)
        if span is None:
            numbers.append(part.lstrip("§ "))
            continue
        first, last = span["first"], span["last"]
        head_first, _, tail_first = first.rpartition(".")
        head_last, _, tail_last = last.rpartition(".")
        if head_first == head_last and int(tail_first) <= int(tail_last):
            prefix = f"{head_first}." if head_first else ""
            numbers += [f"{prefix}{i}" for i in range(int(tail_first), int(tail_last) + 1)]
        else:
            numbers += [first, last]
    return numbers


def cited_numbers(text: str, pattern: re.Pattern[str] = _CITATION) -> list[str]:
    """Every section number that ``text`` cites, ranges expanded, in order."""
    return [n for m in pattern.finditer(_flat(text)) for n in _expand(m["refs"])]


def missing(citations: dict[str, list[str]], sections: dict[str, str]) -> list[str]:
    """'where: RULES.md N' for every cited number that is not a section of RULES.md."""
    return [
        f"{where}: RULES.md {number}"
        for where, numbers in citations.items()
        for number in numbers
        if number not in sections
    ]


# --- what the project cites ----------------------------------------------------------------


@functools.cache
def help_pages() -> dict[str, str]:
    """Command path -> help text, for every command and subcommand of ``boardgames``."""
    from boardgames.cli import cli

    pages: dict[str, str] = {}

    def walk(command: click.Command, name: str, parent: click.Context | None) -> None:
        ctx = click.Context(command, info_name=name, parent=parent)
        pages[ctx.command_path] = command.get_help(ctx)
        if isinstance(command, click.Group):
            for sub in command.list_commands(ctx):
                child = command.get_command(ctx, sub)
                assert child is not None, f"{ctx.command_path} lists {sub!r} but cannot load it"
                walk(child, sub, ctx)

    walk(cli, "boardgames", None)
    return pages


@functools.cache
def source_texts() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for path in sorted(SOURCES.rglob("*.py"))
    }


@functools.cache
def rules_text() -> str:
    return RULES.read_text(encoding="utf-8")


# --- the checks ----------------------------------------------------------------------------


def test_rules_page_names_its_origin() -> None:
    first = rules_text().split("\n", 1)[0]
    assert first.startswith("<!--") and first.endswith("-->"), first
    assert "shared/RULES.md" in first, first


@pytest.mark.skipif(
    not SHARED.is_file(), reason=f"no shared rules page beside the project ({SHARED})"
)
def test_rules_page_is_the_shared_page() -> None:
    body = rules_text().split("\n", 1)[1]
    assert body == SHARED.read_text(encoding="utf-8"), (
        "docs/RULES.md differs from the shared RULES.md below its first line; "
        "copy the shared page (it is the authority), keep the first line"
    )


def test_rules_page_numbers_are_unique_and_present() -> None:
    sections = rules_sections(rules_text())
    assert {"1", "2", "3", "4", "5"} <= sections.keys(), sections


def test_help_texts_cite_existing_sections() -> None:
    pages = help_pages()
    assert {"boardgames", "boardgames kalah", "boardgames nim", "boardgames queens"} <= set(
        pages
    ), sorted(pages)
    citations = {path: cited_numbers(text) for path, text in pages.items()}
    assert any(citations.values()), "no help text cites a RULES.md section: citation regex broken?"
    assert missing(citations, rules_sections(rules_text())) == []


def test_help_texts_cite_rules_by_number_or_known_name() -> None:
    text = rules_text()
    unexplained = []
    for path, page in help_pages().items():
        flat = _flat(page)
        for mention in re.finditer(r"RULES\.md", flat):
            if _CITATION.match(flat, mention.start()):
                continue
            window = flat[max(0, mention.start() - 40) : mention.end() + 40]
            if not any(re.search(phrase, window) for phrase in NAMED_PARTS):
                unexplained.append(f"{path}: ...{window}...")
    assert unexplained == [], (
        "help text cites RULES.md by neither a section number nor a phrase in NAMED_PARTS"
    )
    all_help = _flat("\n".join(help_pages().values()))
    for phrase, (what, anchor) in NAMED_PARTS.items():
        if re.search(phrase, all_help):
            assert re.search(anchor, text, re.MULTILINE), f"RULES.md lost {what}"


def test_sources_cite_existing_sections() -> None:
    citations = {path: cited_numbers(text) for path, text in source_texts().items()}
    assert sum(map(len, citations.values())) >= 5, "too few citations found: regex broken?"
    assert missing(citations, rules_sections(rules_text())) == []


def test_rules_page_cites_its_own_existing_sections() -> None:
    text = rules_text()
    cited = cited_numbers(text, _SELF_CITATION)
    assert cited, "RULES.md cites none of its own items: regex broken?"
    assert missing({"RULES.md": cited}, rules_sections(text)) == []


# --- the checker itself --------------------------------------------------------------------

_SAMPLE = """# Rules

## 1. Kalah

A move:
1. Sow.
2. Extra turn.
3. Capture.

    1. indented: not an item

## 2. Nim
"""


def test_parser_numbers_headings_and_items() -> None:
    assert rules_sections(_SAMPLE) == {
        "1": "Kalah",
        "1.1": "Sow.",
        "1.2": "Extra turn.",
        "1.3": "Capture.",
        "2": "Nim",
    }
    assert rules_sections("### 2.3 Relays\n## 4 Nim\n") == {"2.3": "Relays", "4": "Nim"}
    with pytest.raises(ValueError, match="twice"):
        rules_sections("## 1. A\n1. x\n## 1. B\n")


def test_citation_forms() -> None:
    text = """Kalah (RULES.md sections 1-3); classic (RULES.md 1) and Etudes (RULES.md 2).
    RULES.md 1.1-1.4: sow; end (RULES.md 2.4). (RULES.md
    section 5). RULES.md § 4. RULES.md 1, 2.2 and 3. RULES.md 1.5. Not cited: RULES.md
    order, RULES.md 2m+2, (RULES.md)."""
    assert cited_numbers(text) == [
        *["1", "2", "3", "1", "2", "1.1", "1.2", "1.3", "1.4", "2.4", "5", "4"],
        *["1", "2.2", "3", "1.5"],
    ]


def test_renamed_or_removed_section_is_caught() -> None:
    sections = rules_sections(_SAMPLE)
    assert missing({"x": cited_numbers("RULES.md 1.3, RULES.md section 2")}, sections) == []
    assert missing({"x": cited_numbers("RULES.md 1.4 and RULES.md 3")}, sections) == [
        "x: RULES.md 1.4",
        "x: RULES.md 3",
    ]
    # the real page without its Nim heading: the nim help's citation is reported
    broken = re.sub(r"^## 4\. .*$", "## Nim (Bouton)", rules_text(), flags=re.MULTILINE)
    citations = {path: cited_numbers(text) for path, text in help_pages().items()}
    assert "boardgames nim: RULES.md 4" in missing(citations, rules_sections(broken))
