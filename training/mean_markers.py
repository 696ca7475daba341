"""Join marker checks trained apart into one ONNX file answering the mean of their logits.

    python -m training.mean_markers training/runs/markers_a.onnx training/runs/markers_b.onnx \
        --out models/markers.onnx
    python -m training.mean_markers --split models/markers.onnx --out training/runs

Two checks trained on different views and for different lengths disagree on the unclear
views more than on the clear ones; the mean of their (tempered) logits made fewer wrong
calls on the rendered tuning tables than either alone (models/MODEL_CARD.md, "Marker check
v2"). One file keeps the app's side unchanged: one session, one call per photo.

The committed file is the only copy of the checks in it: ``--split`` takes each back out
(answering as it did alone, with its own sidecar), to be joined again with a new one.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import compose, helper, shape_inference, utils

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


def parts_of(joined: onnx.ModelProto) -> list[onnx.ModelProto]:
    """The checks a file of :func:`mean_of`'s was joined from, each answering as it did alone
    (so a new check can be joined with them; the committed file keeps no other copy)."""
    graph = joined.graph
    (mean,) = (node for node in graph.node if node.output[0] == graph.output[0].name)
    (total,) = (node for node in graph.node if node.output[0] == mean.input[0])
    # The extractor finds the parts' outputs only among inferred value infos.
    extractor = utils.Extractor(shape_inference.infer_shapes(joined))
    parts = []
    for part_output in total.input:
        part = extractor.extract_model([graph.input[0].name], [part_output])
        for node in part.graph.node:
            node.output[:] = [
                graph.output[0].name if name == part_output else name for name in node.output
            ]
        part.graph.output[0].name = graph.output[0].name
        onnx.checker.check_model(part)
        parts.append(part)
    return parts


def _probe_batch(model: onnx.ModelProto) -> np.ndarray:
    """Random views of the model's input shape (3 where a size is left open)."""
    shape = [dim.dim_value or 3 for dim in model.graph.input[0].type.tensor_type.shape.dim]
    return np.random.default_rng(0).random(shape, dtype=np.float32)


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
    parser.add_argument(
        "--split",
        action="store_true",
        help="the other way: write the checks one joined file was made of into --out (a folder)",
    )
    args = parser.parse_args(argv)
    if args.split:
        return _split(args.models, args.out)
    joined = mean_of(args.models)
    # The joined graph must answer what the models answer, averaged.
    batch = _probe_batch(joined)
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


def _split(joined_paths: Sequence[Path], folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    for joined_path in joined_paths:
        joined = onnx.load(str(joined_path))
        sidecar = joined_path.with_suffix(".json")
        described = json.loads(sidecar.read_text())["models"] if sidecar.is_file() else []
        parts = parts_of(joined)
        batch = _probe_batch(joined)
        expected = _outputs(joined, batch)
        assert np.allclose(np.mean([_outputs(part, batch) for part in parts], axis=0), expected)
        for number, part in enumerate(parts):
            about = described[number] if number < len(described) else {}
            path = folder / str(about.get("model", f"{joined_path.stem}_{number}.onnx"))
            onnx.save(part, str(path))
            write_sidecar(path, about | {"split_from": joined_path.name})
            print(f"wrote {path}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
