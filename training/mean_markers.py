"""Join marker checks trained apart into one ONNX file answering the mean of their logits.

    python -m training.mean_markers training/runs/markers_a.onnx training/runs/markers_b.onnx \
        --out models/markers.onnx

Two checks trained on different views and for different lengths disagree on the unclear
views more than on the clear ones; the mean of their (tempered) logits made fewer wrong
calls on the rendered tuning tables than either alone (models/MODEL_CARD.md, "Marker check
v2"). One file keeps the app's side unchanged: one session, one call per photo.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import compose, helper

from training.exporting import command_line, write_sidecar


def mean_of(paths: Sequence[Path]) -> onnx.ModelProto:
    """One graph: every model's nodes fed the first model's input, and the mean of their
    outputs as its output."""
    models = [onnx.load(str(path)) for path in paths]
    first = models[0].graph
    input_name = first.input[0].name
    output_name = first.output[0].name
    nodes, initializers, outputs = [], [], []
    for number, model in enumerate(models):
        prefixed = compose.add_prefix(model, f"m{number}_")
        graph = prefixed.graph
        own_input = graph.input[0].name
        for node in graph.node:
            node.input[:] = [input_name if name == own_input else name for name in node.input]
            nodes.append(node)
        initializers.extend(graph.initializer)
        outputs.append(graph.output[0].name)
    total = f"{output_name}_sum"
    nodes.append(helper.make_node("Sum", outputs, [total]))
    share = helper.make_tensor("mean_share", onnx.TensorProto.FLOAT, [], [1.0 / len(models)])
    initializers.append(share)
    nodes.append(helper.make_node("Mul", [total, "mean_share"], [output_name]))
    graph = helper.make_graph(
        nodes, "mean_of_marker_checks", [first.input[0]], [first.output[0]], initializers
    )
    joined = helper.make_model(graph, opset_imports=models[0].opset_import)
    joined.ir_version = models[0].ir_version
    onnx.checker.check_model(joined)
    return joined


def _outputs(model: onnx.ModelProto | Path, batch: np.ndarray) -> np.ndarray:
    source = str(model) if isinstance(model, Path) else model.SerializeToString()
    session = ort.InferenceSession(source, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    (logits,) = session.run(None, {name: batch})
    return np.asarray(logits)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", type=Path, nargs="+", help="marker checks (ONNX)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    joined = mean_of(args.models)
    # The joined graph must answer what the models answer, averaged.
    shape = [dim.dim_value or 3 for dim in joined.graph.input[0].type.tensor_type.shape.dim]
    batch = np.random.default_rng(0).random(shape, dtype=np.float32)
    expected = np.mean([_outputs(path, batch) for path in args.models], axis=0)
    assert np.allclose(_outputs(joined, batch), expected, atol=1e-5)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(joined, str(args.out))
    sidecars = [path.with_suffix(".json") for path in args.models]
    sidecar = {
        "model": args.out.name,
        "what": "the mean of these marker checks' logits (a marker lies beside this train)",
        "models": [
            json.loads(path.read_text()) if path.is_file() else {"model": path.name}
            for path in sidecars
        ],
        "command": command_line("training.mean_markers", argv),
    }
    write_sidecar(args.out, sidecar)
    print(f"wrote {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
