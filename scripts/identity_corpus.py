#!/usr/bin/env python3
"""The identity corpus bench (scripts/bench-identity --corpus DIR): edit sequences with truth by construction.

  identity_corpus.py build  --corpus DIR --out WORK [--half tune|report]
  identity_corpus.py run    --out WORK --facetrack BIN [--label NAME] [--half ...] [--extra 'OPTIONS']
  identity_corpus.py score  --out WORK [--half ...]
  identity_corpus.py distances --out WORK --embeddings FILE   (from identity-bench embed)
  identity_corpus.py known  --corpus DIR --out WORK --facetrack BIN [--label NAME] [--half ...] [--stills N]
  identity_corpus.py multi  --corpus DIR --out WORK --facetrack BIN [--label NAME] [--extra 'OPTIONS'] [--force]
  identity_corpus.py multi-truth --corpus DIR --out WORK --facetrack BIN   (rewrites scripts/corpus-truth/*.truth.csv)

The corpus's multi-person clips (DIR/multi) have identity truth labelled by eye on facetrack's own
--no-reid boxes (scripts/corpus-truth/: multi-labels.json, one truth CSV per clip, the clip's sha256):
`multi` runs each clip with and without re-identification and scores identity only (ID switches,
IDF1); detection scores against such truth mean nothing.

People are split by their label's number: odd pNN are the TUNE half (every threshold is chosen on
them), even pNN the REPORT half (held back: the numbers we quote). Clips of one person never cross
halves. Each sequence is built from 2-second segments of single-person clips (never p41, which has
cuts of its own) on a 640x360, 25 fps canvas, joined by hard cuts, 0.5 s dissolves, fades through
black and dips to black, with camera flashes inside some shots (not boundaries), shots shrunk to
45 % or zoomed 1.5x, letterboxed (2.35:1) or pillarboxed (4:3), pairs of people whose backgrounds
are the most alike (colour histograms of the frame border), and people returning 10 to 60 s later.
Frames are blended here (numpy) and piped to ffmpeg, so the truth (who is on each frame, where each
boundary lies) comes from the same numbers as the picture.

Truth per frame: the shot whose weight is larger in a dissolve; nobody while a fade is darker than
35 % of full brightness. Boundaries: a hard cut is the first frame of the new shot; a gradual one
spans the transition's frames, and a detection counts when it lies within one frame of the span.
"""
import argparse
import csv as csvfile
import glob
import json
import os
import random
import re
import subprocess
import sys

import numpy as np

W, H, FPS = 640, 360, 25
SHOT = 2.0
TRANSITION = 12  # frames (0.48 s)
LOOKS = {
    "normal": "scale=640:360:force_original_aspect_ratio=increase,crop=640:360:(iw-640)/2:(ih-360)*0.3",
    "zoomed": "scale=960:540:force_original_aspect_ratio=increase,crop=640:360:(iw-640)/2:(ih-360)*0.35",
    "shrunk": "scale=640:360:force_original_aspect_ratio=increase,crop=640:360:(iw-640)/2:(ih-360)*0.3,"
              "scale=288:162,pad=640:360:{x}:{y}:color=0x6a6a6a",
    "letterbox": "scale=640:272:force_original_aspect_ratio=increase,crop=640:272:(iw-640)/2:(ih-272)*0.3,"
                 "pad=640:360:0:44:black",
    "pillarbox": "scale=480:360:force_original_aspect_ratio=increase,crop=480:360:(iw-480)/2:(ih-360)*0.3,"
                 "pad=640:360:80:0:black",
}


def person_of(path):
    return os.path.basename(path).split("-")[0]


def half_of(person):
    return "tune" if int(person[1:]) % 2 == 1 else "report"


def probe(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "format=duration",
                          "-of", "csv=p=0", path], capture_output=True, text=True, check=True).stdout
    return float(out.strip().split("\n")[0])


def read_frames(clip, start, duration, look, seed=0):
    rng = random.Random(seed)
    vf = "fps=%d," % FPS + LOOKS[look].format(x=rng.randint(20, 330), y=rng.randint(10, 190)) + ",format=rgb24"
    raw = subprocess.run(["ffmpeg", "-v", "error", "-ss", "%.3f" % start, "-i", clip, "-t", "%.3f" % duration,
                          "-vf", vf, "-f", "rawvideo", "-"], capture_output=True, check=True).stdout
    frames = np.frombuffer(raw, dtype=np.uint8).reshape(-1, H, W, 3)
    return frames.astype(np.float32)


