"""The README and the user guide work as written: every link and picture points to a file
(and a heading) that exists, and every command they show is one the command line takes,
with options it has. The commands are parsed by the command line's own parser
(``addin.cli.build_parser``), never run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from addin.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
GUIDES = [ROOT / "README.md", ROOT / "docs" / "guide.md", ROOT / "docs" / "performance.md"]
"""The documents whose commands are checked (the others are references for developers)."""

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)\)")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
INLINE = re.compile(r"`((?:python -m addin|mcmahon|aga-mcmahon) [^`]+)`")


def anchor(title: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def headings(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {anchor(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def links(path: Path) -> list[str]:
    return LINK.findall(FENCE.sub("", path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_picture_points_to_a_file_and_heading_that_exist(document: Path) -> None:
    broken = []
    for target in links(document):
        if re.match(r"[a-z]+:", target):  # https:, mailto:: not this repository's
            continue
        file, _, fragment = target.partition("#")
        found = (document.parent / file).resolve() if file else document
        if not found.exists():
            broken.append(f"{target}: no file {found.relative_to(ROOT)}")
        elif fragment and found.suffix == ".md" and fragment not in headings(found):
            broken.append(f"{target}: no heading #{fragment} in {found.relative_to(ROOT)}")
    assert broken == []


def test_the_links_are_found() -> None:
    """The pattern finds the README's links, pictures and a guide's anchors."""
    readme = links(ROOT / "README.md")
    assert "docs/guide.md" in readme and "docs/img/round-sheet.png" in readme
    assert "#the-pre-registration-csv" in links(ROOT / "docs" / "guide.md")


def commands(document: Path) -> list[str]:
    """The command lines a document shows: in its code blocks, and whole in inline code."""
    text = document.read_text(encoding="utf-8")
    found = []
    for block in FENCE.findall(text):
        for line in block.replace("\\\n", " ").splitlines():
            for part in re.split(r"&&|\|\||;", line.split(" #")[0]):
                if arguments(part) is not None:
                    found.append(part.strip())
    prose = FENCE.sub("", text)
    found += [c for c in INLINE.findall(" ".join(prose.split())) if not re.search(r"\.\.\.|\[", c)]
    return found


def arguments(command: str) -> list[str] | None:
    """What the command line gets: the words after ``python -m addin`` or ``mcmahon``;
    None for another program's command."""
    words = shlex.split(command)
    if words and Path(words[0]).name in ("mcmahon", "aga-mcmahon"):
        return words[1:]
    if words[1:3] == ["-m", "addin"] and "python" in Path(words[0]).name:
        return words[3:]
    return None


def argv(command: str) -> list[str]:
    words = arguments(command)
    assert words is not None, f"not a command of this program: {command}"
    return words


def refusal(parser: argparse.ArgumentParser, argv: list[str]) -> str | None:
    """The parser's usage error for ``argv``, or None when it takes them (or shows help)."""
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()):
            parser.parse_args([a for a in argv if a != "--debug"])
    except SystemExit as done:
        return None if done.code in (0, None) else said.getvalue().strip()
    return None


@pytest.fixture(scope="module")
def parser() -> argparse.ArgumentParser:
    return build_parser()


@pytest.mark.parametrize("document", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_shown_is_one_the_command_line_takes(
    document: Path, parser: argparse.ArgumentParser
) -> None:
    said = {command: refusal(parser, argv(command)) for command in commands(document)}
    assert {command: error for command, error in said.items() if error} == {}


def test_the_readme_shows_the_days_commands() -> None:
    """The check reads the README's code blocks: the day's commands are among them."""
    shown = {argv(c)[0] for c in commands(ROOT / "README.md")}
    assert {"demo", "new", "import-tdlista", "register", "pair", "export-aga"} <= shown


def test_a_wrong_option_or_command_is_caught(parser: argparse.ArgumentParser) -> None:
    """What the check would catch, were the README to show it."""
    assert "unrecognized arguments: --colour" in str(
        refusal(parser, argv("python -m addin pair BOOK.xlsx --colour W"))
    )
    assert "invalid choice" in str(refusal(parser, argv("mcmahon pairs BOOK.xlsx")))
    assert refusal(parser, argv("mcmahon report B.xlsx pairings --sort name --out w.pdf")) is None


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


@pytest.mark.parametrize("document", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_option_named_beside_a_command_is_one_it_has(
    document: Path, parser: argparse.ArgumentParser
) -> None:
    """The short forms in the prose and the tables (`bye --player A --round N`, `undo BOOK
    --to N`): the command exists and has every option named with it."""
    known = subcommands(parser)
    prose = FENCE.sub("", document.read_text(encoding="utf-8"))
    unknown = []
    for span in re.findall(r"`([a-z][a-z-]+(?: [^`]*)?)`", prose):
        name = span.split()[0]
        if name not in known:
            continue
        options = set(known[name]._option_string_actions)
        unknown += [f"{span}: {o}" for o in re.findall(r"--[a-z][a-z-]*", span) if o not in options]
    assert unknown == []
