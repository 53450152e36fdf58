#!/usr/bin/env python3
"""dlib's descriptor and SFace's joined into one embedding (issue 28, part 5): how the joined distance
and its thresholds were chosen, on records of a build that embedded with dlib alone.

Reference study only: the product computes both networks itself (Sources/Identity/IdentityEmbedder.swift).
Needs onnxruntime, onnx, numpy (as embedding_candidates.py).

  joined_embedding.py samples --model SFACE.onnx --dumps W --videos DIR
        SFace (onnxruntime) of every sample a dumped record holds (identity_decisions.py dump of a dlib-only
        build): the frame from DIR/NAME.mp4, aligned from the written row's eyes and mouth as
        embedding_candidates.py aligns; writes W/NAME.sface.json
  joined_embedding.py shots --a DLIB.tsv --b SFACE.tsv [--looks all|nozoom|normal]
        k samples against 8 (as embedding_candidates.py compare) for dlib, SFace and the two joined
  joined_embedding.py rules W... [--dlib-only]
        each record replayed with the joined embedding at the product's settings (threshold 0.4, margin 0.05,
        poor evidence 0.35 on the joined scale): IDF1 and IDs per sequence, links to the wrong person
  joined_embedding.py near W... [--dlib-only]
        identity_decisions.py near on the joined distance
  joined_embedding.py splits W [--dlib-only]
        IDs on 10 frames or more of each single-person clip in W (false splits)

Joined: concat(dlib, sface / |sface|) * SCALE, Euclidean; SCALE = 0.4 / (0.7 * sqrt 2), so that 0.4 on the joined
scale is 0.7 of the root mean square of the two networks' distances.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import identity_decisions as idd  # noqa: E402

SCALE = 0.4 / (0.7 * np.sqrt(2))
_load = json.load
_joined = dict(sface=None)


def _patched_load(f):
    """Records read by identity_decisions.Run get the joined embedding (samples without SFace dropped)."""
    data = _load(f)
    sface = _joined["sface"]
    if sface is None or not isinstance(data, dict) or "identity_events" not in data:
        return data
    events = []
    for e in data["identity_events"]:
        if e["kind"] == "o" and e.get("embedding"):
            s = sface.get("%d:%d" % (e["serial"], e["frame"]))
            if s is None:
                e = dict(e, embedding=None)
            else:
                s = np.array(s) / np.linalg.norm(s)
                e = dict(e, embedding=list(np.concatenate([np.array(e["embedding"]), s]) * SCALE))
        events.append(e)
    return dict(data, identity_events=events)


idd.json.load = _patched_load
_init = idd.Run.__init__


def _run_init(self, folder, name, rule=None, quality=None):
    path = os.path.join(folder, name + ".sface.json")
    _joined["sface"] = None if _joined.get("off") else _load(open(path))
    _init(self, folder, name, rule, quality)


idd.Run.__init__ = _run_init


def settings(dlib_only):
    """The product's settings on the joined scale, or dlib's before it."""
    _joined["off"] = dlib_only
    idd.THRESHOLD, idd.POOR_THRESHOLD = np.float32(0.4), np.float32(0.35)
    idd.MARGIN = np.float32(0.08 if dlib_only else 0.05)
    idd.WIDE_REACH = np.float32(0.0 if dlib_only else 0.05)  # dlib's builds had no wide tier


def frames_of(video, wanted):
    size = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                           "-of", "csv=p=0", video], capture_output=True, text=True, check=True).stdout.strip().split(",")
    w, h = int(size[0]), int(size[1])
    p = subprocess.Popen(["ffmpeg", "-v", "error", "-i", video, "-f", "rawvideo", "-pix_fmt", "rgb24",
                          "-fps_mode", "passthrough", "-"], stdout=subprocess.PIPE)
    out, n, last = {}, 0, max(wanted) if wanted else -1
    while n <= last:
        buf = p.stdout.read(w * h * 3)
        if len(buf) < w * h * 3:
            break
        if n in wanted:
            out[n] = np.frombuffer(buf, np.uint8).reshape(h, w, 3).astype(np.float32)
        n += 1
    p.kill()
    p.wait()
    return out


def samples(args):
    from embedding_candidates import TEMPLATE, session, similarity, warp
    model = session(args.model)
    _joined["off"] = True
    for name in idd.names_in(args.dumps):
        path = os.path.join(args.dumps, name + ".sface.json")
        if os.path.exists(path):
            continue
        run = idd.Run(args.dumps, name)
        events = [(e["serial"], e["frame"]) for e in run.record["identity_events"] if e["kind"] == "o" and e.get("embedding")]
        pictures = frames_of(os.path.join(args.videos, name + ".mp4"), {f for _, f in events})
        result = {}
        for serial, f in events:
            row = run.box.get((serial, f))
            if row is None or not row["left_eye_x"] or not row["mouth_x"] or f not in pictures:
                continue
            points = [(float(row[k + "_x"]), float(row[k + "_y"])) for k in ("left_eye", "right_eye", "mouth")]
            chip = warp(pictures[f], similarity(points, TEMPLATE))
            values = model.run(None, {"data": chip.transpose(2, 0, 1)[None].astype(np.float32)})[0][0]
            result["%d:%d" % (serial, f)] = [round(float(v), 6) for v in values]
        with open(path + ".tmp", "w") as f:
            json.dump(result, f)
        os.replace(path + ".tmp", path)
        print("%s: %d of %d samples" % (name, len(result), len(events)))


def shots(args):
    from embedding_candidates import load, person, separation
    a, b = load(args.a), load(args.b)
    keys = sorted(k for k in a if k in b)
    if args.looks == "nozoom":
        keys = [k for k in keys if "zoomed" not in k[0]]
    elif args.looks == "normal":
        keys = [k for k in keys if k[0].endswith("-normal")]
    dlib = np.array([a[k][1] for k in keys])
    sface = np.array([b[k][1] for k in keys])
    sface /= np.linalg.norm(sface, axis=1, keepdims=True)
    models = [("dlib", dlib, False), ("sface", sface, True), ("joined", np.hstack([dlib, sface]) * SCALE, False)]
    starts = collections.defaultdict(list)
    for i, (clip, _) in enumerate(keys):
        starts[clip].append(i)
    print("%s: %d samples of %d people" % (args.looks, len(keys), len({person(k[0]) for k in keys})))
    for k in (1, 2, 4, 8):
        line = []
        for name, vectors, unit in models:
            short, long = [], []
            for clip, index in starts.items():
                for size, into in ((k, short), (8, long)):
                    for s in range(0, len(index) - size + 1):
                        c = vectors[index[s:s + size]].mean(0)
                        into.append((clip, s, c / np.linalg.norm(c) if unit else c))
            xs, ys = np.array([c for _, _, c in short]), np.array([c for _, _, c in long])
            d = np.sqrt(np.maximum((xs ** 2).sum(1)[:, None] + (ys ** 2).sum(1)[None, :] - 2 * xs @ ys.T, 0))
            px = np.array([person(c) for c, _, _ in short])
            py = np.array([person(c) for c, _, _ in long])
            sx, sy = np.array([s for _, s, _ in short]), np.array([s for _, s, _ in long])
            cx, cy = np.array([c for c, _, _ in short]), np.array([c for c, _, _ in long])
            same = px[:, None] == py[None, :]
            apart = (cx[:, None] != cy[None, :]) | (sx[:, None] + k <= sy[None, :]) | (sy[None, :] + 8 <= sx[:, None])
            errors, _ = separation(d[same & apart], d[~same])
            gap = d[~same].min() - d[same & apart].max()
            line.append("%s gap %+.0f %%, %d wrong" % (name, 100 * gap / np.median(d[~same]), errors))
        print("  %d vs 8: %s" % (k, " | ".join(line)))


def rules(args):
    import identity_corpus
    settings(args.dlib_only)
    scores = []
    for folder in args.folders:
        for name in idd.names_in(folder):
            if not os.path.exists(os.path.join(folder, name + ".truth.json")):
                continue
            run = idd.Run(folder, name)
            rows = [dict(frame=int(row["frame"]), id=i, shot=None) for row, _, i in run.replayed]
            s = identity_corpus.identity_scores(run.truth["persons"], rows)
            wrong = sum(1 for d in run.ledger.index.log if d["linked"] and d["candidates"]
                        and run.gallery_person(d["gallery"])[0] != run.gallery_person(d["candidates"][0][2])[0])
            scores.append(s["idf1"])
            print("  %-40s IDF1 %.3f  IDs %d / %d people  links to someone else %d" % (
                os.path.join(os.path.basename(folder.rstrip("/")), name), s["idf1"], s["ids"], s["people"], wrong))
    print("mean IDF1 %.4f, worst %.3f" % (np.mean(scores), min(scores)))


def near(args):
    settings(args.dlib_only)
    for folder in args.folders:
        print("==", folder)
        idd.near(types.SimpleNamespace(folder=folder))


def splits(args):
    settings(args.dlib_only)
    total = 0
    for name in idd.names_in(args.folder):
        run = idd.Run(args.folder, name)
        counts = collections.Counter(i for _, _, i in run.replayed)
        ids = sum(1 for n in counts.values() if n >= 10)
        if ids > 1:
            print("  %s: %d IDs on 10 frames or more %s" % (name, ids, dict(counts)))
        total += max(0, ids - 1)
    print("false splits: %d" % total)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("samples")
    p.add_argument("--model", required=True)
    p.add_argument("--dumps", required=True)
    p.add_argument("--videos", required=True)
    p = sub.add_parser("shots")
    p.add_argument("--a", required=True)
    p.add_argument("--b", required=True)
    p.add_argument("--looks", default="all", choices=["all", "nozoom", "normal"])
    for command in ("rules", "near"):
        p = sub.add_parser(command)
        p.add_argument("folders", nargs="+")
        p.add_argument("--dlib-only", action="store_true")
    p = sub.add_parser("splits")
    p.add_argument("folder")
    p.add_argument("--dlib-only", action="store_true")
    args = parser.parse_args()
    {"samples": samples, "shots": shots, "rules": rules, "near": near, "splits": splits}[args.command](args)


if __name__ == "__main__":
    main()
