#!/usr/bin/env python3
"""Reference outputs of the TFLite models, computed with ai-edge-litert (pip install ai-edge-litert).

Writes Tests/NeuralRuntimeTests/Fixtures/<model>_<pattern>_out<i>.bin (float32 little-endian, one
file per model output) for deterministic input patterns that the Swift tests compute identically
(integer arithmetic only, exact in float32):
  noise: h = (i * 2654435761 + 12345) mod 2^32, value = (h >> 8) / 2^24 * 2 - 1
  ramp:  value = ((x * 7 + y * 13 + c * 29) mod 256) / 127.5 - 1   (i = (y * W + x) * 3 + c)

Usage: scripts/reference/tflite_fixtures.py [MODELS_DIR]   (default: $FACETRACK_MODELS or ./models)
"""
import os
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "NeuralRuntimeTests", "Fixtures")
MODELS = ["face_detection_short_range", "face_detection_full_range", "face_landmark", "iris_landmark"]


def pattern(name, shape):
    _, h, w, c = shape
    i = np.arange(h * w * c, dtype=np.uint64)
    if name == "noise":
        hashed = (i * np.uint64(2654435761) + np.uint64(12345)) % np.uint64(1 << 32)
        values = (hashed >> np.uint64(8)).astype(np.float64) / float(1 << 24) * 2 - 1
    else:
        y, rem = np.divmod(i, np.uint64(w * c))
        x, ch = np.divmod(rem, np.uint64(c))
        values = ((x * 7 + y * 13 + ch * 29) % 256).astype(np.float64) / 127.5 - 1
    return values.astype(np.float32).reshape(shape)


def main():
    models_dir = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("FACETRACK_MODELS", os.path.join(ROOT, "models"))
    os.makedirs(OUT, exist_ok=True)
    for model in MODELS:
        interpreter = Interpreter(model_path=os.path.join(models_dir, model + ".tflite"), num_threads=1)
        interpreter.allocate_tensors()
        info = interpreter.get_input_details()[0]
        for name in ("noise", "ramp"):
            interpreter.set_tensor(info["index"], pattern(name, tuple(info["shape"])))
            interpreter.invoke()
            for k, detail in enumerate(interpreter.get_output_details()):
                data = interpreter.get_tensor(detail["index"]).astype("<f4")
                path = os.path.join(OUT, f"{model}_{name}_out{k}.bin")
                data.tofile(path)
                print(path, detail["name"], data.shape, float(np.abs(data).max()))


if __name__ == "__main__":
    main()
