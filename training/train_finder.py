"""Train the tile finder on rendered scenes and export it to ONNX.

    python -m training.train_finder --seed 0 --out models/finder.onnx

Renders (or reuses from training/data/) table scenes with training.synth, trains a small
encoder-decoder CNN on the CPU to predict, on a grid 4x coarser than its input, each face-up
tile's centre, sub-cell offset and two half-axes (see vision/finder.py for the encoding), and
exports an ONNX graph whose first output channel is already a probability. Scenes are scaled,
turned, flipped, cropped and recoloured on the fly so the finder sees tiles from about 12 to
150 pixels across, in every colour, cut by every edge. A JSON sidecar records how it was made.
"""

from __future__ import annotations

import argparse
import json
import math
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from training.exporting import write_sidecar
from training.real_folds import parse_fold
from training.real_scenes import OUT as REAL_SCENES
from training.real_scenes import RealScene, load_scenes
from training.scenes_data import KINDS, SCENE_SIZE, Sample, build_scenes, decode_sample
from training.score_finder import match_faces
from vision.finding import (
    CHANNELS,
    STRIDE,
    decode,
    encode_axis,
    face_axes,
)

CROP = (384, 288)  # width, height of a training input


@dataclass(frozen=True)
class ExtraScenes:
    """A kind of rendered scene (a training.scenes_data.KINDS key) mixed in by its own option.

    Hand-sized kinds are shown whole as hands are; table-sized ones are cut round a tile as
    whole tables are, and come after every hand-sized kind (SceneSet counts them from the
    end). ``validation`` scenes of a table-sized kind (seeds 1,000,000 on) are checked with
    the tables, as many as ``validation_option`` says where the kind has one; ``anywhere``
    cuts its scenes round any point half the time instead of round a tile, for scenes whose
    point is what is not listed (printed dominoes)."""

    kind: str
    option: str
    described: str
    help: str
    validation: int = 0
    validation_option: str | None = None
    anywhere: bool = False

    @property
    def dest(self) -> str:
        return _dest(self.option)


def _dest(option: str) -> str:
    """The argparse attribute an option is stored under."""
    return option.removeprefix("--").replace("-", "_")


