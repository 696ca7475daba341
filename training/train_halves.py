"""Train the half reader on synthetic crops and export it to ONNX.

    python -m training.train_halves --seed 0 --out models/halves.onnx

Renders (or reuses from training/data/) a training set and a held-out synthetic validation set
with training.synth, plus crops cut along the tile finder's own outlines on rendered scenes
(training/finder_crops_data.py, so the reader learns the finder's looseness), trains a small
CNN on the CPU with augmentations that mimic rectified real photos, fits a temperature on the
validation sets and exports an ONNX graph whose logits are already divided by it. A JSON
sidecar next to the model records how it was made.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from training import finder_crops_data, halves_data
from training.exporting import command_line, export_onnx, write_sidecar
from training.halves_data import (
    NOT_A_HALF,
    NUM_CLASSES,
    build_set,
    chunk_jobs,
    load_chunk,
    render_chunk,
)
from vision.halves import split_halves


def conv_block(cin: int, cout: int, kernel: int = 3, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel, stride=stride, padding=kernel // 2, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class HalfNet(nn.Module):
    """A small CNN: 64x64 BGR half in 0..1 -> logits over 0..18 pips and 'not a half'.

    Sized for training on a shared 2-core CPU: about 7 M multiply-adds per half.
    """

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_block(3, width, 5, 2),  # 32x32
            conv_block(width, width, 3, 2),  # 16x16
            conv_block(width, 2 * width),
            conv_block(2 * width, 2 * width, 3, 2),  # 8x8
            conv_block(2 * width, 4 * width),
            conv_block(4 * width, 4 * width),
        )
        self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(4 * width, NUM_CLASSES))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - 0.5) / 0.25
        features = self.features(x)
        logits: torch.Tensor = self.head(features.mean(dim=(2, 3)))
        return logits


class Calibrated(nn.Module):
    """The trained net with its logits divided by the fitted temperature."""

    def __init__(self, net: nn.Module, temperature: float) -> None:
        super().__init__()
        self.net = net
        self.register_buffer("inv_temperature", torch.tensor(1.0 / temperature))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scaled: torch.Tensor = self.net(x) * self.inv_temperature
        return scaled


def _halves_and_labels(crops: np.ndarray, labels: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    halves = split_halves(crops)  # (2N, 64, 64, 3) uint8, left then right per crop
    flat = labels.reshape(-1)  # (left, right) per crop -> same order as the halves
    return torch.from_numpy(halves), torch.from_numpy(flat.astype(np.int64))


def to_float(batch: torch.Tensor) -> torch.Tensor:
    return batch.permute(0, 3, 1, 2).float() / 255.0


def _augment(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Cheap photometric and geometric changes on top of the renderer's (x: B,3,64,64 in 0..1).

    The renderer already varies light, blur, noise, JPEG and corner jitter; these add
    per-sample variety at almost no cost.
    """
    b = x.shape[0]

    def rand(*shape: int) -> torch.Tensor:
        return torch.rand(*shape, generator=generator)

    dy, dx = (int(v) for v in torch.randint(-3, 4, (2,), generator=generator))
    padded = F.pad(x, (3, 3, 3, 3), mode="replicate")
    x = padded[:, :, 3 + dy : 3 + dy + x.shape[2], 3 + dx : 3 + dx + x.shape[3]]
    flip = rand(b) < 0.5  # mirror top-bottom: the divider stays on the right
    x = torch.where(flip[:, None, None, None], x.flip(2), x)
    # Pip colours differ between sets, so counting must not lean on them.
    return colour_jitter(x, generator, darkest=0.55)


def colour_jitter(x: torch.Tensor, generator: torch.Generator, darkest: float) -> torch.Tensor:
    """Half the samples' channels shuffled, then each channel's gain jittered by up to 15%
    about an overall brightness of ``darkest`` .. ``darkest`` + 0.7, and an offset of up to
    0.1 either way (x: B, 3, H, W in 0..1; clamped back to 0..1)."""
    b = x.shape[0]

    def rand(*shape: int) -> torch.Tensor:
        return torch.rand(*shape, generator=generator)

    perm = torch.argsort(rand(b, 3), dim=1)
    shuffle = rand(b) < 0.5
    permuted = torch.gather(x, 1, perm[:, :, None, None].expand_as(x))
    x = torch.where(shuffle[:, None, None, None], permuted, x)
    gains = (1 + (rand(b, 3) - 0.5) * 0.3) * (darkest + rand(b, 1) * 0.7)
    offset = (rand(b, 1) - 0.5) * 0.2
    x = x * gains[:, :, None, None] + offset[:, :, None, None]
    return x.clamp_(0, 1)


def _evaluate(
    net: nn.Module, halves: torch.Tensor, labels: torch.Tensor, batch: int = 1024
) -> torch.Tensor:
    net.eval()
    outputs = []
    with torch.no_grad():
        for start in range(0, len(halves), batch):
            outputs.append(net(to_float(halves[start : start + batch])))
    return torch.cat(outputs)


