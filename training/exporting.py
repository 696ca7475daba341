"""What every training script does once its net is trained: export it to ONNX, check the
graph against the torch net, and record the command that made it beside the model."""

from __future__ import annotations

import json
import shlex
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn


def export_onnx(
    model: nn.Module,
    path: Path,
    names: tuple[str, str],
    check_inputs: torch.Tensor,
    atol: float,
) -> None:
    """Write ``model`` (in eval mode) to ``path`` as ONNX opset 17 with a free batch size,
    its input and output named ``names``, and check it on ``check_inputs``."""
    input_name, output_name = names
    path.parent.mkdir(parents=True, exist_ok=True)
    example = torch.zeros(2, *check_inputs.shape[1:])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the legacy exporter is wanted
        torch.onnx.export(
            model,
            (example,),
            str(path),
            input_names=[input_name],
            output_names=[output_name],
            dynamic_axes={input_name: {0: "batch"}, output_name: {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    check_export(path, model, check_inputs, input_name, atol)


def check_export(
    path: Path, model: nn.Module, inputs: torch.Tensor, input_name: str, atol: float
) -> None:
    """Raise unless the ONNX graph at ``path`` gives what ``model`` gives for ``inputs``."""
    import onnxruntime as ort

    with torch.no_grad():
        expected = model(inputs).numpy()
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (got,) = session.run(None, {input_name: inputs.numpy()})
    if not np.allclose(got, expected, atol=atol):
        raise RuntimeError(f"the exported ONNX graph at {path} differs from the torch net")


def command_line(module: str, argv: Sequence[str] | None) -> str:
    """The command that ran ``module`` with ``argv`` (the process's own when None)."""
    arguments = sys.argv[1:] if argv is None else argv
    return f"python -m {module} " + " ".join(shlex.quote(argument) for argument in arguments)


def write_sidecar(model: Path, facts: Mapping[str, Any]) -> None:
    """The facts of how ``model`` was made, as JSON beside it (its name with ``.json``)."""
    model.with_suffix(".json").write_text(json.dumps(facts, indent=2) + "\n")
