"""Opening the pipeline's six ONNX models: one way for all, failing fast on a missing file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnxruntime


def open_session(model_path: Path, threads: int, what: str) -> onnxruntime.InferenceSession:
    """An onnxruntime CPU session for ``model_path`` with ``threads`` intra-op threads.

    ``what`` names the model in the error a missing file gives ("tile finder"), so a server
    that starts without its models says which one and how to get it back.
    """
    path = Path(model_path)
    if not path.is_file():
        raise FileNotFoundError(
            f"{what} model not found at {path}; it is committed under models/ "
            "(rebuild it with `make train`)"
        )
    if threads < 1:
        raise ValueError("threads must be at least 1")
    import onnxruntime  # loaded with the first model, so importing vision stays light

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    # One photo at a time: the graphs are small chains with nothing to run side by side.
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return onnxruntime.InferenceSession(
        str(path), sess_options=options, providers=["CPUExecutionProvider"]
    )