def _fit_temperature(logits: torch.Tensor, labels: torch.Tensor) -> float:
    log_t = torch.zeros(1, requires_grad=True)
    optimiser = torch.optim.LBFGS([log_t], lr=0.1, max_iter=200)

    def closure() -> torch.Tensor:
        optimiser.zero_grad()
        loss = F.cross_entropy(logits / log_t.exp(), labels)
        loss.backward()  # type: ignore[no-untyped-call]
        return loss

    optimiser.step(closure)  # type: ignore[no-untyped-call]
    return float(log_t.exp().item())


def _expected_calibration_error(probs: torch.Tensor, labels: torch.Tensor, bins: int = 15) -> float:
    confidence, predicted = probs.max(dim=1)
    correct = (predicted == labels).float()
    error = 0.0
    edges = torch.linspace(0, 1, bins + 1)
    for low, high in zip(edges[:-1], edges[1:], strict=True):
        inside = (confidence > low) & (confidence <= high)
        if inside.any():
            error += float(inside.float().mean()) * abs(
                float(confidence[inside].mean()) - float(correct[inside].mean())
            )
    return error


def _report(name: str, logits: torch.Tensor, labels: torch.Tensor) -> dict[str, float]:
    predicted = logits.argmax(dim=1)
    faces = labels != NOT_A_HALF
    core = faces & (labels <= 12)
    result = {
        "half_accuracy": float((predicted == labels).float().mean()),
        "face_half_accuracy": float((predicted[faces] == labels[faces]).float().mean()),
        "face_half_accuracy_0_12": float((predicted[core] == labels[core]).float().mean()),
        "not_a_half_accuracy": float((predicted[~faces] == labels[~faces]).float().mean()),
    }
    print(name, " ".join(f"{k}={v:.4f}" for k, v in result.items()), flush=True)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("models/halves.onnx"))
    parser.add_argument("--train-count", type=int, default=40000, help="training crops")
    parser.add_argument("--val-count", type=int, default=4000, help="validation crops")
    parser.add_argument("--minutes", type=float, default=30.0, help="training time budget")
    parser.add_argument("--steps", type=int, default=0, help="fixed step count instead of time")
    parser.add_argument("--render-workers", type=int, default=1)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument(
        "--finder-scenes", type=int, default=2000, help="rendered scenes cut by the finder"
    )
    parser.add_argument("--finder-val-scenes", type=int, default=150)
    parser.add_argument(
        "--usual-finder-crops",
        action="store_true",
        help="finder crops from usual scenes only, without issue 12's failing classes",
    )
    parser.add_argument(
        "--finder-share", type=float, default=0.4, help="share of each batch from finder crops"
    )
    parser.add_argument(
        "--crop-finder",
        type=Path,
        default=None,
        help="cut the finder crops with this finder .onnx (default: the one the app runs)",
    )
    parser.add_argument(
        "--printed-backs",
        action="store_true",
        help="print a maker's name on half the face-down single-tile crops (the face-down check)",
    )
    parser.add_argument(
        "--crop-first-look-only",
        action="store_true",
        help="cut the finder crops along the finder's first look only (as reader v5 learnt)",
    )
    args = parser.parse_args(argv)

    started = time.monotonic()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    generator = torch.Generator().manual_seed(args.seed)
    base = args.seed * 10_000_000
    halves_data.use_printed_backs(args.printed_backs)
    print(f"rendering validation set ({args.val_count} crops)", flush=True)
    val_crops, val_pairs = build_set(
        base, args.val_count, workers=args.render_workers, chunk=args.val_count
    )
    val_x, val_y = _halves_and_labels(val_crops, val_pairs)
    del val_crops
    if args.crop_finder is not None or args.crop_first_look_only:
        finder_crops_data.use_finder(
            args.crop_finder or finder_crops_data.DEFAULT_FINDER_MODEL,
            second_look=not args.crop_first_look_only,
        )
    print(f"finder crops: {args.finder_val_scenes} validation scenes", flush=True)
    finder_val_x, finder_val_y = _halves_and_labels(
        *finder_crops_data.build_set(
            base + 3_900_000,
            args.finder_val_scenes,
            workers=args.render_workers,
            classes=not args.usual_finder_crops,
        )
    )
    print(f"finder crops: {args.finder_scenes} training scenes", flush=True)
    finder_x, finder_y = _halves_and_labels(
        *finder_crops_data.build_set(
            base + 3_000_000,
            args.finder_scenes,
            workers=args.render_workers,
            classes=not args.usual_finder_crops,
        )
    )

    # Training chunks render in the background while the net already trains on those ready.
    jobs = chunk_jobs(base + 1_000_000, args.train_count)
    context = multiprocessing.get_context("fork")
    pool = context.Pool(args.render_workers)
    pending = [pool.apply_async(render_chunk, (job,)) for job in jobs]
    parts_x: list[torch.Tensor] = []
    parts_y: list[torch.Tensor] = []

    def collect(block: bool) -> None:
        for task in list(pending):
            if block or task.ready():
                pending.remove(task)
                xs, ys = _halves_and_labels(*load_chunk(task.get()))
                parts_x.append(xs)
                parts_y.append(ys)

    while not parts_x:
        time.sleep(1)
        collect(block=False)
    train_x, train_y = torch.cat(parts_x), torch.cat(parts_y)

    net = HalfNet(args.width)
    parameters = sum(p.numel() for p in net.parameters())
    print(f"model: {parameters} parameters", flush=True)
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60
    train_start = time.monotonic()
    running = 0.0
    step = 0
    while True:
        elapsed = time.monotonic() - train_start
        if args.steps and step >= args.steps or not args.steps and elapsed >= budget:
            break
        progress = step / args.steps if args.steps else elapsed / budget
        # Warm up, then cosine decay over the step count or the time budget.
        warm = min(1.0, progress / 0.05)
        for group in optimiser.param_groups:
            group["lr"] = args.lr * warm * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))
        if step % 50 == 0 and pending:
            before = len(parts_x)
            collect(block=False)
            if len(parts_x) != before:
                train_x, train_y = torch.cat(parts_x), torch.cat(parts_y)
        net.train()
        from_finder = int(args.batch * args.finder_share)
        index = torch.randint(0, len(train_x), (args.batch - from_finder,), generator=generator)
        finder_index = torch.randint(0, len(finder_x), (from_finder,), generator=generator)
        batch_x = torch.cat([train_x[index], finder_x[finder_index]])
        batch_y = torch.cat([train_y[index], finder_y[finder_index]])
        x = _augment(to_float(batch_x), generator)
        loss = F.cross_entropy(net(x), batch_y)
        optimiser.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimiser.step()
        step += 1
        value = float(loss.detach())
        running = 0.98 * running + 0.02 * value if step > 1 else value
        if step % 200 == 0:
            print(
                f"step {step} loss {running:.4f} {elapsed:.0f}s "
                f"{len(train_x)} halves, {len(pending)} chunks rendering",
                flush=True,
            )
    pool.terminate()
    total_steps = step
    train_halves = len(train_x)
    train_seconds = time.monotonic() - train_start

    tile_logits = _evaluate(net, val_x, val_y)
    metrics = _report("validation", tile_logits, val_y)
    finder_logits = _evaluate(net, finder_val_x, finder_val_y)
    finder_metrics = _report("finder-crop validation", finder_logits, finder_val_y)
    # The temperature is fitted on both kinds, as the pipeline reads the finder's crops.
    val_logits = torch.cat([tile_logits, finder_logits])
    val_y = torch.cat([val_y, finder_val_y])
    temperature = _fit_temperature(val_logits, val_y)
    ece_before = _expected_calibration_error(F.softmax(val_logits, 1), val_y)
    ece_after = _expected_calibration_error(F.softmax(val_logits / temperature, 1), val_y)
    print(f"temperature {temperature:.3f}; ECE {ece_before:.4f} -> {ece_after:.4f}", flush=True)

    runs = Path(__file__).resolve().parent / "runs"
    runs.mkdir(exist_ok=True)
    torch.save(net.state_dict(), runs / f"halves_seed{args.seed}_{int(time.time())}.pt")
    calibrated = Calibrated(net, temperature).eval()
    export_onnx(calibrated, args.out, ("halves", "logits"), to_float(val_x[:64]), atol=1e-3)
    sidecar = {
        "model": args.out.name,
        "classes": [str(n) for n in range(NOT_A_HALF)] + ["not_a_half"],
        "input": "halves: float32 (B, 3, 64, 64), BGR in 0..1, divider on the right edge",
        "output": "logits: float32 (B, 20), already divided by the temperature",
        "temperature": temperature,
        "ece_validation_before": ece_before,
        "ece_validation_after": ece_after,
        "seed": args.seed,
        "train_halves_used": train_halves,
        "val_crops": args.val_count,
        "steps": total_steps,
        "batch": args.batch,
        "parameters": parameters,
        "train_seconds": round(train_seconds),
        "torch": torch.__version__,
        "finder_train_halves": len(finder_x),
        "finder_val_halves": len(finder_val_x),
        "validation": metrics,
        "finder_crop_validation": finder_metrics,
        "command": command_line("training.train_halves", argv),
    }
    write_sidecar(args.out, sidecar)
    size_kb = args.out.stat().st_size / 1024
    total = time.monotonic() - started
    print(f"wrote {args.out} ({size_kb:.0f} KB) in {total / 60:.1f} min", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
