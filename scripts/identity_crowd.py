#!/usr/bin/env python3
"""Crowds of real faces, with truth by construction: re-identification against the tracker alone.

  identity_crowd.py build --corpus DIR --out WORK --facetrack BIN [--half report|tune] [--seeds 1,2,3]
  identity_crowd.py run   --corpus DIR --out WORK --facetrack BIN [--half ...] [--seeds ...] [--label NAME]
      [--people N] [--appearances N] [--drift PX] [--name NAME]   (denser crowds: 14 people, 28, 700)
  identity_crowd.py known --corpus DIR --out WORK --facetrack BIN --photos KNOWN [--half ...] [--seeds ...] [--label NAME] [...]
      each crowd with --known KNOWN (one PERSON.png each, e.g. identity_corpus.py known's WORK/HALF/known):
      known people's faces named right, named as someone else or unnamed; strangers' faces named

The issue's street crowd (people walking toward the camera, ID switches 2 without re-identification,
19 with it) is not in the corpus, and samples/crowd-hd.mp4 moves stills. Here each crowd is a
1920x1080, 25 fps, 10-second picture in which people of one half of the corpus (odd pNN tune, even
report, as in identity_corpus.py) walk toward the camera: each appearance is a moving, talking face
from the person's own single clip, cut out with a soft elliptical edge, growing from 22-34 px to 60-130
px on its way down the picture; nearer faces cover farther ones, and people come back after they
left (another appearance 1.5 s or more later, from a random part of one of their clips). Truth per
frame: each face's box, mapped from the source clip's own box (`facetrack process --no-reid`, the clip's
largest face; made once under WORK/crowd/sources, so later builds are scored against the same truth),
its person as the ID; a face more than half covered by nearer ones, or more than half outside the
picture, is `ignore`. `run` processes each crowd with and without --no-reid and scores both with `facetrack
eval` (ID switches, IDF1): re-identification must not add switches.
"""
import argparse
import csv as csvfile
import glob
import json
import os
import random
import subprocess
import sys

import numpy as np
from PIL import Image

from identity_corpus import TRUTH_HEADER, half_of, person_of

W, H, FPS, SECONDS = 1920, 1080, 25, 10.0
SOURCE_WIDTH = 640          # source clips are read at this width
TILE = 2.2                  # a face's cut-out, over the face's longer side


def clip_size(clip):
    """The clip's width and height."""
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                          "-of", "csv=p=0", clip], capture_output=True, text=True, check=True).stdout
    return tuple(map(int, out.split()[0].split(",")))


SOURCE_BOXES = {}


def source_boxes(args, clip):
    """The clip's largest face per frame time (facetrack --no-reid), in SOURCE_WIDTH pixels; read once."""
    if clip in SOURCE_BOXES:
        return SOURCE_BOXES[clip]
    out = os.path.join(args.out, "crowd", "sources", os.path.basename(clip)[:-4] + ".csv")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if not os.path.exists(out):
        subprocess.run([args.facetrack, "process", clip, "--csv", out + ".part", "--no-reid", "--quiet"], check=True)
        os.replace(out + ".part", out)
    k = SOURCE_WIDTH / clip_size(clip)[0]
    best = {}
    for r in csvfile.DictReader(open(out)):
        if not r["width"]:
            continue
        t, side = float(r["time"]), max(float(r["width"]), float(r["height"]))
        if t not in best or side * k > best[t][2]:
            best[t] = (float(r["x"]) * k + float(r["width"]) * k / 2, float(r["y"]) * k + float(r["height"]) * k / 2,
                       side * k, float(r["width"]) * k, float(r["height"]) * k)
    SOURCE_BOXES[clip] = sorted(best.items())
    return SOURCE_BOXES[clip]


