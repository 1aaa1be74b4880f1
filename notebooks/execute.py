"""Executes notebooks headless and fails if any cell fails (used by .ci/run).

    python notebooks/execute.py notebooks/rumble-ffa.ipynb [...]

Each notebook runs with its folder as the working directory; outputs go to a temporary copy, so
the committed notebooks stay output-free. A relative path in a SKIRMISH_* variable (a dataset,
the figures folder) is read from where this command was run, as a user writes it
(`SKIRMISH_DATASET=runs/rumble-ffa`), not from the notebook's folder.
"""
import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def absolute_paths():
    """SKIRMISH_* values that name an existing path, or a path under an existing folder, made
    absolute against the caller's working directory (the kernel inherits the environment)."""
    for key, value in list(os.environ.items()):
        if key.startswith("SKIRMISH_") and value and not os.path.isabs(value):
            p = Path(value)
            if p.exists() or p.parent.exists():
                os.environ[key] = str(p.resolve())


def main(paths):
    absolute_paths()
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
