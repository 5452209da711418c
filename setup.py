"""Build hook: the wheel carries the committed workbook template as package data.

``workbook_template.xlsx`` stays at the top of the repository, where a TD finds it in a
clone; an installed program has the same file as ``addin/data/workbook_template.xlsx``
(``importlib.resources``). Everything else is declared in pyproject.toml.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

TEMPLATE = "workbook_template.xlsx"


class BuildPyWithTemplate(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib, "addin", "data", TEMPLATE)
        target.parent.mkdir(parents=True, exist_ok=True)
        self.copy_file(TEMPLATE, str(target))


setup(cmdclass={"build_py": BuildPyWithTemplate})
