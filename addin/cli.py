"""The command line: ``python -m addin COMMAND BOOK.xlsx ...``.

Every registered action is a command: its parameters become options, and it runs through
the one runner (:mod:`addin.actions.runner`) with this door's hooks (:class:`FileDoor`);
the outcome is printed here. The other commands are tools (demo, template, installers).

Exit codes
----------
0  done
1  error: the workbook is unchanged
2  usage: the command line itself is wrong
3  a warning needs confirmation: nothing was written; run again with ``--yes``
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

from addin import __version__
from addin.actions.registry import ACTIONS, Action, ParamKind, is_follow_up, load_all, load_one
from addin.core.limits import MAX_ROUNDS, shown

if TYPE_CHECKING:
    from addin.actions.change import SelectRows
    from addin.store import Outcome

# Start-up costs little more than Python itself: ``--version`` imports nothing more, and a
# command imports the workbook code (openpyxl, the journal) only when it runs.

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_CONFIRM = 0, 1, 2, 3

YOUNG_THRESHOLD = 200_000
"""Net allocations between the collector's young collections (Python's default is 700).

A workbook read by openpyxl is hundreds of thousands of long-lived objects (the TDListA
sheet alone is over 200,000 cells). With the default thresholds Python's cyclic collector
walks all of them again every time a few tens of thousands of new ones survive, which at
2,000 players was a sixth of a ``pair`` command and grew with every round sheet. Nearly
everything the actions create is freed by reference counting, so young collections can wait
longer."""


def relax_collector() -> None:
    """Collect less often: for the command line and the demo, not for a library import."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(YOUNG_THRESHOLD, young), middle, old)


MAX_DEMO_PLAYERS = 2000
"""The demo draws its players from the sample list's current members (the README and the
benchmarks run it at 2,000)."""


class Terminal:
    """The command line's conversation: answers given by ``--yes``, messages printed once
    the command is done, nothing to select."""

    terminal = True
    selects = False

    def __init__(self, *, yes: bool = False) -> None:
        self.yes = yes
        self._line: ProgressLine | None = None

    def confirm(self, question: str) -> bool:
        return self.yes

    def tell(self, message: str) -> None:
        """A terminal shows the action's messages once it is done."""

    def select(self, request: SelectRows) -> bool:
        return False

    def progress(self, fraction: float, text: str) -> None:
        """A long step's progress (a download), on one line of the terminal (stderr); not
        drawn where standard error is no terminal (a pipe, a file)."""
        if self._line is None:
            isatty = getattr(sys.stderr, "isatty", None)
            self._line = ProgressLine(sys.stderr if isatty and isatty() else None)
        self._line(fraction, text)


