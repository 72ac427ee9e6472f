# Shared fixtures: the repository's golden sets and, where it was built, the CLI to compare with.
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def cli_path():
    """The ptxmma program: $PTXMMA_CLI, else build/ptxmma of this checkout, else on PATH."""
    env = os.environ.get("PTXMMA_CLI")
    if env:
        return env
    built = ROOT / "build" / "ptxmma"
    if built.exists():
        return str(built)
    return shutil.which("ptxmma")


@pytest.fixture(scope="session")
def cli():
    path = cli_path()
    if not path:
        pytest.skip("the ptxmma CLI is not built (set PTXMMA_CLI)")

    def run(*args, check=True):
        r = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and r.returncode != 0:
            raise AssertionError(f"ptxmma {' '.join(map(str, args))} failed: {r.stderr}")
        return r

    return run
