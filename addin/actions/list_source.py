"""Where a rating list comes from: a file the TD names, or the web (``--download``).

A downloaded list is checked whole before anything is written: a download that failed
(no network, an error status, a body cut short) or a body that is not the list (empty, a
web page such as a login form a redirect led to, another file) is refused in one line
naming the address, and the workbook stays as it was. A list that reads is kept beside the
workbook with the day in its name (``tdlista-2026-11-28.txt``), so the TD has the file the
event was registered from; then it is imported as a file would be.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from addin.actions.registry import Param, ParamKind
from addin.actions.session import ActionError, ParamError, Session, read_input
from addin.core.text_input import TextInputError

Report = TypeVar("Report")

DOWNLOAD = "download"
"""The parameter (``--download [URL]``) that fetches the list instead of reading a file."""


@dataclass(frozen=True)
class ListKind:
    """What a rating list is called and where it is kept once downloaded."""

    what: str
    """In a sentence: "the AGA TDListA"."""
    file_param: str
    """The action's parameter naming the file (``tdlista``)."""
    stem: str
    """The kept copy's name before its date: ``tdlista``."""


@dataclass(frozen=True)
class Read(Generic[Report]):
    report: Report
    name: str
    """The list for messages: the file's name, or the kept copy's (the address when the
    workbook has no folder to keep it in)."""


def list_params(kind: ListKind, file_help: str, url: str, data: str) -> tuple[Param, ...]:
    """An import's parameters: the list's file, or ``--download [URL]`` (alone: ``url``),
    and ``--update-players`` (the registered players' ``data`` after round 1)."""
    return (
        Param(
            kind.file_param,
            file_help,
            ParamKind.FILE_IN,
            True,
            positional=True,
            alternative=DOWNLOAD,
        ),
        Param(
            DOWNLOAD,
            f"download the list from this address instead (alone: {url})",
            asked=False,
            bare=url,
            metavar="URL",
        ),
        Param(
            "update_players",
            f"when a round is paired already, update the registered players' {data} anyway",
            ParamKind.FLAG,
        ),
    )


class Skipped(Protocol):
    """A line of a list that was not read (``tdlista.SkippedLine``, ``egd_list.SkippedLine``)."""

    @property
    def line(self) -> int: ...

    @property
    def reason(self) -> str: ...


def say_skipped(session: Session, skipped: Sequence[Skipped]) -> None:
    """The lines of a list that were not read, and why (the first 20)."""
    for line in skipped[:20]:
        session.say(f"  skipped line {line.line}: {line.reason}")
    if len(skipped) > 20:
        session.say(f"  ... and {len(skipped) - 20} more skipped lines")


def read_list(
    session: Session,
    params: Mapping[str, object],
    kind: ListKind,
    parse: Callable[[bytes, str], Report],
) -> Read[Report]:
    """The list the TD named (a file, or ``--download``), read by ``parse``; a list that
    cannot be had or read is an ``ActionError`` before anything is written."""
    path, url = params.get(kind.file_param), params.get(DOWNLOAD)
    if path and url:
        raise ParamError(f"give {kind.what} file or --download, not both")
    if not path and not url:
        raise ParamError(f"{session.action} needs {kind.what} file, or --download to fetch it")
    if path:
        file = Path(str(path))
        return Read(_parsed(parse, read_input(file), file.name), file.name)
    return _downloaded(session, str(url), kind, parse)


def _parsed(parse: Callable[[bytes, str], Report], data: bytes, source: str) -> Report:
    try:
        return parse(data, source)
    except TextInputError as err:
        raise ActionError(str(err)) from err


def _downloaded(
    session: Session, url: str, kind: ListKind, parse: Callable[[bytes, str], Report]
) -> Read[Report]:
    from addin import download

    progress = None
    if session.in_terminal and download.on_terminal():
        progress = download.TerminalProgress(url.rstrip("/").rpartition("/")[2] or url)
    try:
        got = download.fetch(url, progress=progress)
    except download.DownloadError as err:
        raise ActionError(str(err)) from None
    finally:
        if progress is not None:
            progress.end()
    where = url if not got.redirected else f"{url} (redirected to {got.final_url})"
    if not got.data.strip():
        raise ActionError(f"{where}: the server sent an empty file, not {kind.what}")
    title = download.web_page_title(got.data)
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
    return Read(report, _kept(session, got.data, kind, suffix) or url)


def _kept(session: Session, data: bytes, kind: ListKind, suffix: str) -> str | None:
    """Keep the list beside the workbook; its name, or None when the workbook has no file."""
    from addin.download import dated_name

    workbook = getattr(session.gw, "path", None)
    if not isinstance(workbook, Path):
        session.say(f"The downloaded list is not kept: {session.gw.source} has no folder yet")
        return None
    target = workbook.parent / dated_name(kind.stem, date.today(), suffix)
    session.write_output(target, data)
    session.done(f"Downloaded {kind.what} ({len(data):,} bytes), kept as {target}")
    return target.name