def read_segment(clip, start, duration):
    """The clip's frames from `start` for `duration` seconds at FPS, SOURCE_WIDTH wide."""
    width, height = clip_size(clip)
    rows = int(round(height * SOURCE_WIDTH / width / 2)) * 2
    raw = subprocess.run(["ffmpeg", "-v", "error", "-ss", "%.3f" % start, "-i", clip, "-t", "%.3f" % duration,
                          "-vf", "fps=%d,scale=%d:%d,format=rgb24" % (FPS, SOURCE_WIDTH, rows), "-f", "rawvideo", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(-1, rows, SOURCE_WIDTH, 3)


def box_at(boxes, t):
    """The source box nearest time t (within two frames), or None."""
    lo, hi = 0, len(boxes)
    while lo < hi:
        mid = (lo + hi) // 2
        if boxes[mid][0] < t:
            lo = mid + 1
        else:
            hi = mid
    near = [boxes[i] for i in (lo - 1, lo) if 0 <= i < len(boxes)]
    if not near:
        return None
    best = min(near, key=lambda b: abs(b[0] - t))
    return best[1] if abs(best[0] - t) <= 2.0 / FPS else None


def plan(args, seed):
    """People and their appearances: (person, clip, clip start, t0, duration, path)."""
    rng = random.Random(seed)
    clips = sorted(c for c in glob.glob(os.path.join(args.corpus, "single", "*.mp4"))
                   if half_of(person_of(c)) == args.half and person_of(c) != "p41")
    usable = []
    for clip in clips:
        boxes = source_boxes(args, clip)
        sides = sorted(b[1][2] for b in boxes)
        # A face small in its own clip would be blown up several times: left out (p46's juggler).
        if len(boxes) >= 4 * FPS and sides[len(sides) // 2] >= 70:
            usable.append((clip, boxes))
    if len(usable) < 2:
        sys.exit("identity_crowd: %s: fewer than two usable single clips of the %s half" % (args.corpus, args.half))
    people = {}
    for clip, boxes in usable:
        people.setdefault(person_of(clip), []).append((clip, boxes))
    chosen = rng.sample(sorted(people), min(args.people, len(people)))
    appearances, busy = [], {}
    for n in range(args.appearances):
        person = chosen[n % len(chosen)]
        clip, boxes = rng.choice(people[person])
        length = boxes[-1][0] - boxes[0][0]
        duration = rng.uniform(3.0, 6.0)
        duration = min(duration, length - 0.2)
        earliest = busy.get(person, -10.0) + 1.5
        if earliest > SECONDS - 1.5:
            continue
        t0 = rng.uniform(max(0.0, earliest), max(earliest, SECONDS - duration))
        duration = min(duration, SECONDS - t0)
        busy[person] = t0 + duration
        start = rng.uniform(boxes[0][0], max(boxes[0][0], boxes[-1][0] - duration))
        x0 = rng.uniform(150, W - 150)
        path = (x0, rng.uniform(250, 450), rng.uniform(22, 34),
                min(max(x0 + rng.uniform(-args.drift, args.drift), 120), W - 120), rng.uniform(700, 980), rng.uniform(60, 130))
        appearances.append((person, clip, start, t0, duration, path))
    return appearances


def ellipse_alpha(side):
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
    c = (side - 1) / 2.0
    r = np.sqrt(((xx - c) / (side / 2.0)) ** 2 + ((yy - c) / (side / 2.0)) ** 2)
    return np.clip((1.0 - r) / 0.45, 0.0, 1.0)


def build_one(args, seed, rebuild=False):
    name = "%s-%d" % (args.name, seed)
    folder = os.path.join(args.out, "crowd", args.half)
    os.makedirs(folder, exist_ok=True)
    video, truth_path = os.path.join(folder, name + ".mp4"), os.path.join(folder, name + ".truth.csv")
    if os.path.exists(video) and os.path.exists(truth_path) and not rebuild:
        return video, truth_path
    appearances = plan(args, seed)
    frames_of = {}
    for i, (person, clip, start, t0, duration, path) in enumerate(appearances):
        frames_of[i] = (read_segment(clip, start, duration + 0.2), source_boxes(args, clip))
    rng = np.random.default_rng(seed)
    # A street-like backdrop: muted low-frequency noise, blurred (no faces, no hard edges).
    grey = rng.uniform(70, 170, (9, 16, 1))
    small = Image.fromarray(np.clip(grey + rng.uniform(-15, 15, (9, 16, 3)), 0, 255).astype(np.uint8)).resize((W, H), Image.BICUBIC)
    backdrop = np.asarray(small, dtype=np.float32)
    count = int(SECONDS * FPS)
    encoder = subprocess.Popen(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "%dx%d" % (W, H),
                                "-r", str(FPS), "-i", "-", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18",
                                "-pix_fmt", "yuv420p", video + ".part.mp4"], stdin=subprocess.PIPE)
    truth = []
    for frame in range(count):
        t = frame / FPS
        canvas = backdrop.copy()
        cover = np.zeros((H, W), dtype=np.float32)  # nearer tiles' alpha, drawn last
        shown = []
        for i, (person, clip, start, t0, duration, path) in enumerate(appearances):
            if not (t0 <= t < t0 + duration):
                continue
            u = (t - t0) / duration
            x0, y0, f0, x1, y1, f1 = path
            frames, boxes = frames_of[i]
            k = int((t - t0) * FPS)
            if k >= len(frames):
                continue
            box = box_at(boxes, start + (t - t0))
            if box is None:
                continue
            shown.append((f0 + (f1 - f0) * u, x0 + (x1 - x0) * u, y0 + (y1 - y0) * u, person, frames[k], box))
        shown.sort(key=lambda s: s[0])  # farther (smaller) first, nearer on top
        placed = []
        for face, cx, cy, person, picture, (bx, by, bside, bw, bh) in shown:
            scale = face / bside
            side = int(round(TILE * face)) | 1
            region = TILE * bside
            left, top = bx - region / 2, by - region / 2
            tile = Image.fromarray(picture).transform((side, side), Image.EXTENT, (left, top, left + region, top + region),
                                                      Image.BILINEAR)
            tile = np.asarray(tile, dtype=np.float32)
            alpha = ellipse_alpha(side)
            # Parts of the cut-out beyond the source frame are not drawn.
            ys = top + (np.arange(side) + 0.5) * region / side
            xs = left + (np.arange(side) + 0.5) * region / side
            def edge(v, n):  # 0 outside the source frame, rising to 1 over its outer 8 pixels
                return np.clip(np.minimum(v, n - v) / 8.0, 0.0, 1.0)
            alpha = alpha * edge(ys, picture.shape[0])[:, None] * edge(xs, picture.shape[1])[None, :]
            ox, oy = int(round(cx - side / 2)), int(round(cy - side / 2))
            x_a, y_a, x_b, y_b = max(ox, 0), max(oy, 0), min(ox + side, W), min(oy + side, H)
            if x_b <= x_a or y_b <= y_a:
                continue
            a = alpha[y_a - oy:y_b - oy, x_a - ox:x_b - ox, None]
            canvas[y_a:y_b, x_a:x_b] = canvas[y_a:y_b, x_a:x_b] * (1 - a) + tile[y_a - oy:y_b - oy, x_a - ox:x_b - ox] * a
            w, h = bw * scale, bh * scale
            placed.append((person, cx - w / 2, cy - h / 2, w, h, (x_a, y_a, x_b, y_b, a[:, :, 0])))
        # A face's visible share: inside the picture and not under a nearer cut-out.
        for n, (person, x, y, w, h, _) in enumerate(placed):
            xa, ya, xb, yb = int(max(x, 0)), int(max(y, 0)), int(min(x + w, W)), int(min(y + h, H))
            visible = 0.0
            if xb > xa and yb > ya:
                hidden = np.zeros((yb - ya, xb - xa), dtype=np.float32)
                for (_, _, _, _, _, (tx_a, ty_a, tx_b, ty_b, ta)) in placed[n + 1:]:
                    ix_a, iy_a, ix_b, iy_b = max(xa, tx_a), max(ya, ty_a), min(xb, tx_b), min(yb, ty_b)
                    if ix_b > ix_a and iy_b > iy_a:
                        part = ta[iy_a - ty_a:iy_b - ty_a, ix_a - tx_a:ix_b - tx_a]
                        view = hidden[iy_a - ya:iy_b - ya, ix_a - xa:ix_b - xa]
                        np.maximum(view, part, out=view)
                visible = float((1 - hidden).sum()) / (w * h)
            source = "truth" if visible >= 0.5 else "ignore"
            tid = int(person[1:]) if source == "truth" else 1000 + int(person[1:])
            truth.append("%d,%.6f,%d,%.2f,%.2f,%.2f,%.2f,1.0000,,,,,,,,,,,,%s" % (frame, t, tid, x, y, w, h, source))
        if not placed:
            truth.append("%d,%.6f%s" % (frame, t, "," * 18))
        encoder.stdin.write(np.clip(canvas, 0, 255).astype(np.uint8).tobytes())
    encoder.stdin.close()
    if encoder.wait() != 0:
        sys.exit("identity_crowd: ffmpeg failed on %s" % video)
    with open(truth_path + ".part", "w") as f:
        f.write(TRUTH_HEADER + "\n" + "\n".join(truth) + "\n")
    os.replace(video + ".part.mp4", video)
    os.replace(truth_path + ".part", truth_path)
    people = sorted({a[0] for a in appearances})
    print("crowd: %s: %d appearances of %d people (%s)" % (video, len(appearances), len(people), " ".join(people)))
    return video, truth_path


def seeds(args):
    try:
        return [int(s) for s in args.seeds.split(",")]
    except ValueError:
        sys.exit("identity_crowd: --seeds %s: expected numbers separated by commas" % args.seeds)


def build(args):
    for seed in seeds(args):
        build_one(args, seed, rebuild=args.force)


def run(args):
    rows = []
    for seed in seeds(args):
        video, truth = build_one(args, seed)
        row = ["%s-%d" % (args.name, seed)]
        for mode in ("default", "no-reid"):
            out = os.path.join(args.out, "crowd", args.half, "out", args.label, mode, "%s-%d.csv" % (args.name, seed))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            if not os.path.exists(out) or args.force:
                subprocess.run([args.facetrack, "process", video, "--csv", out, "--quiet"] +
                               (["--no-reid"] if mode == "no-reid" else []), check=True)
            m = json.loads(subprocess.run([args.facetrack, "eval", "--truth", truth, "--pred", out, "--json"],
                                          capture_output=True, text=True, check=True).stdout)
            row.append(m)
        rows.append(row)
    print("%s on crowds of the %s half (default / --no-reid):" % (args.label, args.half))
    print("| crowd | truth faces | recall | ID switches | IDF1 |")
    print("|---|---|---|---|---|")
    for name, d, n in rows:
        print("| %s | %d | %.3f / %.3f | %d / %d | %.3f / %.3f |" % (name, d["truth_faces"], d["recall"], n["recall"],
                                                              d["id_switches"], n["id_switches"], d["idf1"], n["idf1"]))
    worse = [r[0] for r in rows if r[1]["id_switches"] > r[2]["id_switches"]]
    print("re-identification adds ID switches in %d of %d crowds%s" % (len(worse), len(rows), (": " + " ".join(worse)) if worse else ""))


def iou(a, b):
    ix = max(0.0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / (a[2] * a[3] + b[2] * b[3] - inter) if inter > 0 else 0.0


def known(args):
    """--known in a crowd, where tracks cross and cover each other: each written face is matched to
    the truth face of its frame it overlaps most (IoU 0.5 or more; `ignore` faces are not counted)."""
    if not args.photos or not os.path.isdir(args.photos):
        sys.exit("identity_crowd: known needs --photos DIR, a folder of PERSON.png stills")
    people = {os.path.splitext(f)[0] for f in os.listdir(args.photos) if f.endswith(".png")}
    total = {"known": 0, "right": 0, "wrong": 0, "stranger": 0, "stranger named": 0}
    print("%s --known on crowds of the %s half (%d people known):" % (args.label, args.half, len(people)))
    print("| crowd | known people's faces | named right | named as someone else | strangers' faces | named |")
    print("|---|---|---|---|---|---|")
    for seed in seeds(args):
        video, truth_path = build_one(args, seed)
        name = "%s-%d" % (args.name, seed)
        out = os.path.join(args.out, "crowd", args.half, "out", args.label, "known", name + ".csv")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if not os.path.exists(out) or args.force:
            subprocess.run([args.facetrack, "process", video, "--csv", out, "--quiet", "--known", args.photos], check=True)
        truth = {}
        with open(truth_path) as f:
            for r in csvfile.DictReader(f):
                if r["x"]:
                    box = tuple(float(r[k]) for k in ("x", "y", "width", "height"))
                    # track_id is the person's number; ignore rows carry 1000 + it
                    person = "p%02d" % (int(r["track_id"]) % 1000)
                    truth.setdefault(int(r["frame"]), []).append((r["source"] == "ignore", person, box))
        c = dict.fromkeys(total, 0)
        with open(out) as f:
            for r in csvfile.DictReader(f):
                if not r["x"]:
                    continue
                box = tuple(float(r[k]) for k in ("x", "y", "width", "height"))
                faces = truth.get(int(r["frame"]), [])
                best = max(faces, key=lambda t: iou(box, t[2]), default=None)
                if best is None or iou(box, best[2]) < 0.5 or best[0]:
                    continue
                if best[1] in people:
                    c["known"] += 1
                    c["right"] += r["person"] == best[1]
                    c["wrong"] += bool(r["person"]) and r["person"] != best[1]
                else:
                    c["stranger"] += 1
                    c["stranger named"] += bool(r["person"])
        print("| %s | %d | %d | %d | %d | %d |" % (name, c["known"], c["right"], c["wrong"], c["stranger"], c["stranger named"]))
        for k in total:
            total[k] += c[k]
    print("| all | %d | %d (%.3f) | %d | %d | %d |" % (total["known"], total["right"], total["right"] / max(1, total["known"]),
                                                     total["wrong"], total["stranger"], total["stranger named"]))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["build", "run", "known"])
    p.add_argument("--corpus", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--facetrack", required=True)
    p.add_argument("--half", choices=["tune", "report"], default="report")
    p.add_argument("--seeds", default="1,2,3")
    p.add_argument("--label", default="current")
    p.add_argument("--people", type=int, default=10, help="people per crowd (default 10)")
    p.add_argument("--appearances", type=int, default=18, help="appearances planned per crowd (default 18)")
    p.add_argument("--drift", type=float, default=250, help="largest sideways walk, pixels (default 250)")
    p.add_argument("--name", default="crowd", help="the crowds' file names (default crowd: crowd-SEED)")
    p.add_argument("--force", action="store_true", help="build: build the crowds again; run, known: process them again")
    p.add_argument("--photos", help="known: the folder of known stills (PERSON.png)")
    args = p.parse_args()
    if not os.access(args.facetrack, os.X_OK):
        sys.exit("identity_crowd: %s: not an executable facetrack binary" % args.facetrack)
    {"build": build, "run": run, "known": known}[args.command](args)


if __name__ == "__main__":
    main()