class ProgressLine:
    """One line on a terminal while a long step runs, redrawn in place.

    Nothing is drawn before ``after`` seconds (a fast link shows nothing); the line is
    redrawn at most every ``every`` seconds, and ended with a newline when the step is
    (fraction 1). No stream (standard error is no terminal): nothing is drawn."""

    def __init__(
        self,
        stream: TextIO | None,
        *,
        after: float = 1.0,
        every: float = 0.2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.after, self.every, self.clock = after, every, clock
        self.started: float | None = None
        self.drawn: float | None = None
        self.width = 0

    def __call__(self, fraction: float, text: str) -> None:
        if self.stream is None:
            return
        now = self.clock()
        if self.started is None:
            self.started = now
        finished = fraction >= 1.0
        if self.drawn is None:
            due = now - self.started >= self.after
        else:
            due = finished or now - self.drawn >= self.every
        if due:
            self.stream.write(f"\r{text:<{self.width}}")
            self.width, self.drawn = len(text), now
            if finished:
                self.stream.write("\n")
            self.stream.flush()
        if finished:  # the next step starts afresh
            self.started = self.drawn = None
            self.width = 0


def run_file(
    path: Path,
    action: str,
    params: Mapping[str, object],
    *,
    yes: bool = False,
    force: bool = False,
) -> int:
    """Run ``action`` on the workbook file ``path`` as ``python -m addin`` does; the exit
    code (a failure's traceback is raised)."""
    from addin.store import FileBook, run

    outcome = run(
        action, [params], FileBook(path, force=force), Terminal(yes=yes), warnings_accepted=yes
    )
    return said(outcome, action)


def said(outcome: Outcome, action: str) -> int:
    """Print ``outcome`` and give its exit code; raise the exception of a failure."""
    if outcome.status == "failed" and outcome.error is not None:
        raise outcome.error
    if outcome.status == "cancelled":
        print(f"{action}: needs confirmation (nothing was written):", file=sys.stderr)
        for w in outcome.warnings:
            print(f"  warning: {w}", file=sys.stderr)
        print("Run again with --yes to go ahead.", file=sys.stderr)
        return EXIT_CONFIRM
    if outcome.status != "done":
        reason = "\n".join(outcome.messages)
        if outcome.stage == "usage":
            print(f"error: {reason}", file=sys.stderr)
            return EXIT_USAGE
        if not outcome.unchanged:
            print(f"error: {reason}", file=sys.stderr)
        elif outcome.stage == "run":
            print(f"error: {reason}\n{outcome.unchanged}.", file=sys.stderr)
        else:
            print(f"error: {reason}; {outcome.unchanged}", file=sys.stderr)
        return EXIT_ERROR
    for message in outcome.messages:
        print(message)
    if outcome.summary:
        print(outcome.summary)
    if outcome.problems_found:
        return EXIT_ERROR
    return outcome.afterwards() if outcome.afterwards else EXIT_OK  # serve: the book is free


# --- commands -------------------------------------------------------------------------


def cmd_demo(args: argparse.Namespace) -> int:
    from addin.actions.change import ActionError
    from addin.demo import run_demo

    if args.book.exists() and not args.force:
        print(
            f"error: {args.book} already exists; choose another name or pass --force",
            file=sys.stderr,
        )
        return EXIT_ERROR
    try:
        summary = run_demo(args.book, args.players, args.rounds, args.seed, rules=args.rules)
    except ActionError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    for line in summary.lines():
        print(line)
    if summary.failure():
        print(f"error: {summary.failure()}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_OK


def cmd_install_excel(args: argparse.Namespace) -> int:
    from addin.excel import install

    argv = ["--remove"] * args.remove + ["--without-xlwings-addin"] * args.without_xlwings_addin
    return install.main(argv)


def cmd_build_excel(args: argparse.Namespace) -> int:
    from addin.excel import build

    return build.main([str(args.out)] if args.out else [])


def cmd_install_calc(args: argparse.Namespace) -> int:
    from addin.calc import install

    if args.profile is not None and args.profile.exists() and not args.profile.is_dir():
        print(f"error: --profile {args.profile} is a file; expected a folder", file=sys.stderr)
        return EXIT_ERROR
    return install.main(args.remove, args.profile)


def cmd_build_calc(args: argparse.Namespace) -> int:
    from addin.calc.extension import EXTENSION_FILE, build_extension

    print(f"Built {build_extension(args.out or Path(EXTENSION_FILE))}")
    return EXIT_OK


def cmd_template(args: argparse.Namespace) -> int:
    from addin.workbook import template
    from addin.workbook.saving import SaveRefused

    try:
        template.write_template(args.out, force=args.force)
    except (SaveRefused, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    print(f"Wrote {args.out}")
    return EXIT_OK


def _registered(spec: Action) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        params = {p.name: getattr(args, p.name) for p in spec.params}
        yes, force = getattr(args, "yes", False), getattr(args, "force", False)
        return run_file(args.book, spec.id, params, yes=yes, force=force)

    return handler


_ARG_TYPES: dict[ParamKind, Callable[[str], object]] = {
    ParamKind.TEXT: str,
    ParamKind.INT: int,
    ParamKind.FILE_IN: Path,
    ParamKind.FILE_OUT: Path,
    ParamKind.FOLDER: Path,
    ParamKind.CHOICE: str,
    ParamKind.DATE: lambda text: _date(text),
}


def _add_registered(sub: argparse._SubParsersAction, spec: Action) -> None:
    p = sub.add_parser(spec.id, help=spec.help, description=spec.help)
    p.set_defaults(handler=_registered(spec))
    book = next((param for param in spec.params if param.name == "book"), None)
    p.add_argument("book", type=Path, help=book.help if book else "the tournament workbook (.xlsx)")
    for param in spec.params:
        option = f"--{(param.option or param.name).replace('_', '-')}"
        if param is book:
            continue
        if param.kind is ParamKind.FLAG:
            p.add_argument(option, dest=param.name, action="store_true", help=param.help)
            continue
        kwargs: dict[str, object] = {"help": param.help, "type": _ARG_TYPES[param.kind]}
        if param.metavar or param.option:
            kwargs["metavar"] = param.metavar or str(param.option).upper()
        if param.bounds:
            kwargs["type"] = _bounded(*param.bounds)
        if param.choices:
            kwargs["choices"] = param.choices
            kwargs["type"] = _choice(param.choices)
        if param.bare is not None:
            kwargs.update(nargs="?", const=param.bare)
        required = param.required and param.alternative is None
        if param.positional:
            p.add_argument(param.name, **kwargs, **({} if required else {"nargs": "?"}))
        else:
            p.add_argument(option, dest=param.name, required=required, **kwargs)
    if spec.journal and not spec.changes:
        return  # history: nothing to accept, nothing to write
    p.add_argument("--yes", action="store_true", help=_YES[spec.journal])
    p.add_argument("--force", action="store_true", help=_FORCE[spec.creates, spec.journal])


_YES = {False: "accept the warnings and go ahead", True: "go ahead although hand edits are lost"}
_FORCE = {
    (True, False): "overwrite an existing file",
    (False, True): "write although Excel or LibreOffice has the workbook open",
    (False, False): "write although Excel or LibreOffice has the workbook open; "
    "let an output replace a tournament workbook (a backup is kept)",
}
"""``--force``'s help: for an action that creates its file, one on the journal, any other."""


def _choice(choices: tuple[str, ...]) -> Callable[[str], str]:
    """An argparse type: a choice in any case (``egf`` is ``EGF``), else as typed (refused)."""
    by_folded = {choice.casefold(): choice for choice in choices}

    def parse(text: str) -> str:
        return by_folded.get(text.strip().casefold(), text)

    return parse


def _bounded(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (a usage error otherwise)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not between {low} and {high}")
        return value

    return parse


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date in YYYY-MM-DD form") from err


def _program_name() -> str:
    """``mcmahon`` when started by the console command, else ``python -m addin``."""
    started_as = Path(sys.argv[0]).stem if sys.argv and sys.argv[0] else ""
    return started_as if started_as in ("mcmahon", "aga-mcmahon") else "python -m addin"


_LONG_QUOTE = re.compile(r"'([^']{201,})'")
"""A value argparse quotes whole (``invalid int value: '999...'``), past 200 characters."""


def _cut(value: str) -> str:
    return f"'{value[:200]}'... ({len(value):,} characters)"


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line (what is wrong, and where to read more), exit status 2."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("argument COMMAND: invalid choice"):
            message = message.split(" (choose from", 1)[0]  # --help lists the commands
        message = _LONG_QUOTE.sub(lambda m: _cut(m.group(1)), message)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser(
    only: Action | None = None, *, built_in_only: bool = False
) -> argparse.ArgumentParser:
    """The whole command line; with ``only``, the built-in commands and that action alone,
    with ``built_in_only`` the built-in commands alone (nothing else is imported: a desk
    command starts in little more than Python's time)."""
    parser = OneLineParser(
        prog=_program_name(),
        description="AGA Swiss McMahon tournaments in an Excel workbook.",
        epilog="Exit codes: 0 done, 1 error (workbook unchanged), 2 usage, "
        "3 a warning needs confirmation (--yes gives it).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--debug",
        action="store_true",
        help="show the Python traceback of an unexpected failure (anywhere on the line)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if only is not None:
        _add_registered(sub, only)
    elif not built_in_only:  # the tournament's actions first, the tools after
        for spec in load_all().values():
            if not is_follow_up(spec.id):
                _add_registered(sub, spec)

    def command(
        name: str, handler: Callable[[argparse.Namespace], int], help: str
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(handler=handler)
        return p

    p = command("demo", cmd_demo, "run a whole simulated tournament into a new workbook")
    p.add_argument("book", type=Path, help="the .xlsx file to create")
    p.add_argument("--players", type=_bounded(2, MAX_DEMO_PLAYERS), default=60)
    p.add_argument("--rounds", type=_bounded(1, MAX_ROUNDS), default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--rules",
        choices=("aga", "bga", "egf"),
        default="aga",
        help="the McMahon rules preset: AGA (default), or the BGA or EGF options",
    )
    p.add_argument("--force", action="store_true", help="overwrite an existing file")

    p = command("install-excel", cmd_install_excel, "install the Excel add-in (and xlwings')")
    p.add_argument("--remove", action="store_true", help="remove the add-in from Excel")
    p.add_argument(
        "--without-xlwings-addin",
        action="store_true",
        help="do not (re)install the xlwings add-in itself",
    )

    p = command("build-excel", cmd_build_excel, "build the .xlam add-in file")
    p.add_argument("out", type=Path, nargs="?", help="where to write the .xlam")

    p = command("install-calc", cmd_install_calc, "install the LibreOffice Calc extension")
    p.add_argument("--remove", action="store_true", help="remove it from LibreOffice")
    p.add_argument("--profile", type=Path, help="a LibreOffice user profile folder to use")

    p = command("build-calc", cmd_build_calc, "build the .oxt LibreOffice Calc extension")
    p.add_argument("out", type=Path, nargs="?", help="where to write the .oxt")

    p = command("template", cmd_template, "write the blank workbook template")
    p.add_argument("out", type=Path, nargs="?", default=Path("workbook_template.xlsx"))
    p.add_argument("--force", action="store_true", help="replace a tournament (a backup is kept)")

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every failure is one line on stderr (a traceback only with --debug)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    relax_collector()
    debug = "--debug" in argv
    argv = [a for a in argv if a != "--debug"]
    if argv[:1] == ["--version"]:  # before the parser, which loads every action
        print(f"{_program_name()} {__version__}")
        return EXIT_OK
    parser = _parser_for(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    problem = output_problem(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_ERROR
    before = _stamp(args)
    try:
        return int(args.handler(args))
    except KeyboardInterrupt:
        print(f"{args.command}: interrupted; {_unchanged(args, before)}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # ``lookup ... | head``: the reader has what it wanted
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as err:
        if debug:
            raise
        from addin.actions.failure import describe

        state = _unchanged(args, before)
        print(
            f"error: {args.command}: {describe(err)} "
            f"({state}; run again with --debug to see where it failed)",
            file=sys.stderr,
        )
        return EXIT_ERROR


def _parser_for(argv: list[str]) -> argparse.ArgumentParser:
    """The parser a command needs: its own action's, else the whole one (help, a journal
    command, a mistyped name)."""
    named = next((a for a in argv if not a.startswith("-")), None)
    if named is None or {"-h", "--help"} & set(argv[: argv.index(named)]):
        return build_parser()
    spec = None if is_follow_up(named) else load_one(named)
    if spec is not None:
        return build_parser(spec)
    built_in = build_parser(built_in_only=True)
    commands = next(a for a in built_in._actions if isinstance(a, argparse._SubParsersAction))
    return built_in if named in commands.choices else build_parser()


def _stamp(args: argparse.Namespace) -> tuple[int, int, int] | None:
    """The workbook file's identity and time: an atomic save replaces the file."""
    book = getattr(args, "book", None)
    if not book or _makes_file(args.command):
        return None
    from addin.workbook.saving import file_identity

    return file_identity(Path(book))


def _unchanged(args: argparse.Namespace, before: tuple[int, int, int] | None) -> str:
    """What became of the workbook: saves are atomic, so a command that failed left it
    as it was, unless it failed after its save (then the journal has the state)."""
    book = getattr(args, "book", None)
    if not book or _makes_file(args.command):
        return "nothing was saved"
    name = Path(book).name
    if before is not None and _stamp(args) != before:
        return f"{name} was saved before it failed; `history` lists what changed"
    return f"{name} is unchanged"


def output_problem(args: argparse.Namespace) -> str | None:
    """Why a file the command would write cannot be written there, before anything runs."""
    for name in _OUTPUTS.get(args.command, ()) or _file_outputs(args.command):
        path = getattr(args, name, None)
        if path is None or str(path) == "":
            continue
        path = Path(path)
        folder = path.parent
        if not folder.is_dir():
            return f"cannot write {path}: there is no folder {folder}"
        if path.is_dir():
            return f"cannot write {path}: it is a folder"
    return None


_OUTPUTS: dict[str, tuple[str, ...]] = {
    "demo": ("book",),
    "template": ("out",),
    "build-excel": ("out",),
    "build-calc": ("out",),
}


def _makes_file(command: str) -> bool:
    """A tool that writes a new file, or an action that creates its workbook."""
    spec = ACTIONS.get(command)
    return command in _OUTPUTS or (spec is not None and spec.creates)


def _file_outputs(command: str) -> tuple[str, ...]:
    spec = ACTIONS.get(command)  # the command's action is loaded by now
    if spec is None:
        return ()
    return tuple(p.name for p in spec.params if p.kind is ParamKind.FILE_OUT)


if __name__ == "__main__":
    sys.exit(main())
