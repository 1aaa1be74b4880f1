"""Executes notebooks headless and fails if any cell fails (used by .ci/run).

    python notebooks/execute.py notebooks/rumble-ffa.ipynb [...]

Each notebook runs with its folder as the working directory; outputs go to a temporary copy, so
the committed notebooks stay output-free.
"""
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def main(paths):
    for path in map(Path, paths):
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(nb, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent)}})
        client.execute()  # raises CellExecutionError naming the failing cell
        out = Path(tempfile.gettempdir()) / f"executed-{path.name}"
        nbformat.write(nb, out)
        print(f"{path}: {len(nb.cells)} cells executed, output in {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
