"""The EGD's table beside OpenGotha's: ``python benchmarks/compare_egd.py [--opengotha-git
CLONE | --tables DIR] [--keep DIR] [--work DIR]``.

For each event (every OpenGotha file in ``tests/data/opengotha`` imported, the demo's EGF
event, and that event with every kind of result): ``export-opengotha`` writes it as an
OpenGotha file, OpenGotha's own ``ExternalDocument.generateH9File`` writes its EGF table of
that file (``benchmarks/opengotha_side/OpenGothaH9.java``, built from OpenGotha's source as
``opengotha_side/build.sh`` does; ``--tables DIR``: tables written so before, e.g. the ones
``tests/data/egd`` keeps), and ``export-egd`` writes ours. The two are read independently
(``tests/egd.py``) and compared player by player: players, grades, places, every round's
entry and the header, each difference put down to a reason the two programs' rules give
(docs/opengotha.md, "The EGD's table beside OpenGotha's") or counted as unexplained.

Prints one Markdown row an event and exits 1 when anything is unexplained. ``--keep DIR``
copies OpenGotha's tables there (to refresh ``tests/data/egd``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.egd import (  # noqa: E402
    EVENTS,
    KEPT,
    REASONS,
    build_event,
    compare,
    markdown_row,
    our_record,
    read_h9,
)
from tests.helpers import run  # noqa: E402

SIDE = ROOT / "benchmarks" / "opengotha_side"


def opengotha_tables(git: str, xml_dir: Path, out: Path) -> None:
    """OpenGotha's own table of every file in ``xml_dir``, built from its source."""
    env = dict(os.environ, OPENGOTHA_GIT=git)
    tree = Path(
        subprocess.run(
            [str(SIDE / "build.sh")], env=env, check=True, capture_output=True, text=True
        ).stdout.strip()
    )
    classes = tree / "h9"
    classes.mkdir(exist_ok=True)
    subprocess.run(
        ["javac", "-encoding", "UTF-8", "-cp", str(tree / "classes"), "-d", str(classes),
         str(SIDE / "OpenGothaH9.java")],
        check=True,
    )  # fmt: skip
    path = os.pathsep.join(str(p) for p in (tree / "classes", tree / "lib" / "jhall.jar", classes))
    out.mkdir(parents=True, exist_ok=True)
    for xml in sorted(xml_dir.glob("*.xml")):
        subprocess.run(
            ["java", "-Djava.awt.headless=true", "-cp", path, "OpenGothaH9", str(xml),
             str(out / f"{xml.stem}.h9")],
            check=True,
        )  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--opengotha-git", help="a clone of github.com/lucvannier/opengotha")
    source.add_argument("--tables", type=Path, help=f"OpenGotha's tables (default: {KEPT})")
    parser.add_argument("--keep", type=Path, help="copy OpenGotha's tables to this folder")
    parser.add_argument("--work", type=Path, help="keep the workbooks and files here")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="compare-egd-"))
    books, xml, ours = work / "books", work / "xml", work / "ours"
    for folder in (books, xml, ours):
        folder.mkdir(parents=True, exist_ok=True)
    built = {}
    for name in EVENTS:
        book = build_event(name, books)
        built[name] = book
        for args_ in (
            ("export-opengotha", book, xml / f"{name}.xml", "--yes"),
            ("export-egd", book, "--out", ours / f"{name}.h9", "--yes", "--force"),
        ):
            done = run(*args_)
            if done.returncode != 0:
                print(f"{name}: {' '.join(map(str, args_[:1]))} failed: {done.stderr}")
                return 1
    tables = args.tables or KEPT
    if args.opengotha_git:
        tables = work / "opengotha"
        opengotha_tables(args.opengotha_git, xml, tables)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        for name in EVENTS:
            shutil.copyfile(tables / f"{name}.h9", args.keep / f"{name}.h9")
    print("| event | players | grades | places | round entries | header (CL EV DT KM TM HA) |")
    print("|---|---|---|---|---|---|")
    unexplained = []
    for name in EVENTS:
        outcomes, sleeping = our_record(built[name])
        theirs = read_h9((tables / f"{name}.h9").read_bytes())
        c = compare(name, read_h9((ours / f"{name}.h9").read_bytes()), theirs, outcomes, sleeping)
        print(markdown_row(c))
        unexplained += [f"{name}: {line}" for line in c.unexplained]
        unexplained += [f"{name}: only in ours: {k}" for k in c.only_ours]
        unexplained += [f"{name}: only in OpenGotha's: {k}" for k in c.only_theirs]
    print()
    for reason, why in REASONS.items():
        print(f"* {reason}: {why}")
    for line in unexplained:
        print(f"UNEXPLAINED {line}", file=sys.stderr)
    print(f"(workbooks and tables in {work})", file=sys.stderr)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