EXTRA_SCENES = (
    ExtraScenes(
        "standing",
        "--standing-scenes",
        "scenes with tiles stood up",
        "hand scenes with a row of tiles stood up (training.scenes_data.standing_scene) mixed in"
        " with the hands",
    ),
    ExtraScenes(
        "low tables",
        "--low-table-scenes",
        "parts of tables seen low",
        "parts of tables seen low and close (training.scenes_data.low_table_scene) mixed in with"
        " the hands, shown whole as they are",
    ),
    ExtraScenes(
        "plain black",
        "--plain-black-scenes",
        "scenes of plain black tiles",
        "hand scenes of small black tiles with no divider (training.scenes_data.plain_black_scene),"
        " shown whole",
    ),
    ExtraScenes(
        "checked",
        "--checked-scenes",
        "scenes on checks",
        "hands and tables seen low on checks that are no tiles (a gingham cloth, a calibration"
        " checkerboard: training.scenes_data.checked_scene), shown whole",
    ),
    ExtraScenes(
        "tables",
        "--table-scenes",
        "whole tables",
        "whole tables (training.scenes_data.render_table_sample) mixed in, cut round a tile",
        validation=60,
        validation_option="--val-tables",
    ),
    ExtraScenes(
        "dark tables",
        "--dark-table-scenes",
        "whole tables of black tiles",
        "whole tables of black tiles (training.scenes_data.render_dark_table_sample) mixed in"
        " after the other tables and cut like them",
        validation=20,
    ),
    ExtraScenes(
        "printed",
        "--printed-scenes",
        "scenes with printed dominoes",
        "scenes with printed dominoes (a board's score track, a box lid) that are not tiles, mixed"
        " in after the tables and cut like them",
        validation=20,
        anywhere=True,
    ),
)


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class FinderNet(nn.Module):
    """Encoder to 1/32, decoder back to 1/4 with skips; about 0.5 G multiply-adds at 512x384."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(_conv(3, 16, 2), _conv(16, 24, 2), _conv(24, 24))  # 1/4
        self.down8 = nn.Sequential(_conv(24, 48, 2), _conv(48, 48))
        self.down16 = nn.Sequential(_conv(48, 80, 2), _conv(80, 80), _conv(80, 80))
        self.down32 = nn.Sequential(_conv(80, 112, 2), _conv(112, 112), _conv(112, 112))
        self.lateral16 = nn.Conv2d(80, 112, 1)
        self.merge16 = _conv(112, 64)
        self.lateral8 = nn.Conv2d(48, 64, 1)
        self.merge8 = _conv(64, 48)
        self.lateral4 = nn.Conv2d(24, 48, 1)
        self.merge4 = nn.Sequential(_conv(48, 32), _conv(32, 32))
        self.head = nn.Conv2d(32, CHANNELS, 1)
        with torch.no_grad():
            self.head.bias.zero_()
            self.head.bias[0] = -4.0  # start with "no tile anywhere", as CenterNet does

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - 0.5) / 0.25
        f4 = self.stem(x)
        f8 = self.down8(f4)
        f16 = self.down16(f8)
        f32 = self.down32(f16)
        up = F.interpolate(f32, scale_factor=2.0, mode="nearest") + self.lateral16(f16)
        up = F.interpolate(self.merge16(up), scale_factor=2.0, mode="nearest") + self.lateral8(f8)
        up = F.interpolate(self.merge8(up), scale_factor=2.0, mode="nearest") + self.lateral4(f4)
        out: torch.Tensor = self.head(self.merge4(up))
        return out


class Exported(nn.Module):
    """The trained net with the heatmap channel turned into a probability."""

    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raw = self.net(x)
        return torch.cat([torch.sigmoid(raw[:, :1]), raw[:, 1:]], dim=1)


# --------------------------------------------------------------------------- targets


def make_targets(
    corners: np.ndarray, width: int, height: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heatmap (h, w), regression targets (8, h, w) and regression weights (h, w)."""
    grid_w, grid_h = width // STRIDE, height // STRIDE
    heat = np.zeros((grid_h, grid_w), np.float32)
    reg = np.zeros((8, grid_h, grid_w), np.float32)
    weight = np.zeros((grid_h, grid_w), np.float32)
    ys, xs = np.mgrid[0:grid_h, 0:grid_w].astype(np.float32)
    for quad in corners:
        centre, along, across = face_axes(quad / STRIDE)
        sigma = max(0.6, float(np.hypot(*across)) / 3.0)
        blob = np.exp(-((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (2 * sigma**2))
        peak_y = min(grid_h - 1, max(0, int(centre[1])))
        peak_x = min(grid_w - 1, max(0, int(centre[0])))
        blob[peak_y, peak_x] = 1.0
        owner = (blob >= 0.5) & (blob > heat)
        heat = np.maximum(heat, blob)
        if not owner.any():
            continue
        code = np.array([*encode_axis(along), *encode_axis(across)], np.float32)
        reg[0][owner] = centre[0] - xs[owner]
        reg[1][owner] = centre[1] - ys[owner]
        reg[2:, owner] = code[:, None]
        weight[owner] = blob[owner]
    return heat, reg, weight


def _fully_inside(quad: np.ndarray, width: int, height: int) -> bool:
    return bool(
        quad[:, 0].min() >= 1
        and quad[:, 1].min() >= 1
        and quad[:, 0].max() <= width - 2
        and quad[:, 1].max() <= height - 2
    )


def left_alone_mask(quads: np.ndarray, width: int, height: int) -> np.ndarray:
    """(h, w) grid cells, 1 inside any of ``quads`` (a cell's margin round them included), where
    the heatmap is neither rewarded nor penalised: a real photo's outlines that the label cannot
    settle."""
    mask = np.zeros((height // STRIDE, width // STRIDE), np.uint8)
    for quad in quads:
        cells = np.round(quad / STRIDE).astype(np.int32)
        cv2.fillConvexPoly(mask, cells, 1)
    grown = cv2.dilate(mask, np.ones((3, 3), np.uint8)) if quads.size else mask
    return np.asarray(grown, np.float32)


def augment(
    image: np.ndarray,
    corners: np.ndarray,
    rng: np.random.Generator,
    table: bool = False,
    anywhere: float = 0.15,
) -> tuple[np.ndarray, np.ndarray]:
    """Scale, turn, flip, crop/pad to CROP and recolour one scene; keeps whole tiles only
    (warp_scene without outlines left alone)."""
    warped, kept, _ = warp_scene(
        image, corners, np.zeros((0, 4, 2), np.float32), rng, table, anywhere
    )
    return warped, kept


def warp_scene(
    image: np.ndarray,
    corners: np.ndarray,
    left_alone: np.ndarray,
    rng: np.random.Generator,
    table: bool = False,
    anywhere: float = 0.15,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scale, turn, flip, crop/pad to CROP and recolour one scene; keeps whole tiles only, and
    moves the ``left_alone`` outlines with it (all of them: one the crop cuts is still unsure).

    A hand scene is shrunk or grown widely and its centre put anywhere in the crop. A whole
    table (``table``), drawn at the fine look's size, keeps about that size and is cut round
    one of its tiles (or, ``anywhere`` of the time, round any point), so that the crops show
    the long lines, bends and crowded hub the fine look must take apart."""
    height, width = image.shape[:2]
    if table:
        scale = float(math.exp(rng.uniform(math.log(0.7), math.log(1.4))))
        if len(corners) and rng.random() >= anywhere:
            middle = corners[int(rng.integers(len(corners)))].mean(axis=0).astype(np.float64)
        else:
            middle = np.array([rng.uniform(0, width), rng.uniform(0, height)], np.float64)
        spread = (0.2, 0.8)
    else:
        scale = float(math.exp(rng.uniform(math.log(0.45), math.log(1.6))))
        middle = np.array([width / 2, height / 2], np.float64)
        spread = (0.25, 0.75)
    angle = float(rng.choice([0.0, 90.0, 180.0, 270.0])) + (
        float(rng.uniform(-30, 30)) if rng.random() < 0.3 else 0.0
    )
    out_w, out_h = CROP
    matrix = cv2.getRotationMatrix2D((float(middle[0]), float(middle[1])), angle, scale)
    # Put that point at a random place in the crop.
    target = np.array([rng.uniform(*spread) * out_w, rng.uniform(*spread) * out_h], np.float64)
    matrix[:, 2] += target - middle
    if rng.random() < 0.5:
        flip = np.array([[-1.0, 0.0, out_w - 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
        matrix = (flip @ np.vstack([matrix, [0, 0, 1]]))[:2]
    warped = cv2.warpAffine(
        image,
        matrix,
        (out_w, out_h),
        flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    moved = corners.reshape(-1, 2) @ matrix[:, :2].T + matrix[:, 2]
    moved = moved.reshape(-1, 4, 2).astype(np.float32)
    kept = np.array([q for q in moved if _fully_inside(q, out_w, out_h)], np.float32)
    unsure = left_alone.reshape(-1, 2) @ matrix[:, :2].T + matrix[:, 2]
    # Replicated (not reflected) borders: a reflection would copy whole faces nobody listed.
    return (
        _recolour(warped, rng),
        kept.reshape(-1, 4, 2),
        unsure.reshape(-1, 4, 2).astype(np.float32),
    )


def _recolour(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = image.astype(np.float32)
    if rng.random() < 0.3:
        out = out[:, :, rng.permutation(3)]
    if rng.random() < 0.1:
        out[:] = out.mean(axis=2, keepdims=True)
    gain = rng.uniform(0.6, 1.3) * rng.uniform(0.9, 1.1, 3)
    out = out * gain + rng.uniform(-25, 25)
    if rng.random() < 0.3:
        gamma = rng.uniform(0.7, 1.4)
        out = 255.0 * (np.clip(out, 0, 255) / 255.0) ** gamma
    if rng.random() < 0.25:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.5))
    if rng.random() < 0.3:
        out = out + rng.normal(0, rng.uniform(2, 8), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


class SceneSet(torch.utils.data.Dataset[tuple[torch.Tensor, ...]]):
    def __init__(
        self,
        samples: list[Sample],
        seed: int,
        tables: int = 0,
        printed: int = 0,
        real: Sequence[RealScene] = (),
        real_repeat: int = 1,
    ) -> None:
        """``samples`` are hand scenes but for the last ``tables`` + ``printed``: whole tables,
        then scenes with printed dominoes (cut round any point half the time, since the
        prints, which are not listed, are what they are there to show). After them come the
        ``real`` photos, each ``real_repeat`` times an epoch, shown half the time whole (as the
        first look sees a photo) and half the time cut round a tile (as the fine look does)."""
        self.samples = samples
        self.seed = seed
        self.epoch = 0
        self.first_table = len(samples) - tables - printed
        self.first_printed = len(samples) - printed
        self.real = list(real)
        self.real_repeat = real_repeat

    def __len__(self) -> int:
        return len(self.samples) + len(self.real) * self.real_repeat

    def __getitem__(self, index: int) -> tuple[torch.Tensor, ...]:
        rng = np.random.default_rng((self.seed, self.epoch, index))
        if index >= len(self.samples):
            image, corners, unsure = self._real_view(
                self.real[(index - len(self.samples)) % len(self.real)], rng
            )
        else:
            image, corners = decode_sample(self.samples[index])
            image, corners = augment(
                image,
                corners,
                rng,
                table=index >= self.first_table,
                anywhere=0.5 if index >= self.first_printed else 0.15,
            )
            unsure = np.zeros((0, 4, 2), np.float32)
        heat, reg, weight = make_targets(corners, CROP[0], CROP[1])
        mask = left_alone_mask(unsure, CROP[0], CROP[1])
        tensor = torch.from_numpy(image.transpose(2, 0, 1).astype(np.float32) / 255.0)
        return (
            tensor,
            torch.from_numpy(heat),
            torch.from_numpy(reg),
            torch.from_numpy(weight),
            torch.from_numpy(mask),
        )

    @staticmethod
    def _real_view(
        scene: RealScene, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        image = np.asarray(cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR))
        faces, unsure = scene.faces, scene.left_alone
        whole = rng.random() < 0.5
        if whole:  # the first look's size: the long side as the scenes', SCENE_SIZE[0]
            size = SCENE_SIZE[0] / max(image.shape[:2])
            image = cv2.resize(image, None, fx=size, fy=size, interpolation=cv2.INTER_AREA)
            faces, unsure = faces * np.float32(size), unsure * np.float32(size)
        return warp_scene(image, faces, unsure, rng, table=not whole)


def focal_loss(
    logits: torch.Tensor, target: torch.Tensor, left_alone: torch.Tensor | None = None
) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre heatmap; cells of ``left_alone``
    (1) are not penalised for seeing a tile."""
    prob = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = target.eq(1).float()
    negative = 1 - positive
    if left_alone is not None:
        negative = negative * (1 - left_alone)
    pos_loss = -torch.log(prob) * (1 - prob) ** 2 * positive
    neg_loss = -torch.log(1 - prob) * prob**2 * (1 - target) ** 4 * negative
    count = positive.sum().clamp(min=1)
    return (pos_loss.sum() + neg_loss.sum()) / count


def regression_loss(pred: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    total = weight.sum().clamp(min=1)
    diff = F.smooth_l1_loss(pred, target, reduction="none", beta=0.1)  # (B, 8, h, w)
    scale = torch.tensor([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]).view(1, 8, 1, 1)
    return (diff * scale * weight[:, None]).sum() / total


# --------------------------------------------------------------------------- validation


def evaluate(net: nn.Module, samples: list[Sample], min_score: float = 0.3) -> dict[str, float]:
    """Precision and recall of whole faces (IoU >= 0.5) on full held-out scenes."""
    exported = Exported(net).eval()
    true_pos = found = wanted = 0
    ious: list[float] = []
    with torch.no_grad():
        for sample in samples:
            image, corners = decode_sample(sample)
            tensor = torch.from_numpy(image.transpose(2, 0, 1)[None].astype(np.float32) / 255.0)
            output = exported(tensor).numpy()
            faces = decode(output, 1.0, (image.shape[1], image.shape[0]), min_score)
            found += len(faces)
            wanted += len(corners)
            matched = match_faces([face.corners for face in faces], corners)
            true_pos += len(matched)
            ious.extend(matched)
    return {
        "precision": true_pos / max(found, 1),
        "recall": true_pos / max(wanted, 1),
        "mean_iou": float(np.mean(ious)) if ious else 0.0,
    }


# --------------------------------------------------------------------------- starting point


def load_exported_weights(net: FinderNet, path: Path) -> None:
    """Set ``net`` to the finder exported at ``path``, so training can go on from a committed
    model whose torch weights were not kept.

    The export folds each batch norm into the convolution before it, so the norm is set to pass
    its input through plus the folded bias (mean 0, variance 1 - eps, scale 1): in eval mode the
    net then computes exactly what the file does. Train it with frozen_norms(), or the first
    batch's own statistics would undo that.
    """
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    modules = dict(net.named_modules())
    loaded = 0
    for node in graph.node:
        if node.op_type != "Conv":
            continue
        # "/net/stem/stem.0/stem.0.0/Conv" is the torch module "stem.0.0", "/net/head/Conv" "head".
        name = node.name.split("/")[-2]
        conv = modules[name]
        assert isinstance(conv, nn.Conv2d)
        weight = torch.from_numpy(weights[node.input[1]].copy())
        bias = torch.from_numpy(weights[node.input[2]].copy())
        if tuple(weight.shape) != tuple(conv.weight.shape):
            shape, wanted = tuple(weight.shape), tuple(conv.weight.shape)
            raise ValueError(f"{path}: {name} is {shape}, not {wanted}")
        with torch.no_grad():
            conv.weight.copy_(weight)
            if conv.bias is not None:
                conv.bias.copy_(bias)
            else:
                parent, index = name.rsplit(".", 1)
                norm = modules[parent][int(index) + 1]  # type: ignore[index]
                assert isinstance(norm, nn.BatchNorm2d)
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias)
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)
        loaded += 1
    convs = sum(isinstance(m, nn.Conv2d) for m in net.modules())
    if loaded != convs:
        raise ValueError(f"{path}: {loaded} convolutions found, the net has {convs}")


def frozen_norms(net: nn.Module) -> None:
    """Put every batch norm in eval mode (its statistics stay; its scale and shift still learn)."""
    for module in net.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()


# --------------------------------------------------------------------------- main


def export_onnx(net: nn.Module, path: Path) -> None:
    """Write the net (heatmap as a probability) as an ONNX graph taking any batch and size."""
    was_training = net.training
    path.parent.mkdir(parents=True, exist_ok=True)
    exported = Exported(net).eval()
    example = torch.zeros(1, 3, 384, 512)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            exported,
            (example,),
            str(path),
            input_names=["image"],
            output_names=["maps"],
            # A free batch too: the pipeline's second look sends every face's crop in one call.
            dynamic_axes={
                "image": {0: "batch", 2: "height", 3: "width"},
                "maps": {0: "batch", 2: "rows", 3: "cols"},
            },
            opset_version=17,
            dynamo=False,
        )
    net.train(was_training)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("models/finder.onnx"))
    parser.add_argument("--scenes", type=int, default=9000)
    parser.add_argument("--val-scenes", type=int, default=300)
    parser.add_argument("--minutes", type=float, default=60.0, help="wall-clock training budget")
    parser.add_argument(
        "--steps",
        type=int,
        help="train this many steps instead, the learning rate scheduled over them (so two"
        " runs on machines of different speeds match)",
    )
    parser.add_argument("--batch", type=int, default=12)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--threads", type=int, default=2)
    for extra in EXTRA_SCENES:
        parser.add_argument(extra.option, type=int, default=0, help=extra.help)
        if extra.validation_option:
            parser.add_argument(
                extra.validation_option,
                type=int,
                default=extra.validation,
                help=f"{extra.described} to validate on",
            )
    parser.add_argument(
        "--real-scenes",
        type=Path,
        nargs="?",
        const=REAL_SCENES,
        help="mix in the real photos of training.real_scenes (this file, or its default one)",
    )
    parser.add_argument(
        "--hold-out",
        type=parse_fold,
        action="extend",
        nargs="+",
        default=[],
        help="leave these folds' real photos out (training.real_folds: boards, karthik, webcam,"
        " others), to measure on them",
    )
    parser.add_argument(
        "--real-repeat", type=int, default=3, help="each real photo's views an epoch"
    )
    parser.add_argument(
        "--start-from",
        type=Path,
        help="an exported finder (.onnx) to go on training from, with its norms frozen",
    )
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    started = time.monotonic()
    print(f"rendering/loading {args.scenes} training scenes", flush=True)
    train = build_scenes(0, args.scenes)
    print(f"rendering/loading {args.val_scenes} validation scenes", flush=True)
    val = build_scenes(1_000_000, args.val_scenes)
    counts = {extra.kind: getattr(args, extra.dest) for extra in EXTRA_SCENES}
    val_tables: list[Sample] = []
    for extra in EXTRA_SCENES:
        if not counts[extra.kind]:
            continue
        print(f"rendering/loading {counts[extra.kind]} {extra.described}", flush=True)
        train = train + build_scenes(0, counts[extra.kind], kind=extra.kind)
        validation = (
            getattr(args, _dest(extra.validation_option))
            if extra.validation_option
            else extra.validation
        )
        if validation:
            val_tables = val_tables + build_scenes(1_000_000, validation, kind=extra.kind)

    real: list[RealScene] = []
    if args.real_scenes:
        real = [s for s in load_scenes(args.real_scenes) if s.fold not in args.hold_out]
        print(f"{len(real)} real photos mixed in, each {args.real_repeat} times", flush=True)

    net = FinderNet()
    if args.start_from:
        load_exported_weights(net, args.start_from)
    params = sum(p.numel() for p in net.parameters())
    print(f"{params} parameters; training for {args.minutes:.0f} min", flush=True)
    dataset = SceneSet(
        train,
        args.seed,
        tables=sum(
            counts[extra.kind]
            for extra in EXTRA_SCENES
            if not KINDS[extra.kind].hand_sized and not extra.anywhere
        ),
        printed=sum(counts[extra.kind] for extra in EXTRA_SCENES if extra.anywhere),
        real=real,
        real_repeat=args.real_repeat,
    )
    loader = torch.utils.data.DataLoader(
        dataset,
        batch_size=args.batch,
        shuffle=True,
        num_workers=1,
        drop_last=True,
        persistent_workers=False,
    )
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60.0

    def training_mode() -> None:
        net.train()
        if args.start_from:  # a started net keeps the statistics it came with
            frozen_norms(net)

    train_started = time.monotonic()
    step = 0
    done = False
    while not done:
        training_mode()
        for images, heat, reg, weight, left_alone in loader:
            elapsed = time.monotonic() - train_started
            if args.steps:
                progress = min(1.0, step / args.steps)
            else:
                progress = min(1.0, elapsed / budget)
            lr = args.lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * progress)))
            if step < 100:
                lr *= (step + 1) / 100
            for group in optimiser.param_groups:
                group["lr"] = lr
            out = net(images)
            loss_heat = focal_loss(out[:, 0], heat, left_alone)
            loss_reg = regression_loss(out[:, 1:], reg, weight)
            loss = loss_heat + loss_reg
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            step += 1
            if step % 50 == 0:
                print(
                    f"step {step} {elapsed / 60:.1f} min lr {lr:.5f} heat {loss_heat.item():.3f}"
                    f" reg {loss_reg.item():.3f}",
                    flush=True,
                )
            if step % 1000 == 0:
                print(f"  val {evaluate(net, val[:100])}", flush=True)
                if val_tables:
                    print(f"  val tables {evaluate(net, val_tables[:20])}", flush=True)
                # A snapshot to look at while training goes on.
                export_onnx(net, Path("training/runs/finder-snapshot.onnx"))
                training_mode()
            if (step >= args.steps) if args.steps else (elapsed > budget):
                done = True
                break
        dataset.epoch += 1

    metrics = evaluate(net, val)
    print(f"final val {metrics}", flush=True)
    table_metrics = evaluate(net, val_tables) if val_tables else None
    if table_metrics:
        print(f"final val tables {table_metrics}", flush=True)
    export_onnx(net, args.out)
    # The weights themselves, so a later model can start from these (not committed).
    checkpoint = Path("training/runs") / f"{args.out.stem}_seed{args.seed}.pt"
    checkpoint.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), checkpoint)
    card = {
        "model": "tile finder",
        "command": (
            f"python -m training.train_finder --seed {args.seed}"
            + (f" --steps {args.steps}" if args.steps else f" --minutes {args.minutes:g}")
            + (f" --scenes {args.scenes}" if args.scenes != 9000 else "")
            + "".join(
                f" {extra.option} {counts[extra.kind]}"
                for extra in EXTRA_SCENES
                if counts[extra.kind]
            )
            + (f" --threads {args.threads}" if args.threads != 2 else "")
            + (f" --lr {args.lr:g}" if args.lr != 2e-3 else "")
            + (f" --start-from {args.start_from}" if args.start_from else "")
            + (
                (
                    " --real-scenes"
                    if args.real_scenes == REAL_SCENES
                    else f" --real-scenes {args.real_scenes}"
                )
                if args.real_scenes
                else ""
            )
            + (f" --real-repeat {args.real_repeat}" if args.real_scenes else "")
            + "".join(f" --hold-out '{fold}'" for fold in args.hold_out)
            + f" --out {args.out}"
        ),
        "seed": args.seed,
        "parameters": params,
        "train_scenes": args.scenes,
        "scene_size": list(SCENE_SIZE),
        "steps": step,
        "batch": args.batch,
        "minutes": round((time.monotonic() - started) / 60, 1),
        "synthetic_validation": metrics,
        **{extra.dest: counts[extra.kind] for extra in EXTRA_SCENES},
        "real_photos": len(real),
        "real_held_out_folds": args.hold_out,
        "synthetic_table_validation": table_metrics,
    }
    write_sidecar(args.out, card)
    print(json.dumps(card, indent=2))


if __name__ == "__main__":
    main()
