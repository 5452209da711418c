"""No door names an action: every action, ``new``, ``check`` and the journal's included,
is declared in the registry and run by the one runner (``addin.actions.runner``); a door
only renders what the runner returns. A door that compares with an action's id, dispatches
on it, or has a command function of its own for it fails here, naming the file and line.
Tables of how a button looks (its place on the ribbon, its tooltip) may name actions."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from addin.actions.registry import load_all

PACKAGE = Path(__file__).resolve().parents[1] / "addin"
WINDOW_DOORS = ("door", "excel", "calc")
DOORS = [
    PACKAGE / "cli.py",
    *sorted(p for d in WINDOW_DOORS for p in (PACKAGE / d).rglob("*.py") if "oxt" not in p.parts),
    # The stations' door is their writer; the desk beside it (addin/station/desk.py) is the
    # served site's side, which makes each form into the entry of the action it is for.
    PACKAGE / "station" / "writer.py",
    PACKAGE / "station" / "__main__.py",
]


def literals(node: ast.AST) -> Iterator[tuple[int, str]]:
    """The string literals of an expression, into tuples, lists and sets."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.lineno, node.value
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for item in node.elts:
            yield from literals(item)


def named_actions(source: str, actions: set[str]) -> list[tuple[int, str]]:
    """(line, what) for each place ``source`` names an action to decide what to run."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for part in [node.left, *node.comparators]:
                found += [(n, f"compares with {v!r}") for n, v in literals(part) if v in actions]
        elif isinstance(node, ast.match_case):
            pattern = node.pattern
            if isinstance(pattern, ast.MatchValue):
                found += [(n, f"matches {v!r}") for n, v in literals(pattern.value) if v in actions]
        elif isinstance(node, ast.Subscript):
            found += [(n, f"looks up {v!r}") for n, v in literals(node.slice) if v in actions]
        elif isinstance(node, ast.FunctionDef) and node.name.startswith("cmd_"):
            command = node.name.removeprefix("cmd_").replace("_", "-")
            if command in actions:
                found.append((node.lineno, f"has its own command {node.name}"))
        elif isinstance(node, ast.Call) and node.args:
            callee = node.func
            name = callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", "")
            if name in {"command", "add_parser", "get"}:
                found += [(n, f"{name}({v!r})") for n, v in literals(node.args[0]) if v in actions]
    return sorted(found)


@pytest.mark.parametrize("path", DOORS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_door_names_no_action(path: Path) -> None:
    actions = set(load_all())
    found = named_actions(path.read_text(encoding="utf-8"), actions)
    where = [f"{path.relative_to(PACKAGE.parent)}:{line}: {what}" for line, what in found]
    assert not where, "a door names an action (declare it in the registry):\n" + "\n".join(where)


def test_the_check_finds_each_way_of_naming_an_action() -> None:
    source = (
        'if button.action == "undo":\n    pass\n'
        'if action in ("history", "other"):\n    pass\n'
        'match action:\n    case "check":\n        pass\n'
        'spec = load_all()["lookup"]\n'
        "def cmd_new(args):\n    pass\n"
        'command("redo", handler, "take back the last undo")\n'
        'TIPS = {"undo": "a tooltip names it, which is fine"}\n'
    )
    found = named_actions(source, {"undo", "history", "check", "lookup", "new", "redo"})
    assert [line for line, _ in found] == [1, 3, 6, 8, 9, 11]


def test_every_door_module_is_scanned() -> None:
    names = {p.relative_to(PACKAGE).as_posix() for p in DOORS}
    assert {"cli.py", "door/dispatch.py", "excel/entry.py", "calc/entry.py"} <= names
