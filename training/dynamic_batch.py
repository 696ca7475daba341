"""Give the tile finder's ONNX graph a free batch size, so several crops run in one call.

    .venv/bin/python -m training.dynamic_batch models/finder.onnx [--out PATH]

The exported finder fixes its batch to 1 on the input and output only; nothing inside the
graph depends on it (convolutions, resizes by scale factors, slices along the channels). This
rewrites the first dimension of the graph's input and output as the symbolic "batch", refuses
a graph with a reshape or shape node that might fix it after all, and then checks that a batch
of N differently sized-then-padded crops gives, crop by crop, the same maps as N batch-1 runs
of the original graph (to float tolerance). Needs the `onnx` package (training only); the app
only needs onnxruntime.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

BATCH = "batch"
SHAPE_DEPENDENT = frozenset({"Reshape", "Shape", "Flatten", "Expand", "Tile", "ConstantOfShape"})
TOLERANCE = 1e-4


def make_batch_dynamic(model_bytes: bytes) -> bytes:
    """The model with its input's and outputs' first dimension made symbolic."""
    import onnx

    model = onnx.load_from_string(model_bytes)
    fixed = sorted({node.op_type for node in model.graph.node} & SHAPE_DEPENDENT)
    if fixed:
        raise ValueError(f"the graph has {', '.join(fixed)} nodes that may fix the batch size")
    for value in [*model.graph.input, *model.graph.output]:
        first = value.type.tensor_type.shape.dim[0]
        first.ClearField("dim_value")
        first.dim_param = BATCH
    onnx.checker.check_model(model)
    return bytes(model.SerializeToString())


def largest_difference(original: bytes, batched: bytes, count: int = 5, seed: int = 0) -> float:
    """Largest absolute difference between one batched run of ``count`` random inputs of the
    rewritten model and ``count`` batch-1 runs of the original."""
    import onnxruntime

    def session(data: bytes) -> onnxruntime.InferenceSession:
        return onnxruntime.InferenceSession(data, providers=["CPUExecutionProvider"])

    one, many = session(original), session(batched)
    name = one.get_inputs()[0].name
    rng = np.random.default_rng(seed)
    inputs = rng.random((count, 3, 192, 192), dtype=np.float32)
    (together,) = many.run(None, {name: inputs})
    worst = 0.0
    for index in range(count):
        (alone,) = one.run(None, {name: inputs[index : index + 1]})
        worst = max(worst, float(np.abs(np.asarray(together)[index] - alone[0]).max()))
    return worst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("model", type=Path)
    parser.add_argument("--out", type=Path, help="where to write it (default: over the model)")
    args = parser.parse_args(argv)
    original = args.model.read_bytes()
    batched = make_batch_dynamic(original)
    worst = largest_difference(original, batched)
    if worst > TOLERANCE:
        print(f"refused: a batch differs from single runs by {worst:.2e}")
        return 1
    out = args.out or args.model
    out.write_bytes(batched)
    print(f"wrote {out}: batch is free; batched and single runs differ by at most {worst:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
