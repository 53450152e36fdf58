#!/usr/bin/env python3
"""BlazeFace reference detections with ai-edge-litert, decoded exactly as Sources/Detection/BlazeFace does.

  blazeface_reference.py fixture MODELS_DIR
      writes Tests/DetectionTests/Fixtures/grace_hopper.ppm (matplotlib's public-domain sample photo,
      downscaled to 256 px high) and grace_hopper_blazeface.csv (detections of both models)
  blazeface_reference.py detect MODELS_DIR VARIANT IMAGE.bgra:W:H...
      prints CSV detections (file,score,x,y,w,h,12 keypoint coords) for raw BGRA images

Preprocessing: letterbox to a square (black bars), integer pre-shrink (block average, rounded) when the
frame's longer side is >= 2x the input, bilinear sampling, RGB, x*2/255-1. Decoding: anchors, clipped
sigmoid, weighted NMS (IoU 0.3), letterbox undone, frame pixels.
"""
import math
import os
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VARIANTS = {
    "short": ("face_detection_short_range.tflite", 128, [(8, 2), (16, 6)], 0.5),
    "full": ("face_detection_full_range.tflite", 192, [(4, 1)], 0.6),
}


def anchors(size, layers):
    out = []
    for stride, count in layers:
        cells = (size + stride - 1) // stride
        for y in range(cells):
            for x in range(cells):
                out += [((x + 0.5) / cells, (y + 0.5) / cells)] * count
    return np.array(out)


