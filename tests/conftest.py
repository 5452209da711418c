"""Every test keeps what it keeps (``read_cache``: the TDListA's index) in a folder of its
own: never the user's, never another test's (two tests' lists may be the same bytes)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
