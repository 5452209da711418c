"""Writing a site into its folder so that a reader never sees half a publication.

Each file is written whole beside its target and renamed over it: the pages first, then
each page's stamp file (``p12345.stamp.js``), then ``stamp.js``: an open page reloads only
when its stamp file changes, by which time every page it can reach is complete. (Swapping
the whole folder instead would fail on Windows while a server or an Explorer window holds
it open.) Player pages of players no longer in the tournament (and their stamp files) are
removed afterwards.

A folder is written only when it is new, empty, or a site this program published (its
``stamp.js`` starts with :data:`assets.STAMP_MARK`), so a mistyped ``--to`` never
scatters pages among a TD's own files nor removes any of them. A first publication cut
short at any moment is recognised too: every file in it is one a site holds (or a
temporary file of ours) and its pages carry :data:`pages.GENERATOR`, or it holds nothing
but our temporary files (killed before its first page was renamed into place).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from addin.publish import assets, pages
from addin.publish.i18n.negotiate import LANGUAGES
from addin.publish.site import STAMP_FILE, Site
from addin.workbook.saving import default_mode, save_atomically

_PLAYER_PAGE = re.compile(r"(?:p|round)\d+\.(?:html|stamp\.js)")
"""Pages of a player or a round and their stamp files: removed when no longer part of the site."""
_OWN_FILE = re.compile(
    r"(?:p\d+|index|standings|crosstable|event|report|registered|hall|hall-boards|round\d+)"
    r"\.(?:html|stamp\.js)"
    r"|site\.(?:css|js)"
    r"|stamp\.js|[\w.-]+\.gz"
)
_OWN_TEMP = re.compile(r"\.[\w.-]+\.[\w]{8}\.(?:html|css|js|gz)")
"""``_replace``'s temporary file: ``.NAME.RANDOM.EXT`` (``tempfile``'s 8 random characters)."""


class FolderRefused(ValueError):
    """The folder is not one ``publish`` may write."""


def is_site_folder(folder: Path) -> bool:
    stamp = folder / STAMP_FILE
    try:
        with open(stamp, "rb") as f:
            return f.read(len(assets.STAMP_MARK)) == assets.STAMP_MARK.encode()
    except OSError:
        return False


def is_interrupted_site(folder: Path) -> bool:
    """A folder a cut-short ``publish`` left: only a site's files, no stamp, and at least
    one page that says this program made it; or nothing but our temporary files (killed
    before its first page was in place: a new folder holds only the file being written)."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return False
    marked = False
    site_files = False
    for entry in entries:
        if entry.name in LANGUAGES and entry.is_dir() and not entry.is_symlink():
            if not is_interrupted_site(entry):  # a language's pages (``ko/``), cut short too
                return False
            continue
        if not entry.is_file() or entry.is_symlink():
            return False
        if _OWN_TEMP.fullmatch(entry.name):
            continue
        if not _OWN_FILE.fullmatch(entry.name):
            return False
        site_files = True
        if entry.suffix == ".html" and not marked:
            try:
                with open(entry, "rb") as f:
                    marked = pages.GENERATOR.encode() in f.read(2048)
            except OSError:
                return False
    return marked or not site_files


def check_folder(folder: Path) -> None:
    """Refuse a folder that is a file, has no parent, or holds someone else's files."""
    if folder.exists() and not folder.is_dir():
        raise FolderRefused(f"{folder} is a file, not a folder")
    if not folder.exists():
        if not folder.parent.is_dir():
            raise FolderRefused(f"cannot publish to {folder}: there is no folder {folder.parent}")
        return
    if any(folder.iterdir()) and not is_site_folder(folder) and not is_interrupted_site(folder):
        raise FolderRefused(
            f"{folder} holds other files and is not a site published by this program; "
            "choose a new or empty folder"
        )


def _replace(path: Path, data: bytes) -> None:
    """Write beside ``path`` and rename over it: readers see the old file or the new one.
    Not flushed to disk one by one (hundreds of player pages): the stamp, written after
    them with a full save, is; and a site can always be published again."""
    fd, name = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=path.suffix, dir=path.parent)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, default_mode())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _save(path: Path, data: bytes) -> None:
    def write(tmp: Path) -> None:
        tmp.write_bytes(data)

    save_atomically(write, path, keep=0)


def write_site(folder: Path, site: Site) -> Path:
    """Write ``site`` into ``folder`` (created if new): pages, then their stamp files,
    then ``stamp.js``, then the removal of pages that are no longer part of the site."""
    check_folder(folder)
    folder.mkdir(exist_ok=True)
    for name, data in site.files.items():
        if "/" in name:
            (folder / name).parent.mkdir(exist_ok=True)  # a language's folder (``ko/``)
        _replace(folder / name, data)
    for name, data in site.page_stamps.items():
        _replace(folder / name, data)
    _save(folder / STAMP_FILE, site.stamp_file)
    for where in (folder, *(folder / lang for lang in LANGUAGES if (folder / lang).is_dir())):
        for old in where.iterdir():
            name = old.relative_to(folder).as_posix()
            ours = name in site.files or name in site.page_stamps
            stale = _PLAYER_PAGE.fullmatch(old.name) and not ours
            if stale or _OWN_TEMP.fullmatch(old.name):
                old.unlink(missing_ok=True)
    return folder
