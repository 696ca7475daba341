"""Stand-in marker checks: tiny ONNX files whose answers a test can work out by hand."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import onnx
from onnx import helper


def scaling_check(path: Path, weight: float, bias: float, view_shape: Sequence[int | str]) -> Path:
    """A check whose logit for each view is ``weight`` times the sum of the view's values plus
    ``bias`` (weight 0: the same sure answer for every view)."""
    views = helper.make_tensor_value_info("views", onnx.TensorProto.FLOAT, ["batch", *view_shape])
    logits = helper.make_tensor_value_info("logits", onnx.TensorProto.FLOAT, ["batch", 1])
    axes = list(range(1, len(view_shape) + 1))
    nodes = [
        helper.make_node("ReduceSum", ["views", "axes"], ["total"], keepdims=0),
        helper.make_node("Unsqueeze", ["total", "one"], ["column"]),
        helper.make_node("Mul", ["column", "weight"], ["scaled"]),
        helper.make_node("Add", ["scaled", "bias"], ["logits"]),
    ]
    constants = [
        helper.make_tensor("axes", onnx.TensorProto.INT64, [len(axes)], axes),
        helper.make_tensor("one", onnx.TensorProto.INT64, [1], [1]),
        helper.make_tensor("weight", onnx.TensorProto.FLOAT, [], [weight]),
        helper.make_tensor("bias", onnx.TensorProto.FLOAT, [], [bias]),
    ]
    graph = helper.make_graph(nodes, "check", [views], [logits], constants)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path
