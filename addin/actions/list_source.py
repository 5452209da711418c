"""Where a rating list comes from: a file the TD names, or the web (``--download``).

A downloaded list is checked whole before anything is written: a download that failed
(no network, an error status, a body cut short) or a body that is not the list (empty, a
web page such as a login form a redirect led to, another file) is refused in one line
naming the address, and the workbook stays as it was. The store downloads it for the
action that asks (``Fetch``): an action never opens a socket. A list that reads is kept
beside the workbook with the day in its name (``tdlista-2026-11-28.txt``), so the TD has
the file the event was registered from; then it is imported as a file would be.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Generic, Protocol, TypeVar

from addin.actions.change import ActionError, Draft, Fetch, ParamError
from addin.actions.registry import InputFile, ParamKind, param
from addin.core.text_input import TextInputError
from addin.download import Downloaded, dated_name, web_page_title

Report = TypeVar("Report")

DOWNLOAD = "download"
"""The parameter (``--download [URL]``) that fetches the list instead of reading a file."""
DOWNLOADED = "downloaded"
"""The parameter the store fills with the list it downloaded (no door gives it)."""


@dataclass(frozen=True)
class ListKind:
    """What a rating list is called and where it is kept once downloaded."""

    what: str
    """In a sentence: "the AGA TDListA"."""
    stem: str
    """The kept copy's name before its date: ``tdlista``."""


@dataclass(frozen=True)
class Read(Generic[Report]):
    report: Report
    name: str
    """The list for messages: the file's name, or the kept copy's (the address when the
    workbook has no folder to keep it in)."""


# --- an import's parameters: the list's file, or --download [URL], and --update-players ---


def list_file(help: str) -> Any:
    """The list's file (positional), or ``--download`` instead."""
    return param(help, required=True, positional=True, alternative=DOWNLOAD)


def download_from(url: str) -> Any:
    """``--download [URL]``: alone, the list's own address ``url``."""
    return param(
        f"download the list from this address instead (alone: {url})",
        asked=False,
        bare=url,
        metavar="URL",
    )


def update_flag(data: str) -> Any:
    """``--update-players``: the registered players' ``data`` after round 1 too."""
    return param(
        f"when a round is paired already, update the registered players' {data} anyway",
        ParamKind.FLAG,
    )


class Skipped(Protocol):
    """A line of a list that was not read (``tdlista.SkippedLine``, ``egd_list.SkippedLine``)."""

    @property
    def line(self) -> int: ...

    @property
    def reason(self) -> str: ...


def say_skipped(draft: Draft, skipped: Sequence[Skipped]) -> None:
    """The lines of a list that were not read, and why (the first 20)."""
    for line in skipped[:20]:
        draft.say(f"  skipped line {line.line}: {line.reason}")
    if len(skipped) > 20:
        draft.say(f"  ... and {len(skipped) - 20} more skipped lines")


def read_list(
    draft: Draft,
    file: InputFile | None,
    url: str | None,
    downloaded: Downloaded | None,
    kind: ListKind,
    parse: Callable[[bytes, str], Report],
) -> Read[Report]:
    """The list the TD named (a file, or ``--download``: the store's download), read by
    ``parse``; a list that cannot be had or read is an ``ActionError`` before anything is
    written."""
    if file is not None and url:
        raise ParamError(f"give {kind.what} file or --download, not both")
    if file is not None:
        return Read(_parsed(parse, file.data, file.name), file.name)
    if not url:
        raise ParamError(f"{draft.action} needs {kind.what} file, or --download to fetch it")
    if downloaded is None:
        raise Fetch(url, DOWNLOADED)
    return _downloaded(draft, downloaded, kind, parse)


def _parsed(parse: Callable[[bytes, str], Report], data: bytes, source: str) -> Report:
    try:
        return parse(data, source)
    except TextInputError as err:
        raise ActionError(str(err)) from err


def _downloaded(
    draft: Draft, got: Downloaded, kind: ListKind, parse: Callable[[bytes, str], Report]
) -> Read[Report]:
    url = got.url
    where = url if not got.redirected else f"{url} (redirected to {got.final_url})"
    if not got.data.strip():
        raise ActionError(f"{where}: the server sent an empty file, not {kind.what}")
    title = web_page_title(got.data)
    try:
        report = parse(got.data, url)
    except TextInputError as err:
        if title is not None:
            named = f" {title!r}" if title else ""
            raise ActionError(
                f"{where}: the server sent a web page{named}, not {kind.what}"
            ) from None
        raise ActionError(str(err)) from None
    suffix = ".html" if title is not None else ".txt"
    return Read(report, _kept(draft, got.data, kind, suffix) or url)


def _kept(draft: Draft, data: bytes, kind: ListKind, suffix: str) -> str | None:
    """Keep the list beside the workbook; its name, or None when the workbook has no file."""
    workbook = draft.path
    if workbook is None:
        draft.say(f"The downloaded list is not kept: {draft.source} has no folder yet")
        return None
    target = workbook.parent / dated_name(kind.stem, date.today(), suffix)
    draft.output(target, data)
    draft.done(f"Downloaded {kind.what} ({len(data):,} bytes), kept as {target}")
    return target.name
