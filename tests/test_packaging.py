"""The program installs as a product: a wheel with its data files, a console command, metadata.

The wheel is built from a copy of the source (so the checkout is not touched), installed into a
fresh virtual environment, and run from an empty directory, as a TD who got the wheel would.
The venv sees the test environment's site-packages for the dependencies (no download); the
test proves that ``addin`` itself is imported from the wheel, not from the checkout.
"""

from __future__ import annotations

import email
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import openpyxl
import pytest

import addin
from addin.workbook import template

ROOT = Path(__file__).resolve().parents[1]


def _source_copy(dest: Path) -> Path:
    """The files git tracks (or, outside a git checkout, the tree less build leftovers)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=False)
    if listed.returncode == 0 and listed.stdout:
        for name in listed.stdout.decode().split("\0"):
            if name and (ROOT / name).is_file():
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, dest / name)
    else:
        ignore = shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", ".*")
        shutil.copytree(ROOT, dest, ignore=ignore, dirs_exist_ok=True)
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = _source_copy(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out)],
        cwd=source,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (found,) = out.glob("*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed; returns its scripts folder."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.create(env_dir, with_pip=True)
    scripts = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    # The dependencies from the test environment's own site-packages, listed after the new
    # venv's (system_site_packages would give the base interpreter's, which may have none).
    # A listed folder's own .pth files are not read, so the checkout's editable install
    # stays out of sight.
    found = subprocess.run(
        [scripts / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    ours = {sysconfig.get_paths()[kind] for kind in ("purelib", "platlib")}
    (Path(found.stdout.strip()) / "test_dependencies.pth").write_text(
        "\n".join(sorted(ours)) + "\n"
    )
    pip = subprocess.run(
        [scripts / "python", "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall",
         str(wheel)],
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert pip.returncode == 0, pip.stderr[-2000:]
    return scripts


def _names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


def _metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as zf:
        (meta,) = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        return email.message_from_bytes(zf.read(meta))


def test_the_wheel_carries_the_template_the_sample_list_and_the_addin(wheel: Path) -> None:
    names = _names(wheel)
    for data_file in (
        "addin/data/workbook_template.xlsx",
        "addin/data/tdlista-sample.txt",
        "addin/formats/aga_report.xsd",
        "addin/excel/build.py",
        "addin/excel/entry.py",
        "addin/py.typed",
    ):
        assert data_file in names
    assert not any(n.startswith("tests/") for n in names)


def test_the_shipped_template_is_the_generated_one(wheel: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        shipped = tmp_path / "shipped.xlsx"
        shipped.write_bytes(zf.read("addin/data/workbook_template.xlsx"))
    generated = tmp_path / "generated.xlsx"
    template.write_template(generated)
    assert template.content(shipped) == template.content(generated)


def test_the_wheel_says_what_it_is(wheel: Path) -> None:
    meta = _metadata(wheel)
    assert meta["Name"] == "aga-mcmahon"
    assert meta["Version"] == addin.__version__
    assert meta["Requires-Python"] == ">=3.11"
    assert meta["License-Expression"] == "MIT"
    assert "McMahon" in meta["Summary"]
    classifiers = meta.get_all("Classifier") or []
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert meta.get_all("Project-URL")
    with zipfile.ZipFile(wheel) as zf:
        (entry_points,) = [n for n in zf.namelist() if n.endswith("entry_points.txt")]
        assert "mcmahon = addin.cli:main" in zf.read(entry_points).decode()


def test_the_installed_command_reports_its_version(installed: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [installed / "mcmahon", "--version"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0
    assert done.stdout.strip() == f"mcmahon {addin.__version__}"


def test_the_installed_command_runs_the_demo_from_the_wheel(
    installed: Path, tmp_path: Path
) -> None:
    where = subprocess.run(
        [installed / "python", "-c", "import addin; print(addin.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(installed.parent)

    done = subprocess.run(
        [installed / "mcmahon", "demo", "demo-tournament.xlsx", "--players", "12",
         "--rounds", "2"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    book = tmp_path / "demo-tournament.xlsx"
    assert {"Players", "Round 1", "Round 2", "Standings"} <= set(
        openpyxl.load_workbook(book, read_only=True).sheetnames
    )
    assert (tmp_path / "demo-tournament-aga.xml").exists()
    assert (tmp_path / "tdlista-sample.txt").exists()