def border_signature(clip):
    """A colour histogram of the frame border (outer eighth) of the clip's middle frame, as framed by 'normal'."""
    frames = read_frames(clip, probe(clip) / 2, 0.3, "normal")
    f = frames[0]
    mask = np.ones((H, W), bool)
    mask[H // 8:-H // 8, W // 8:-W // 8] = False
    pixels = (f[mask] // 64).astype(int)
    hist = np.bincount(pixels[:, 0] * 16 + pixels[:, 1] * 4 + pixels[:, 2], minlength=64).astype(float)
    return hist / hist.sum()


class Sequence:
    """Shots and transitions; render() blends them and writes the video and its truth."""

    def __init__(self, name):
        self.name, self.shots = name, []  # shot: dict(clip, person, start, duration, look, flashes, into)

    def add(self, clip, person, start, duration, look="normal", into="cut", flashes=()):
        self.shots.append(dict(clip=clip, person=person, start=start, duration=duration, look=look,
                               into=into, flashes=list(flashes)))

    def render(self, out_dir):
        path = os.path.join(out_dir, self.name + ".mp4")
        encode = subprocess.Popen(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "%dx%d" % (W, H),
                                   "-framerate", str(FPS), "-i", "-", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20",
                                   "-pix_fmt", "yuv420p", path], stdin=subprocess.PIPE)
        persons, boundaries, flashes = [], [], []
        tail = None  # (frames of the previous shot not yet written, its person)
        for i, shot in enumerate(self.shots):
            frames = read_frames(shot["clip"], shot["start"], shot["duration"], shot["look"], seed=sum(map(ord, self.name)) * 100 + i)
            for at in shot["flashes"]:
                for k in (at, at + 1):
                    if k < len(frames):
                        frames[k] = frames[k] * 0.25 + 255 * 0.75 * (1.0 if k == at else 0.6)
            out = []  # (frame, person)
            if tail is None:
                out = [(f, shot["person"]) for f in frames]
                shot_start = 0
            else:
                prev_frames, prev_person = tail
                kind = shot["into"]
                start_frame = len(persons)
                if kind == "cut":
                    out = [(f, prev_person) for f in prev_frames] + [(f, shot["person"]) for f in frames]
                    boundaries.append(dict(kind="cut", first=start_frame + len(prev_frames), last=start_frame + len(prev_frames)))
                    shot_start = start_frame + len(prev_frames)
                elif kind == "dissolve":
                    n = min(TRANSITION, len(prev_frames), len(frames))
                    out = [(f, prev_person) for f in prev_frames[:-n]]
                    for k in range(n):
                        a = (k + 1) / (n + 1)
                        out.append((prev_frames[len(prev_frames) - n + k] * (1 - a) + frames[k] * a,
                                    shot["person"] if a >= 0.5 else prev_person))
                    boundaries.append(dict(kind="dissolve", first=start_frame + len(prev_frames) - n,
                                           last=start_frame + len(prev_frames) - 1))
                    shot_start = start_frame + len(prev_frames) - n
                    out += [(f, shot["person"]) for f in frames[n:]]
                else:  # fade through black (dip: with 5 black frames between)
                    n = min(TRANSITION // 2, len(prev_frames), len(frames))
                    black = 5 if kind == "dip" else 0
                    out = [(f, prev_person) for f in prev_frames[:-n]]
                    for k in range(n):
                        g = 1 - (k + 1) / (n + 1)
                        out.append((prev_frames[len(prev_frames) - n + k] * g, prev_person if g >= 0.35 else None))
                    out += [(np.zeros_like(frames[0]), None)] * black
                    for k in range(n):
                        g = (k + 1) / (n + 1)
                        out.append((frames[k] * g, shot["person"] if g >= 0.35 else None))
                    boundaries.append(dict(kind=kind, first=start_frame + len(prev_frames) - n,
                                           last=start_frame + len(prev_frames) + black + n - 1))
                    shot_start = start_frame + len(prev_frames) + black
                    out += [(f, shot["person"]) for f in frames[n:]]
            # Hold back the last TRANSITION frames of this shot for the next transition.
            hold = TRANSITION if i + 1 < len(self.shots) else 0
            keep = out[:len(out) - hold] if hold else out
            for f, p in keep:
                encode.stdin.write(np.clip(f, 0, 255).astype(np.uint8).tobytes())
                persons.append(p)
            if hold:
                tail = ([f for f, _ in out[len(out) - hold:]], shot["person"])
            flashes += [shot_start + at for at in shot["flashes"]]
        encode.stdin.close()
        if encode.wait() != 0:
            sys.exit("identity_corpus: ffmpeg failed for " + path)
        truth = dict(name=self.name, frames=len(persons), fps=FPS, persons=persons, boundaries=boundaries, flashes=flashes,
                     shots=[{k: v for k, v in s.items()} for s in self.shots])
        with open(os.path.join(out_dir, self.name + ".truth.json"), "w") as f:
            json.dump(truth, f)
        return path


def plan(corpus, half, seed):
    """The sequences of one half: (name, Sequence) list."""
    clips = sorted(glob.glob(os.path.join(corpus, "single", "*.mp4")))
    clips = [c for c in clips if half_of(person_of(c)) == half and not os.path.basename(c).startswith("p41-")]
    length = {c: probe(c) for c in clips}
    by_person = {}
    for c in clips:
        by_person.setdefault(person_of(c), []).append(c)
    people = sorted(by_person)
    rng = random.Random(seed)

    def segment(person, duration=SHOT):
        clip = rng.choice(by_person[person])
        d = min(duration, length[clip] - 0.05)
        return clip, rng.uniform(0, max(0.0, length[clip] - d - 0.05)), d

    def pick(previous, count):
        order = []
        while len(order) < count:
            p = rng.choice(people)
            if order and p == order[-1] or (not order and p == previous):
                continue
            order.append(p)
        return order

    sequences = []

    def simple(name, count, intos, looks=("normal",), flash_every=0, returns=False):
        s = Sequence(name)
        order = pick(None, count)
        if returns:
            # People seen early come back 10 to 60 s later (shots are 2 s).
            for i in range(6, count):
                if rng.random() < 0.5:
                    j = rng.randint(max(0, i - 30), i - 5)
                    if order[j] != order[i - 1] and (i + 1 >= count or order[j] != order[i + 1]):
                        order[i] = order[j]
        for i, p in enumerate(order):
            clip, start, d = segment(p)
            fl = [rng.randint(14, 30)] if flash_every and i % flash_every == flash_every - 1 and d >= 1.6 else []
            s.add(clip, p, start, d, look=rng.choice(looks), into=rng.choice(intos) if i else "cut", flashes=fl)
        sequences.append(s)

    simple("cuts", 10, ["cut"])
    simple("dissolves", 10, ["dissolve"])
    simple("fades", 8, ["fadeblack", "dip"])
    simple("formats", 10, ["cut", "dissolve"], looks=("shrunk", "zoomed", "letterbox", "pillarbox", "normal"))
    simple("flashes", 6, ["cut"], flash_every=1)
    simple("long", 26, ["cut", "cut", "dissolve", "fadeblack", "dip"], looks=("normal", "normal", "shrunk", "zoomed",
                                                                                  "letterbox", "pillarbox"),
           flash_every=5, returns=True)
    # Pairs of different people whose backgrounds are the most alike: A B A B A B.
    signatures = {p: border_signature(by_person[p][0]) for p in people}
    pairs = sorted(((0.5 * np.abs(signatures[a] - signatures[b]).sum(), a, b) for i, a in enumerate(people)
                    for b in people[i + 1:]))
    for k, (distance, a, b) in enumerate(pairs[:3]):
        s = Sequence("similar-%d" % (k + 1))
        for i in range(6):
            p = (a, b)[i % 2]
            clip, start, d = segment(p)
            s.add(clip, p, start, d, into=("cut", "dissolve")[i % 2] if i else "cut")
        s.background_distance = distance
        sequences.append(s)
    return sequences


def build(args):
    os.makedirs(args.out, exist_ok=True)
    for half in halves(args):
        folder = os.path.join(args.out, half)
        os.makedirs(folder, exist_ok=True)
        for s in plan(args.corpus, half, seed=28 + (half == "report")):
            s.render(folder)
            extra = " (backgrounds %.2f apart)" % s.background_distance if hasattr(s, "background_distance") else ""
            print("built %s/%s: %d shots%s" % (half, s.name, len(s.shots), extra))


def halves(args):
    return [args.half] if args.half else ["tune", "report"]


def run(args):
    """Runs facetrack on every sequence (and every single clip of the half) with and without re-identification."""
    extra = args.extra.split() if args.extra else []
    for half in halves(args):
        folder = os.path.join(args.out, half)
        inputs = sorted(glob.glob(os.path.join(folder, "*.mp4")))
        if args.corpus:
            inputs += [c for c in sorted(glob.glob(os.path.join(args.corpus, "single", "*.mp4")))
                       if half_of(person_of(c)) == half]
        for video in inputs:
            name = os.path.splitext(os.path.basename(video))[0]
            for mode, options in (("default", []), ("no-reid", ["--no-reid"])):
                csv = os.path.join(folder, "out", args.label, mode, name + ".csv")
                os.makedirs(os.path.dirname(csv), exist_ok=True)
                if os.path.exists(csv) and not args.force:
                    continue
                subprocess.run([args.facetrack, "process", video, "--csv", csv, "--quiet"] + options + extra, check=True)
        print("ran %s on %s (%d inputs)" % (args.label, half, len(inputs)))


def read_csv(path):
    rows = []
    with open(path) as f:
        header = f.readline().strip().split(",")
        col = {n: i for i, n in enumerate(header)}
        for line in f:
            v = line.rstrip("\n").split(",")
            if not v[col["track_id"]]:
                continue
            rows.append(dict(frame=int(v[col["frame"]]), id=int(v[col["track_id"]]),
                             shot=int(v[col["shot"]]) if "shot" in col and v[col["shot"]] != "" else None))
    return rows


def hungarian(cost):
    """Minimum-cost assignment for a rectangular matrix (list of lists); returns {row: column}."""
    n, m = len(cost), len(cost[0]) if cost else 0
    if n == 0 or m == 0:
        return {}
    transpose = n > m
    if transpose:
        cost = [list(r) for r in zip(*cost)]
        n, m = m, n
    inf = float("inf")
    u, v, p, way = [0.0] * (n + 1), [0.0] * (m + 1), [0] * (m + 1), [0] * (m + 1)
    for i in range(1, n + 1):
        p[0], j0 = i, 0
        minv, used = [inf] * (m + 1), [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    result = {}
    for j in range(1, m + 1):
        if p[j]:
            result[(j - 1) if transpose else (p[j] - 1)] = (p[j] - 1) if transpose else (j - 1)
    return result


MIN_ID_FRAMES = 10  # an ID on fewer frames (0.4 s) is not counted as an identity (a stray detection)


def identity_scores(persons, rows):
    """IDF1 with the best one-to-one mapping of IDs to people, and the count of IDs against people."""
    truth = {f: p for f, p in enumerate(persons) if p is not None}
    pairs = {(r["frame"], r["id"]) for r in rows}
    co = {}
    for f, i in pairs:
        if f in truth:
            co[(truth[f], i)] = co.get((truth[f], i), 0) + 1
    people = sorted(set(truth.values()))
    ids = sorted({i for _, i in pairs})
    mapping = hungarian([[-co.get((p, i), 0) for i in ids] for p in people])
    idtp = sum(co.get((people[r], ids[c]), 0) for r, c in mapping.items())
    idf1 = 2 * idtp / (len(truth) + len(pairs)) if truth or pairs else 1.0
    counts = {}
    for _, i in pairs:
        counts[i] = counts.get(i, 0) + 1
    lasting = [i for i, c in counts.items() if c >= MIN_ID_FRAMES]
    precision = idtp / len(pairs) if pairs else 1.0
    return dict(idf1=idf1, idp=precision, ids=len(lasting), people=len(people))


def match_boundaries(truth, found):
    """found: list of (low, high) frame intervals, each one boundary somewhere in (low, high]. Greedy one-to-one."""
    used = [False] * len(found)
    hits = {"cut": [0, 0], "gradual": [0, 0]}
    for b in truth:
        kind = "cut" if b["kind"] == "cut" else "gradual"
        hits[kind][1] += 1
        for k, (low, high) in enumerate(found):
            if not used[k] and high >= b["first"] - 1 and low < b["last"] + 1:
                used[k] = True
                hits[kind][0] += 1
                break
    false = [found[k] for k in range(len(found)) if not used[k]]
    return hits, false


def boundaries_from_csv(path):
    """Shot changes in the CSV's shot column, as intervals between the rows on both sides."""
    rows = sorted(read_csv_all(path), key=lambda r: r[0])
    found, last = [], None
    for frame, shot in rows:
        if last is not None and shot > last[1]:
            found += [(last[0], frame)] * (shot - last[1])
        last = (frame, shot) if last is None or shot >= last[1] else last
    return found


def read_csv_all(path):
    out = []
    with open(path) as f:
        header = f.readline().strip().split(",")
        if "shot" not in header:
            return []
        fi, si = header.index("frame"), header.index("shot")
        for line in f:
            v = line.rstrip("\n").split(",")
            if len(v) > si and v[si] != "":
                out.append((int(v[fi]), int(v[si])))
    return out


def scdet_boundaries(video, threshold=10.0):
    meta = video + ".scdet.txt"
    if not os.path.exists(meta):
        subprocess.run(["ffmpeg", "-v", "error", "-i", video, "-vf",
                        "scdet=threshold=%g,metadata=mode=print:key=lavfi.scd.time:file=%s" % (threshold, meta),
                        "-f", "null", "-"], check=True)
    frames = []
    with open(meta) as f:
        for line in f:
            m = re.match(r"frame:(\d+)", line)
            if m:
                frames.append(int(m.group(1)))
    return [(f - 1, f) for f in frames]


def pyscenedetect_boundaries(video, python):
    cache = video + ".psd.json"
    if not os.path.exists(cache):
        code = ("import json,sys\nfrom scenedetect import detect, ContentDetector\n"
                "s = detect(sys.argv[1], ContentDetector())\n"
                "json.dump([a.get_frames() for a, b in s[1:]], open(sys.argv[2], 'w'))\n")
        subprocess.run([python, "-c", code, video, cache], check=True, capture_output=True)
    with open(cache) as f:
        return [(b - 1, b) for b in json.load(f)]


def legacy_boundaries(video):
    """main a3f124c's rule on the same point-sampled 32x18 luma: 16-bin histogram moved > 35 % and layout > 30 levels."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", video, "-vf", "scale=32:18:flags=neighbor,format=gray",
                          "-f", "rawvideo", "-"], capture_output=True, check=True).stdout
    frames = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 18, 32).astype(int)
    found = []
    for n in range(1, len(frames)):
        a, b = frames[n - 1], frames[n]
        ha, hb = np.bincount((a // 16).ravel(), minlength=16), np.bincount((b // 16).ravel(), minlength=16)
        if np.abs(ha - hb).sum() / (2 * a.size) > 0.35 and np.abs(a - b).mean() > 30:
            found.append((n - 1, n))
    return found


def fmt(x):
    return "%.3f" % x


def score(args):
    labels = args.labels.split(",")
    for half in halves(args):
        folder = os.path.join(args.out, half)
        truths = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(folder, "*.truth.json")))]
        print("\n== %s half (%s people) ==" % (half, "odd" if half == "tune" else "even"))
        print("identity per sequence (IDF1, IDs counted / people; IDs on %d+ frames):" % MIN_ID_FRAMES)
        head = "  %-12s %6s" % ("sequence", "frames") + "".join("  %-22s" % ("%s/%s" % (l, m)) for l in labels
                                                                 for m in ("default", "no-reid"))
        print(head)
        summary = {}
        for t in truths:
            line = "  %-12s %6d" % (t["name"], t["frames"])
            for l in labels:
                for m in ("default", "no-reid"):
                    csv = os.path.join(folder, "out", l, m, t["name"] + ".csv")
                    if not os.path.exists(csv):
                        line += "  %-22s" % "-"
                        continue
                    s = identity_scores(t["persons"], read_csv(csv))
                    summary.setdefault((l, m), []).append(s)
                    line += "  %-22s" % ("%.3f %2d/%-2d%s" % (s["idf1"], s["ids"], s["people"], "" if s["ids"] == s["people"] else " !"))
            print(line)
        for (l, m), ss in summary.items():
            print("  %-18s mean IDF1 %.3f, worst %.3f, sequences with the wrong ID count %d of %d" % (
                l + "/" + m, sum(s["idf1"] for s in ss) / len(ss), min(s["idf1"] for s in ss),
                sum(s["ids"] != s["people"] for s in ss), len(ss)))
        # Single clips: false splits (IDs beyond one per clip).
        if args.corpus:
            clips = [c for c in sorted(glob.glob(os.path.join(args.corpus, "single", "*.mp4"))) if half_of(person_of(c)) == half]
            hours = sum(probe(c) for c in clips) / 3600
            for l in labels:
                for m in ("default", "no-reid"):
                    splits, split_clips = 0, []
                    for c in clips:
                        name = os.path.splitext(os.path.basename(c))[0]
                        csv = os.path.join(folder, "out", l, m, name + ".csv")
                        if not os.path.exists(csv):
                            break
                        rows = read_csv(csv)
                        counts = {}
                        for r in rows:
                            counts[r["id"]] = counts.get(r["id"], 0) + 1
                        extra = max(0, len([i for i, n in counts.items() if n >= MIN_ID_FRAMES]) - 1)
                        if extra:
                            split_clips.append("%s+%d" % (name.split("-")[0] + "-" + name.split("-")[-1], extra))
                        splits += extra
                    else:
                        print("  single clips %-16s %d false splits in %d clips (%.1f min): %.0f per hour %s" % (
                            l + "/" + m, splits, len(clips), hours * 60, splits / hours, " ".join(split_clips)))
        # Shot boundaries.
        print("shot boundaries: hard cuts found / all, gradual found / all, false boundaries (of which on flashes)")
        python = args.scenedetect_python
        detectors = [("a3f124c rule", legacy_boundaries), ("ffmpeg scdet", scdet_boundaries)]
        if python and os.path.exists(python):
            detectors.append(("PySceneDetect", lambda v: pyscenedetect_boundaries(v, python)))
        for l in labels:
            detectors.append(("facetrack " + l, lambda v, l=l: boundaries_from_csv(
                os.path.join(folder, "out", l, "no-reid", os.path.splitext(os.path.basename(v))[0] + ".csv"))))
        for label, detect in detectors:
            total = {"cut": [0, 0], "gradual": [0, 0]}
            false, on_flash, found_any = 0, 0, False
            for t in truths:
                found = detect(os.path.join(folder, t["name"] + ".mp4"))
                found_any = found_any or bool(found)
                hits, wrong = match_boundaries(t["boundaries"], found)
                for k in total:
                    total[k][0] += hits[k][0]
                    total[k][1] += hits[k][1]
                false += len(wrong)
                on_flash += sum(1 for low, high in wrong if any(low <= f + 1 and high >= f for f in t["flashes"]))
            found_total = total["cut"][0] + total["gradual"][0]
            precision = found_total / (found_total + false) if found_total + false else 1.0
            print("  %-20s cuts %3d/%-3d (recall %s)  gradual %3d/%-3d (recall %s)  false %3d (flashes %d)  precision %s%s" % (
                label, total["cut"][0], total["cut"][1], fmt(total["cut"][0] / max(1, total["cut"][1])),
                total["gradual"][0], total["gradual"][1], fmt(total["gradual"][0] / max(1, total["gradual"][1])),
                false, on_flash, fmt(precision), "" if found_any else "  (no shot column)"))


def distances(args):
    """Same-person and different-person distances from identity-bench embed's output, and the thresholds they give."""
    data = {}
    with open(args.embeddings) as f:
        for line in f:
            v = line.rstrip("\n").split("\t")
            clip, quality, values = v[0], float(v[2]), np.array([float(x) for x in v[3:]], dtype=np.float64)
            data.setdefault(clip, []).append((int(v[1]), quality, values))
    for half in halves(args):
        clips = {c: d for c, d in data.items() if half_of(person_of(c)) == half}
        print("\n== distances, %s half: %d clips ==" % (half, len(clips)))
        for min_quality in (0.0, args.min_quality):
            same_one, diff_one, same_g, diff_g = [], [], [], []
            galleries = {}
            for c, d in clips.items():
                good = [x for x in sorted(d) if x[1] >= min_quality]
                # Galleries of 8 samples from consecutive stretches of the clip.
                galleries[c] = [np.mean([x[2] for x in good[k:k + 8]], axis=0) for k in range(0, len(good) - 7, 8)]
                for k, g in enumerate(galleries[c]):
                    others = [x for j, x in enumerate(good) if j // 8 != k]
                    same_one += [np.linalg.norm(x[2] - g) for x in others]
            keys = sorted(clips)
            for i, a in enumerate(keys):
                for b in keys[i + 1:]:
                    for g in galleries[a]:
                        for h in galleries[b]:
                            (same_g if person_of(a) == person_of(b) else diff_g).append(np.linalg.norm(g - h))
                        for x in clips[b]:
                            if x[1] >= min_quality and person_of(a) != person_of(b):
                                diff_one.append(np.linalg.norm(x[2] - g))
                    for j, g in enumerate(galleries[a]):
                        for h in galleries[a][j + 1:]:
                            same_g.append(np.linalg.norm(g - h))

            def pct(values):
                if not values:
                    return "-"
                v = np.array(values)
                return "n=%d min %.3f p1 %.3f p5 %.3f p50 %.3f p95 %.3f p99 %.3f max %.3f" % (
                    len(v), v.min(), *np.percentile(v, [1, 5, 50, 95, 99]), v.max())
            print(" samples of quality >= %.2f:" % min_quality)
            print("  same person, one sample to another stretch's gallery: " + pct(same_one))
            print("  other person, one sample to a gallery:               " + pct(diff_one))
            print("  same person, gallery to gallery:                     " + pct(same_g))
            print("  other person, gallery to gallery:                    " + pct(diff_g))
            if same_one and diff_one:
                for t in (0.4, 0.45, 0.5, 0.55, 0.6):
                    print("   threshold %.2f: same-person samples beyond %.4f, other-person samples within %.4f" % (
                        t, np.mean(np.array(same_one) >= t), np.mean(np.array(diff_one) < t)))


def still_faces(facetrack, image):
    out = image + ".csv"
    subprocess.run([facetrack, "detect", image, "--csv", out], check=True, capture_output=True)
    with open(out) as f:
        return sum(1 for _ in f) - 1


def known(args):
    """--known: a still of every other person of the half is known; every sequence is run with
    --known; per frame, a known person must be named right, a stranger never named."""
    for half in halves(args):
        folder = os.path.join(args.out, half)
        clips = [c for c in sorted(glob.glob(os.path.join(args.corpus, "single", "*.mp4")))
                 if half_of(person_of(c)) == half and not os.path.basename(c).startswith("p41-")]
        people = sorted({person_of(c) for c in clips})
        known_people = people[::2]
        photos = os.path.join(folder, "known" if args.stills == 1 else "known-%d" % args.stills)
        os.makedirs(photos, exist_ok=True)
        for p in list(known_people):
            clip = [c for c in clips if person_of(c) == p][0]
            # Stills at least a second apart from 0.5 s on, each the first frame (0.5 s steps) on which
            # facetrack sees exactly one face; one still is PERSON.png, several PERSON/N.png.
            found, start = [], 0.5
            while len(found) < args.stills and start < probe(clip) - 0.1:
                target = os.path.join(photos, p + ".png") if args.stills == 1 else os.path.join(photos, p, "%d.png" % len(found))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                if not (os.path.exists(target) and still_faces(args.facetrack, target) == 1):
                    subprocess.run(["ffmpeg", "-v", "error", "-y", "-ss", str(start), "-i", clip, "-frames:v", "1", target], check=True)
                if still_faces(args.facetrack, target) == 1:
                    found.append(target)
                    start += 1.0
                else:
                    os.remove(target)
                    start += 0.5
            if not found:
                known_people.remove(p)
        label = "known" if args.stills == 1 else "known-%d" % args.stills
        named_right = known_frames = stranger_named = stranger_frames = wrong = 0
        for t in [json.load(open(p)) for p in sorted(glob.glob(os.path.join(folder, "*.truth.json")))]:
            csv = os.path.join(folder, "out", args.label, label, t["name"] + ".csv")
            os.makedirs(os.path.dirname(csv), exist_ok=True)
            if not os.path.exists(csv) or args.force:
                subprocess.run([args.facetrack, "process", os.path.join(folder, t["name"] + ".mp4"), "--csv", csv, "--quiet",
                                "--known", photos], check=True)
            names = {}
            with open(csv) as f:
                header = f.readline().strip().split(",")
                fi, pi = header.index("frame"), header.index("person")
                for line in f:
                    v = line.rstrip("\n").split(",")
                    names.setdefault(int(v[fi]), set()).add(v[pi])
            for frame, person in enumerate(t["persons"]):
                if person is None or frame not in names:
                    continue
                given = names[frame] - {""}
                if person in known_people:
                    known_frames += 1
                    named_right += person in given
                    wrong += bool(given - {person})
                else:
                    stranger_frames += 1
                    stranger_named += bool(given)
        print("--known on the %s half (%d of %d people known, %d still(s) each): known people's detected frames named "
              "right %d of %d (%.3f), named as someone else %d; strangers' detected frames named %d of %d" % (
                  half, len(known_people), len(people), args.stills, named_right, known_frames, named_right / max(1, known_frames), wrong,
                  stranger_named, stranger_frames))


TRUTH_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus-truth")
TRUTH_HEADER = ("frame,time,track_id,x,y,width,height,confidence,left_eye_x,left_eye_y,right_eye_x,right_eye_y,"
                "mouth_x,mouth_y,has_smile,left_eye_closed,right_eye_closed,roll,yaw,source")


def sha256(path):
    import hashlib
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def multi_labels():
    with open(os.path.join(TRUTH_DIR, "multi-labels.json")) as f:
        return {k: v for k, v in json.load(f).items() if not k.startswith("_")}


def multi_clip(args, name, spec):
    """The clip's path, or None (with a message) when it is missing or not the one labelled."""
    if not args.corpus or not args.facetrack:
        sys.exit("identity_corpus: %s needs --corpus DIR and --facetrack BIN" % args.command)
    video = os.path.join(args.corpus, "multi", name + ".mp4")
    if not os.path.exists(video):
        print("multi: %s: no such clip, skipped" % video)
        return None
    if sha256(video) != spec["sha256"]:
        print("multi: %s: sha256 differs from the labelled clip's (%s), skipped" % (video, spec["sha256"][:12]))
        return None
    return video


def multi_process(args, video, name, mode):
    csv = os.path.join(args.out, "multi", "out", args.label, mode, name + ".csv")
    os.makedirs(os.path.dirname(csv), exist_ok=True)
    if not os.path.exists(csv) or args.force:
        options = ["--no-reid"] if mode == "no-reid" else []
        subprocess.run([args.facetrack, "process", video, "--csv", csv, "--quiet"] + options +
                       (args.extra.split() if args.extra else []), check=True)
    return csv


def multi_truth(args):
    """Writes scripts/corpus-truth/CLIP.truth.csv from multi-labels.json and the --no-reid boxes of BIN."""
    for name, spec in multi_labels().items():
        video = multi_clip(args, name, spec)
        if video is None:
            continue
        rows = list(csvfile.DictReader(open(multi_process(args, video, name, "no-reid"))))
        label_of = {}
        for track, segments in spec["tracks"].items():
            for first, last, label in segments:
                for frame in range(first, last + 1):
                    if (int(track), frame) in label_of:
                        sys.exit("multi-truth: %s: track %s frame %d labelled twice" % (name, track, frame))
                    label_of[int(track), frame] = label
        num, den = spec["rate"]
        times = {f: "%.6f" % (f * den / num) for f in range(spec["frames"])}
        by_frame, used, seen = {}, set(), set()
        for r in rows:
            frame = int(r["frame"])
            times[frame] = r["time"]
            if not r["track_id"]:
                continue
            key = (int(r["track_id"]), frame)
            if key not in label_of:
                sys.exit("multi-truth: %s: track %s frame %d has no label (the boxes are not those labelled?)" % (name, *key))
            used.add(key)
            label = label_of[key]
            if label == "ignore":
                tid, source = 1000 + key[0], "ignore"
            else:
                tid, source = int(label), "truth"
                if (tid, frame) in seen:
                    sys.exit("multi-truth: %s: person %d twice in frame %d" % (name, tid, frame))
                seen.add((tid, frame))
            by_frame.setdefault(frame, []).append([str(frame), times[frame], str(tid)] + [r[c] for c in ("x", "y", "width", "height")] +
                                                  ["1.0000"] + [""] * 11 + [source])
        if set(label_of) - used:
            sys.exit("multi-truth: %s: %d labelled rows are not in the run (the boxes are not those labelled?)" % (
                name, len(set(label_of) - used)))
        out = os.path.join(TRUTH_DIR, name + ".truth.csv")
        with open(out, "w") as f:
            f.write(TRUTH_HEADER + "\n")
            for frame in range(spec["frames"]):
                for row in by_frame.get(frame, [[str(frame), times[frame]] + [""] * 18]):
                    f.write(",".join(row) + "\n")
        counted = sum(1 for k, v in label_of.items() if v != "ignore")
        print("multi-truth: %s: %d faces of %d people, %d rows ignored" % (
            name, counted, len({v for v in label_of.values() if v != "ignore"}), len(label_of) - counted))


def ids_on(csv, frames=10):
    counts = {}
    for r in read_csv(csv):
        counts[r["id"]] = counts.get(r["id"], 0) + 1
    return sum(1 for n in counts.values() if n >= frames)


def multi(args):
    """Identity on the multi-person clips: default against --no-reid, scored against the labelled truth."""
    results = []
    for name, spec in multi_labels().items():
        truth = os.path.join(TRUTH_DIR, name + ".truth.csv")
        video = multi_clip(args, name, spec)
        if video is None or not os.path.exists(truth):
            continue
        row = [name]
        for mode in ("default", "no-reid"):
            csv = multi_process(args, video, name, mode)
            m = json.loads(subprocess.run([args.facetrack, "eval", "--truth", truth, "--pred", csv, "--json"],
                                          capture_output=True, text=True, check=True).stdout)
            row.append((m["truth_faces"], m["true_positives"], m["id_switches"], m["idf1"], ids_on(csv)))
        results.append(row)
    print("%s on the multi-person clips (truth by eye on main ab8942b's --no-reid boxes; identity only), default / --no-reid:" % args.label)
    print("| clip | labelled faces (people) | matched faces | ID switches | IDF1 | IDs on 10+ frames |")
    print("|---|---|---|---|---|---|")
    for name, (faces, tp, sw, idf1, ids), (faces2, tp2, sw2, idf12, ids2) in results:
        people = len({v for segs in multi_labels()[name]["tracks"].values() for _, _, v in segs if v != "ignore"})
        print("| %s | %d (%d) | %d / %d | %d / %d | %.3f / %.3f | %d / %d |" % (
            name, faces, people, tp, tp2, sw, sw2, idf1, idf12, ids, ids2))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("command", choices=["build", "run", "score", "distances", "known", "multi", "multi-truth"])
    p.add_argument("--corpus")
    p.add_argument("--out", required=True)
    p.add_argument("--half", choices=["tune", "report"])
    p.add_argument("--facetrack")
    p.add_argument("--label", default="after")
    p.add_argument("--labels", default="before,after")
    p.add_argument("--extra")
    p.add_argument("--force", action="store_true")
    p.add_argument("--scenedetect-python")
    p.add_argument("--embeddings")
    p.add_argument("--min-quality", type=float, default=0.3)
    p.add_argument("--stills", type=int, default=1, help="known: stills per known person (a folder each when more than one)")
    args = p.parse_args()
    {"build": build, "run": run, "score": score, "distances": distances, "known": known, "multi": multi,
     "multi-truth": multi_truth}[args.command](args)


if __name__ == "__main__":
    main()
