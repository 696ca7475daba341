"""Train the marker check on views of rendered train starts and export it to ONNX.

    python -m training.marker_data --first-seed 330000000 --tables 300 \
        --out training/data/marker_views_val.npz
    python -m training.marker_data --first-seed 320000000 --tables 1800 \
        --out training/data/marker_views.npz     # and 321000000 on, marker_views_2.npz
    python -m training.train_markers --minutes 16 --out models/markers.onnx \
        --data training/data/marker_views.npz training/data/marker_views_2.npz

The net sees one train's start (vision.markers.marker_views: the table round it, the tiles
read and the hub's reach) and answers one logit: does a marker lie beside this train? A marker
beside the next train over is in the view too, so the net also learns whose marker it is.
Views are mirrored across the train at random (a marker's side is the players' choice), moved
a pixel or two and their colours jittered. The net is kept at the step where the choosing
views' log loss was least, and its logit divided by a temperature fitted on them. A JSON
sidecar records the command, data and validation figures.
"""

from __future__ import annotations

import argparse
import copy
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from training.exporting import command_line, export_onnx, write_sidecar
from training.train_halves import conv_block
from vision.markers import VIEW_CHANNELS, VIEW_SHAPE

DATA = Path(__file__).resolve().parent / "data"


class MarkerNet(nn.Module):
    """(B, 5, 50, 64) view in 0..1 -> one logit: a marker beside this train."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_block(VIEW_CHANNELS, width, 3, 1),
            conv_block(width, width, 3, 2),  # 25 x 32
            conv_block(width, 2 * width),
            conv_block(2 * width, 2 * width, 3, 2),  # 13 x 16
            conv_block(2 * width, 3 * width),
            conv_block(3 * width, 4 * width, 3, 2),  # 7 x 8
        )
        height, width_px = VIEW_SHAPE
        cells = ((height + 7) // 8) * ((width_px + 7) // 8)
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(4 * width * cells, 64),
            nn.ReLU(inplace=True),
            nn.Linear(64, 1),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.head(self.features(x))
        return logits


def to_input(views: torch.Tensor) -> torch.Tensor:
    """uint8 (B, H, W, C) views as stored -> float (B, C, H, W) in 0..1."""
    return views.permute(0, 3, 1, 2).float() / 255.0


def augment(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Mirrored across the train half the time; the colours' gains and offset jittered and
    now and then their channels shuffled (the masks untouched)."""
    b = x.shape[0]

    def rand(*shape: int) -> torch.Tensor:
        return torch.rand(*shape, generator=generator)

    mirror = rand(b) < 0.5
    x = torch.where(mirror[:, None, None, None], x.flip(3), x)
    # Outlines a pixel or two off, as the finder's are: the whole view moved a little.
    down, right = (int(v) for v in torch.randint(-2, 3, (2,), generator=generator))
    x = torch.roll(x, shifts=(down, right), dims=(2, 3))
    colour = x[:, :3]
    perm = torch.argsort(rand(b, 3), dim=1)
    shuffled = torch.gather(colour, 1, perm[:, :, None, None].expand_as(colour))
    colour = torch.where((rand(b) < 0.3)[:, None, None, None], shuffled, colour)
    gains = (1 + (rand(b, 3) - 0.5) * 0.3) * (0.6 + rand(b, 1) * 0.6)
    offset = (rand(b, 1) - 0.5) * 0.15
    colour = (colour * gains[:, :, None, None] + offset[:, :, None, None]).clamp(0, 1)
    return torch.cat([colour, x[:, 3:]], dim=1)


class Tempered(nn.Module):
    """The net with its logit divided by a temperature fitted on the choosing views, so the
    exported chance is a calibrated one."""

    def __init__(self, net: MarkerNet, temperature: float) -> None:
        super().__init__()
        self.net = net
        self.temperature = temperature

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.net(x) / self.temperature
        return logits


def logits_of(net: nn.Module, views: torch.Tensor) -> torch.Tensor:
    net.eval()
    with torch.no_grad():
        return torch.cat([net(to_input(views[i : i + 512])) for i in range(0, len(views), 512)])


def fitted_temperature(logits: torch.Tensor, labels: torch.Tensor) -> float:
    """The temperature (0.5 to 8) that gives the views' labels the least log loss."""
    candidates = np.exp(np.linspace(np.log(0.5), np.log(8.0), 80))
    losses = [
        float(F.binary_cross_entropy_with_logits(logits[:, 0] / float(t), labels))
        for t in candidates
    ]
    return float(candidates[int(np.argmin(losses))])


