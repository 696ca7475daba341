"""Train the outline fitter on rendered scenes and export it to ONNX.

    python -m training.train_fitter --minutes 30 --out models/outline-fitter.onnx

Samples come from training.fitter_data (the committed finder's outlines of rendered scenes,
weighted to low shots and leaning tiles, and jittered face rectangles). The net sees an
outline's neighbourhood (vision.fitting) and answers the face's four corners as offsets from
where the outline's own corners lie in that view, so an outline already on its face needs no
change. A JSON sidecar records the command, data and validation figures.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from training import fitter_data
from training.exporting import command_line, export_onnx, write_sidecar
from training.train_halves import colour_jitter, conv_block, to_float
from vision.fitting import CONTEXT_ACROSS, CONTEXT_ALONG, CONTEXT_SIZE

# Where an outline's own corners lie in the fitter's view (TL, TR, BR, BL).
_ALONG_EDGE = (1 - 1 / CONTEXT_ALONG) / 2
_ACROSS_EDGE = (1 - 1 / CONTEXT_ACROSS) / 2
OUTLINE_IN_VIEW = torch.tensor(
    [
        [_ALONG_EDGE, _ACROSS_EDGE],
        [1 - _ALONG_EDGE, _ACROSS_EDGE],
        [1 - _ALONG_EDGE, 1 - _ACROSS_EDGE],
        [_ALONG_EDGE, 1 - _ACROSS_EDGE],
    ]
)
# Corner order after mirroring the view left-right, and top-bottom.
_MIRROR_X = [1, 0, 3, 2]
_MIRROR_Y = [3, 2, 1, 0]


class FitterNet(nn.Module):
    """96x96 BGR view in 0..1 -> the face's four corners (x, y in 0..1 of the view)."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_block(3, width, 5, 2),  # 48
            conv_block(width, 2 * width, 3, 2),  # 24
            conv_block(2 * width, 2 * width),
            conv_block(2 * width, 3 * width, 3, 2),  # 12
            conv_block(3 * width, 3 * width),
            conv_block(3 * width, 4 * width, 3, 2),  # 6
            conv_block(4 * width, 4 * width),
        )
        self.head = nn.Sequential(
            nn.Flatten(), nn.Linear(4 * width * 36, 128), nn.ReLU(inplace=True), nn.Linear(128, 8)
        )
        self.register_buffer("outline", OUTLINE_IN_VIEW.reshape(1, 8).clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        offsets: torch.Tensor = self.head(self.features((x - 0.5) / 0.25))
        corners: torch.Tensor = (self.outline + offsets * 0.25).reshape(-1, 4, 2)
        return corners


def _augment(
    x: torch.Tensor, corners: torch.Tensor, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """Mirrors (corners relabelled to keep the outline's order), a small shift, and colour."""
    b = x.shape[0]

    def rand(*shape: int) -> torch.Tensor:
        return torch.rand(*shape, generator=generator)

    corners = corners.clone()
    flip_x = rand(b) < 0.5
    x = torch.where(flip_x[:, None, None, None], x.flip(3), x)
    mirrored = corners[:, _MIRROR_X].clone()
    mirrored[..., 0] = 1 - mirrored[..., 0]
    corners = torch.where(flip_x[:, None, None], mirrored, corners)
    flip_y = rand(b) < 0.5
    x = torch.where(flip_y[:, None, None, None], x.flip(2), x)
    mirrored = corners[:, _MIRROR_Y].clone()
    mirrored[..., 1] = 1 - mirrored[..., 1]
    corners = torch.where(flip_y[:, None, None], mirrored, corners)
    dy, dx = (int(v) for v in torch.randint(-4, 5, (2,), generator=generator))
    padded = F.pad(x, (4, 4, 4, 4), mode="replicate")
    x = padded[:, :, 4 - dy : 4 - dy + CONTEXT_SIZE, 4 - dx : 4 - dx + CONTEXT_SIZE]
    corners = corners + torch.tensor([dx, dy], dtype=corners.dtype) / CONTEXT_SIZE
    return colour_jitter(x, generator, darkest=0.6), corners


def corner_error(predicted: torch.Tensor, wanted: torch.Tensor) -> torch.Tensor:
    """Each sample's mean corner distance, in pixels of the view."""
    return (predicted - wanted).norm(dim=2).mean(dim=1) * CONTEXT_SIZE


def _evaluate(net: nn.Module, crops: torch.Tensor, corners: torch.Tensor) -> dict[str, float]:
    net.eval()
    with torch.no_grad():
        predicted = torch.cat(
            [net(to_float(crops[i : i + 256])) for i in range(0, len(crops), 256)]
        )
    fitted = corner_error(predicted, corners)
    before = corner_error(OUTLINE_IN_VIEW.expand_as(corners), corners)
    return {
        "samples": len(crops),
        "median_px_before": float(before.median()),
        "median_px_after": float(fitted.median()),
        "mean_px_before": float(before.mean()),
        "mean_px_after": float(fitted.mean()),
        "within_2px_after": float((fitted <= 2).float().mean()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("models/outline-fitter.onnx"))
    parser.add_argument("--scenes", type=int, default=3000, help="training scenes")
    parser.add_argument("--val-scenes", type=int, default=300)
    parser.add_argument("--minutes", type=float, default=30.0, help="training time budget")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="rendering processes")
    parser.add_argument("--width", type=int, default=16)
    args = parser.parse_args(argv)
    started = time.monotonic()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    generator = torch.Generator().manual_seed(args.seed)

    print("rendering validation scenes", flush=True)
    val_crops, val_corners = fitter_data.build_set(
        fitter_data.VAL_FIRST_SEED, args.val_scenes, workers=args.workers
    )
    print("rendering training scenes", flush=True)
    crops, corners = fitter_data.build_set(
        fitter_data.TRAIN_FIRST_SEED, args.scenes, workers=args.workers
    )
    train_x, train_y = torch.from_numpy(crops), torch.from_numpy(corners)
    val_x, val_y = torch.from_numpy(val_crops), torch.from_numpy(val_corners)
    print(f"{len(train_x)} training samples, {len(val_x)} validation", flush=True)

    net = FitterNet(args.width)
    parameters = sum(p.numel() for p in net.parameters())
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60
    train_start = time.monotonic()
    step = 0
    running = 0.0
    while (elapsed := time.monotonic() - train_start) < budget:
        progress = elapsed / budget
        warm = min(1.0, step / 300)
        for group in optimiser.param_groups:
            group["lr"] = args.lr * warm * 0.5 * (1 + np.cos(np.pi * progress))
        net.train()
        index = torch.randint(0, len(train_x), (args.batch,), generator=generator)
        x, y = _augment(to_float(train_x[index]), train_y[index], generator)
        loss = F.smooth_l1_loss(net(x), y, beta=0.01)
        optimiser.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimiser.step()
        step += 1
        value = float(loss.detach())
        running = 0.98 * running + 0.02 * value if step > 1 else value
        if step % 500 == 0:
            print(f"step {step} loss {running:.5f} {elapsed:.0f}s", flush=True)
    train_seconds = time.monotonic() - train_start
    metrics = _evaluate(net, val_x, val_y)
    print(f"validation {metrics}", flush=True)

    runs = Path(__file__).resolve().parent / "runs"
    runs.mkdir(exist_ok=True)
    torch.save(net.state_dict(), runs / f"fitter_seed{args.seed}_{int(time.time())}.pt")
    net.eval()
    export_onnx(net, args.out, ("views", "corners"), to_float(val_x[:64]), atol=1e-4)
    sidecar = {
        "model": args.out.name,
        "input": f"views: float32 (B, 3, {CONTEXT_SIZE}, {CONTEXT_SIZE}), BGR in 0..1",
        "output": "corners: float32 (B, 4, 2), the face's corners in 0..1 of the view, "
        "in the order of the outline's own corners",
        "context": {"along": CONTEXT_ALONG, "across": CONTEXT_ACROSS},
        "seed": args.seed,
        "data_version": fitter_data.DATA_VERSION,
        "training_scenes": args.scenes,
        "training_samples": len(train_x),
        "steps": step,
        "batch": args.batch,
        "parameters": parameters,
        "train_seconds": round(train_seconds),
        "torch": torch.__version__,
        "validation": metrics,
        "command": command_line("training.train_fitter", argv),
    }
    write_sidecar(args.out, sidecar)
    total = time.monotonic() - started
    print(f"wrote {args.out} in {total / 60:.1f} min", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
