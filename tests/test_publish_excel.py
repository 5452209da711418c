"""The Publish button in the Excel door (xlwings' remote engine): it asks nothing.

Excel's workbook is saved as a file, and the site goes beside it; a workbook with no file
on this machine (the remote engine's, or a new one never saved) gets a one-line reason.
"""

from __future__ import annotations

from pathlib import Path

from test_excel_remote import (  # noqa: F401  (remote_engine: the module's autouse fixture)
    ScriptedTD,
    open_remote,
    prepared_file,
    remote_engine,
)

from addin.door.buttons import buttons
from addin.excel.entry import dispatch


def test_the_publish_button_is_on_the_ribbon_and_asks_nothing(tmp_path: Path) -> None:
    button = next(b for b in buttons() if b.action == "publish")
    assert (button.group, button.image) == ("after", "WebPagePreview")
    path = prepared_file(tmp_path, 6)
    td = ScriptedTD([])
    outcome = dispatch("publish", open_remote(path), dialogs=td)
    assert td.asked == [], "the folder beside the workbook: nothing to ask"
    assert outcome.status == "error"
    assert "save the workbook first" in " ".join(outcome.messages + td.told)
    assert not any(p.name.endswith("-site") for p in tmp_path.iterdir())