def evaluate(net: nn.Module, views: torch.Tensor, labels: torch.Tensor) -> dict[str, float]:
    logits = logits_of(net, views)
    p = torch.sigmoid(logits[:, 0]).numpy()
    y = labels.numpy().astype(bool)
    figures: dict[str, float] = {
        "views": float(len(y)),
        "markers": float(y.sum()),
        "log_loss": float(F.binary_cross_entropy_with_logits(logits[:, 0], labels)),
        "right_at_half": float(((p >= 0.5) == y).mean()),
    }
    for low, high in ((0.2, 0.8), (0.1, 0.9), (0.05, 0.95)):
        sure = (p <= low) | (p >= high)
        figures[f"decided_{low}"] = float(sure.mean())
        figures[f"wrong_when_decided_{low}"] = float(((p >= high) != y)[sure].sum())
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, nargs="+", default=[DATA / "marker_views.npz"], help="view files"
    )
    parser.add_argument("--val", type=Path, default=DATA / "marker_views_val.npz")
    parser.add_argument("--minutes", type=float, default=20)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-3)
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)

    parts_x, parts_y = [], []
    for path in args.data:
        with np.load(path) as data:
            parts_x.append(data["views"])
            parts_y.append(data["labels"].astype(np.float32))
    train_x = torch.from_numpy(np.concatenate(parts_x))
    train_y = torch.from_numpy(np.concatenate(parts_y))
    with np.load(args.val) as data:
        val_x = torch.from_numpy(data["views"])
        val_y = torch.from_numpy(data["labels"].astype(np.float32))
    print(f"train {len(train_y)} views ({int(train_y.sum())} markers), val {len(val_y)}")

    net = MarkerNet(args.width)
    parameters = sum(p.numel() for p in net.parameters())
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    budget = args.minutes * 60
    started = time.monotonic()
    step, running = 0, 0.0
    best_loss, best_step = float("inf"), 0
    best_state: dict[str, torch.Tensor] | None = None
    while (elapsed := time.monotonic() - started) < budget:
        progress = elapsed / budget
        warm = min(1.0, step / 200)
        for group in optimiser.param_groups:
            group["lr"] = args.lr * warm * 0.5 * (1 + np.cos(np.pi * progress))
        net.train()
        index = torch.randint(0, len(train_x), (args.batch,), generator=generator)
        x = augment(to_input(train_x[index]), generator)
        loss = F.binary_cross_entropy_with_logits(net(x)[:, 0], train_y[index])
        optimiser.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimiser.step()
        step += 1
        value = float(loss.detach())
        running = 0.98 * running + 0.02 * value if step > 1 else value
        if step % 500 == 0:
            figures = evaluate(net, val_x, val_y)
            print(f"step {step} loss {running:.4f} {elapsed:.0f}s: {figures}", flush=True)
            # The net overfits a few thousand views: keep it where the choosing views say.
            if figures["log_loss"] < best_loss:
                best_loss, best_step = figures["log_loss"], step
                best_state = copy.deepcopy(net.state_dict())
    if best_state is not None:
        net.load_state_dict(best_state)
    temperature = fitted_temperature(logits_of(net, val_x), val_y)
    tempered = Tempered(net, temperature)
    metrics = evaluate(tempered, val_x, val_y)
    print(f"kept step {best_step}, temperature {temperature:.2f}: {metrics}", flush=True)

    tempered.eval()
    export_onnx(tempered, args.out, ("views", "logits"), to_input(val_x[:64]), atol=1e-4)
    sidecar = {
        "model": args.out.name,
        "input": f"views: float32 (B, {VIEW_CHANNELS}, {VIEW_SHAPE[0]}, {VIEW_SHAPE[1]}),"
        " blue, green, red in 0..1, tiles read, hub's reach (vision.markers.marker_views)",
        "output": "logits: float32 (B, 1), a marker lies beside this train (sigmoid)",
        "training_data": [path.name for path in args.data],
        "training_views": len(train_y),
        "training_markers": int(train_y.sum()),
        "steps": step,
        "kept_step": best_step,
        "temperature": round(temperature, 3),
        "batch": args.batch,
        "parameters": parameters,
        "train_seconds": round(time.monotonic() - started),
        "torch": torch.__version__,
        "validation": metrics,
        "command": command_line("training.train_markers", argv),
    }
    write_sidecar(args.out, sidecar)
    print(f"wrote {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