def shrink(bgra, factor):
    if factor <= 1:
        return bgra
    h, w = bgra.shape[0] // factor, bgra.shape[1] // factor
    blocks = bgra[: h * factor, : w * factor].astype(np.uint32).reshape(h, factor, w, factor, 4).sum(axis=(1, 3))
    area = factor * factor
    return ((blocks + area // 2) // area).astype(np.uint8)


def taps(frame, side, factor, source, size):
    offset = (side - frame) / 2
    step = side / size
    result = []
    for i in range(size):
        pos = (i + 0.5) * step - offset
        if pos < 0 or pos >= frame or source <= 0:
            result.append(None)
            continue
        sp = min(max(pos / factor - 0.5, 0), source - 1)
        lo = int(sp)
        result.append((lo, min(lo + 1, source - 1), np.float32(sp - lo)))
    return result


def preprocess(bgra, size):
    h, w = bgra.shape[:2]
    side = max(w, h)
    factor = max(1, min(side // (2 * size), w, h))
    src = shrink(bgra, factor).astype(np.float32)
    cols = taps(w, side, factor, src.shape[1], size)
    rows = taps(h, side, factor, src.shape[0], size)
    out = np.full((size, size, 3), -1, np.float32)
    for y, r in enumerate(rows):
        if r is None:
            continue
        for x, c in enumerate(cols):
            if c is None:
                continue
            top = src[r[0], c[0]] + (src[r[0], c[1]] - src[r[0], c[0]]) * c[2]
            bot = src[r[1], c[0]] + (src[r[1], c[1]] - src[r[1], c[0]]) * c[2]
            v = top + (bot - top) * r[2]
            out[y, x] = v[2::-1][:3] * np.float32(2 / 255) - 1
    return out[None]


def detect(interpreter, variant, bgra):
    _, size, layers, threshold = VARIANTS[variant]
    inp = interpreter.get_input_details()[0]
    interpreter.set_tensor(inp["index"], preprocess(bgra, size))
    interpreter.invoke()
    outs = [interpreter.get_tensor(d["index"])[0] for d in interpreter.get_output_details()]
    reg = next(o for o in outs if o.shape[-1] == 16).astype(np.float64)
    logits = next(o for o in outs if o.shape[-1] == 1)[:, 0].astype(np.float64)
    scores = 1 / (1 + np.exp(-np.clip(logits, -100, 100)))
    anc = anchors(size, layers)
    dets = []
    for i in np.nonzero(scores >= threshold)[0]:
        r = reg[i] / size
        cx, cy = r[0] + anc[i, 0], r[1] + anc[i, 1]
        bw, bh = r[2], r[3]
        if bw <= 0 or bh <= 0:
            continue
        kps = r[4:].reshape(6, 2) + anc[i]
        dets.append((scores[i], np.array([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]), kps))
    dets.sort(key=lambda d: -d[0])
    merged = []
    while dets:
        best = dets[0]
        keep, total, box, kps = [], 0.0, np.zeros(4), np.zeros((6, 2))
        for d in dets:
            if iou(best[1], d[1]) > 0.3 or d is best:
                total += d[0]
                box += d[1] * d[0]
                kps += d[2] * d[0]
            else:
                keep.append(d)
        merged.append((best[0], box / total, kps / total))
        dets = keep
    h, w = bgra.shape[:2]
    side = max(w, h)
    px, py = (side - w) / 2 / side, (side - h) / 2 / side

    def undo(x, y):
        return (x - px) / (1 - 2 * px) * w, (y - py) / (1 - 2 * py) * h

    rows = []
    for score, box, kps in merged:
        x0, y0 = undo(box[0], box[1])
        x1, y1 = undo(box[2], box[3])
        pts = [c for k in kps for c in undo(k[0], k[1])]
        rows.append([score, x0, y0, x1 - x0, y1 - y0] + pts)
    return rows


def iou(a, b):
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def interpreter(models, variant):
    it = Interpreter(model_path=os.path.join(models, VARIANTS[variant][0]), num_threads=1)
    it.allocate_tensors()
    return it


def read_ppm(path):
    data = open(path, "rb").read()
    parts, pos = [], 0
    while len(parts) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        parts.append(data[pos:end])
        pos = end
    w, h = int(parts[1]), int(parts[2])
    rgb = np.frombuffer(data[pos + 1: pos + 1 + w * h * 3], np.uint8).reshape(h, w, 3)
    bgra = np.zeros((h, w, 4), np.uint8)
    bgra[..., 0], bgra[..., 1], bgra[..., 2], bgra[..., 3] = rgb[..., 2], rgb[..., 1], rgb[..., 0], 255
    return bgra


def fmt(row):
    return ",".join("%.4f" % v for v in row)


def main():
    mode, models = sys.argv[1], sys.argv[2]
    if mode == "fixture":
        import matplotlib.cbook
        from PIL import Image
        fixtures = os.path.join(ROOT, "Tests", "DetectionTests", "Fixtures")
        os.makedirs(fixtures, exist_ok=True)
        image = Image.open(matplotlib.cbook.get_sample_data("grace_hopper.jpg", asfileobj=False)).convert("RGB")
        image = image.resize((round(image.width * 256 / image.height), 256), Image.LANCZOS)
        ppm = os.path.join(fixtures, "grace_hopper.ppm")
        image.save(ppm, format="PPM")
        bgra = read_ppm(ppm)
        with open(os.path.join(fixtures, "grace_hopper_blazeface.csv"), "w") as out:
            out.write("variant,score,x,y,w,h,kp0x,kp0y,kp1x,kp1y,kp2x,kp2y,kp3x,kp3y,kp4x,kp4y,kp5x,kp5y\n")
            for variant in ("short", "full"):
                for row in detect(interpreter(models, variant), variant, bgra):
                    out.write(variant + "," + fmt(row) + "\n")
                    print(variant, fmt(row))
    elif mode == "detect":
        variant = sys.argv[3]
        it = interpreter(models, variant)
        for spec in sys.argv[4:]:
            path, w, h = spec.rsplit(":", 2)
            bgra = np.fromfile(path, np.uint8).reshape(int(h), int(w), 4)
            for row in detect(it, variant, bgra):
                print(path + "," + fmt(row))


if __name__ == "__main__":
    main()
