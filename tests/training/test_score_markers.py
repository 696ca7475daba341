"""Marker checks compared on the same rendered tables, asked about the same train starts."""

from __future__ import annotations

from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")

from training.score_markers import score_checks  # noqa: E402
from training.table_synth import render_table  # noqa: E402
from vision.markers import VIEW_CHANNELS, MarkerCheck  # noqa: E402

SEED = 800_000_011  # a tuning table: a coin beside one of its trains, none by the others


def _always_says_marker(path: Path) -> Path:
    """A stand-in check whose every view gets a sure "a marker lies here"."""
    helper = onnx.helper
    views = helper.make_tensor_value_info(
        "views", onnx.TensorProto.FLOAT, ["batch", VIEW_CHANNELS, "height", "width"]
    )
    logits = helper.make_tensor_value_info("logits", onnx.TensorProto.FLOAT, ["batch", 1])
    nodes = [
        helper.make_node("ReduceMean", ["views", "axes"], ["mean"], keepdims=0),
        helper.make_node("Unsqueeze", ["mean", "one"], ["column"]),
        helper.make_node("Mul", ["column", "zero"], ["nothing"]),
        helper.make_node("Add", ["nothing", "sure"], ["logits"]),
    ]
    constants = [
        helper.make_tensor("axes", onnx.TensorProto.INT64, [3], [1, 2, 3]),
        helper.make_tensor("one", onnx.TensorProto.INT64, [1], [1]),
        helper.make_tensor("zero", onnx.TensorProto.FLOAT, [], [0.0]),
        helper.make_tensor("sure", onnx.TensorProto.FLOAT, [], [10.0]),
    ]
    graph = helper.make_graph(nodes, "always", [views], [logits], constants)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def test_each_check_is_scored_on_the_same_trains_by_its_own_answers(tmp_path: Path) -> None:
    scene = render_table(SEED)
    with_marker = sum(train.marker for train in scene.trains)
    without = len(scene.trains) - with_marker
    assert with_marker and without

    committed, always = score_checks(
        [MarkerCheck(), MarkerCheck(_always_says_marker(tmp_path / "always.onnx"))],
        [SEED],
        native=False,
    )

    assert committed.tables == always.tables == 1
    assert (committed.markers_right, committed.markers_wrong, committed.whole_right) == (
        len(scene.trains),
        0,
        1,
    )
    assert (always.markers_right, always.markers_wrong, always.whole_right) == (
        with_marker,
        without,
        0,
    )
