"""The second half of the tutorials run as written (``test_docs_tutorials.py`` says how): a file of its own, so
that pytest-xdist runs it on the other worker."""

from __future__ import annotations

from pathlib import Path

import pytest
from fault_server import FaultServer
from test_docs_tutorials import RUN_CHECKS, SECOND_HALF, run_tutorial
from test_docs_tutorials import server as server  # the module's scripted server, one for this file too


def test_the_halves_cover_every_page() -> None:
    assert set(SECOND_HALF) <= set(RUN_CHECKS)


@pytest.mark.parametrize("page", SECOND_HALF)
def test_the_tutorial_runs_as_written(page: str, server: FaultServer, data_dir: Path, tmp_path: Path) -> None:
    run_tutorial(page, server, data_dir, tmp_path)
