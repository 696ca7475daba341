"""Marker checks trained apart, joined into one file answering the mean of their logits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from training.mean_markers import mean_of, parts_of  # noqa: E402


def _scaling_model(path: Path, weight: float, bias: float) -> Path:
    """A stand-in check: the logit is weight times the views' sum plus bias."""
    helper = onnx.helper
    views = helper.make_tensor_value_info("views", onnx.TensorProto.FLOAT, ["batch", 2, 3])
    logits = helper.make_tensor_value_info("logits", onnx.TensorProto.FLOAT, ["batch", 1])
    nodes = [
        helper.make_node("ReduceSum", ["views", "axes"], ["total"], keepdims=0),
        helper.make_node("Unsqueeze", ["total", "one"], ["column"]),
        helper.make_node("Mul", ["column", "weight"], ["scaled"]),
        helper.make_node("Add", ["scaled", "bias"], ["logits"]),
    ]
    constants = [
        helper.make_tensor("axes", onnx.TensorProto.INT64, [2], [1, 2]),
        helper.make_tensor("one", onnx.TensorProto.INT64, [1], [1]),
        helper.make_tensor("weight", onnx.TensorProto.FLOAT, [], [weight]),
        helper.make_tensor("bias", onnx.TensorProto.FLOAT, [], [bias]),
    ]
    graph = helper.make_graph(nodes, "check", [views], [logits], constants)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def test_the_joined_check_answers_the_mean_of_the_checks_logits(tmp_path: Path) -> None:
    first = _scaling_model(tmp_path / "a.onnx", 2.0, 1.0)
    second = _scaling_model(tmp_path / "b.onnx", -1.0, 3.0)
    session = ort.InferenceSession(
        mean_of([first, second]).SerializeToString(), providers=["CPUExecutionProvider"]
    )
    views = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    (logits,) = session.run(None, {"views": views})
    totals = views.sum(axis=(1, 2))
    expected = ((2.0 * totals + 1.0) + (-1.0 * totals + 3.0)) / 2
    assert np.allclose(np.asarray(logits)[:, 0], expected)


def test_the_checks_come_back_out_of_the_joined_file_answering_as_they_did(
    tmp_path: Path,
) -> None:
    first = _scaling_model(tmp_path / "a.onnx", 2.0, 1.0)
    second = _scaling_model(tmp_path / "b.onnx", -1.0, 3.0)
    views = np.arange(12, dtype=np.float32).reshape(2, 2, 3)

    def answers(model: Any) -> np.ndarray:  # a path or a loaded model
        source = str(model) if isinstance(model, Path) else model.SerializeToString()
        session = ort.InferenceSession(source, providers=["CPUExecutionProvider"])
        (logits,) = session.run(None, {"views": views})
        return np.asarray(logits)

    parts = parts_of(mean_of([first, second]))

    assert len(parts) == 2
    assert np.allclose(answers(parts[0]), answers(first))
    assert np.allclose(answers(parts[1]), answers(second))
    assert [part.graph.output[0].name for part in parts] == ["logits", "logits"]
