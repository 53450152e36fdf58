#!/usr/bin/env python3
"""Closed-eye flags on video tracks, absolute band against the per-track relative band.

Runs `facetrack process CLIP --attributes blink --landmarks` (release build), measures every tracked
face's eye openness again with the iris model (ai-edge-litert, the crop and formula of calibrate.py /
Sources/Attributes/IrisEye.swift), and replays AttributeStabilizer's rule per track twice: absolute band
only (as for stills) and with the relative band after EYE_HISTORY measurements (EyeBaseline: median of the last 31 open measurements). Prints,
per clip, the eye-frames flagged closed by each rule, the closed episodes (runs of closed frames), the
spread of openness relative to the track's typical value, and how often the tool's own flags agree
with the replay. Then, as the clips hold no real blinks, injects synthetic partial blinks (3 frames
at BLINK_DEPTH of the measured openness, every 45 frames from frame 20 of a track) and counts how
many each rule catches.
Usage: scripts/calibration/eye_tracks.py CLIP... [--models DIR] [--binary PATH]
"""
import argparse, csv, math, os, subprocess, sys, tempfile
import cv2
from ai_edge_litert.interpreter import Interpreter
from calibrate import iris_openness

CLOSED_BELOW, OPEN_ABOVE = 0.15, 0.19            # AttributeThresholds defaults
REL_CLOSED_BELOW, REL_OPEN_ABOVE, EYE_HISTORY = 0.55, 0.7, 10
BASELINE = 31                                      # EyeBaseline.capacity
BLINK_DEPTH, BLINK_START, BLINK_EVERY, BLINK_FRAMES = 0.45, 20, 45, 3


def decide(score, previous, on, off):
    """AttributeStabilizer.decide for 'closed' with openness scores (lower is closed)."""
    if score < on:
        return True
    if score > off:
        return False
    return previous if previous is not None else score < (on + off) / 2


def jumped(last, box):
    """AttributeStabilizer.jumped: the box moved by over half its width or changed width by over 15 %."""
    ratio = box[2] / max(last[2], 1e-9)
    moved = math.hypot(box[0] + box[2] / 2 - last[0] - last[2] / 2, box[1] + box[3] / 2 - last[1] - last[3] / 2)
    return moved > last[2] / 2 or ratio < 1 / 1.15 or ratio > 1.15


def replay(values, boxes, relative):
    """Flags for one eye's openness series on one track (boxes: x, y, width, height per value)."""
    flags, previous, recent = [], None, []
    for i, v in enumerate(values):
        if i > 0 and jumped(boxes[i - 1], boxes[i]):
            recent = []
        typical = sorted(recent)[len(recent) // 2] if len(recent) % 2 else \
            (sum(sorted(recent)[len(recent) // 2 - 1:len(recent) // 2 + 1]) / 2 if recent else 0.0)
        if relative and len(recent) >= EYE_HISTORY and typical > CLOSED_BELOW:
            closed = decide(v / typical, previous, REL_CLOSED_BELOW, REL_OPEN_ABOVE)
        else:
            closed = decide(v, previous, CLOSED_BELOW, OPEN_ABOVE)
        if not (closed and relative and len(recent) >= EYE_HISTORY and typical > CLOSED_BELOW):
            recent = (recent + [v])[-BASELINE:]
        flags.append(closed)
        previous = closed
    return flags


def episodes(flags):
    return sum(1 for i, f in enumerate(flags) if f and (i == 0 or not flags[i - 1]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('clips', nargs='+')
    ap.add_argument('--models', default=os.environ.get('FACETRACK_MODELS', 'models'))
    ap.add_argument('--binary', default='.build/release/facetrack')
    args = ap.parse_args()
    interpreter = Interpreter(os.path.join(args.models, 'iris_landmark.tflite'))
    interpreter.allocate_tensors()
    for clip in args.clips:
        with tempfile.TemporaryDirectory() as temp:
            faces_csv, marks_csv = os.path.join(temp, 'faces.csv'), os.path.join(temp, 'marks.csv')
            subprocess.run([args.binary, 'process', clip, '--attributes', 'blink', '--csv', faces_csv,
                            '--landmarks', marks_csv, '--models', args.models, '--quiet'], check=True)
            subprocess.run(['ffmpeg', '-v', 'error', '-i', clip, '-vsync', 'passthrough',
                            os.path.join(temp, 'f_%05d.png')], check=True)
            points = {}
            for m in csv.DictReader(open(marks_csv)):
                if m['track_id']:
                    points.setdefault((int(m['frame']), int(m['track_id'])), []).append((float(m['x']), float(m['y'])))
            tracks = {}
            for row in csv.DictReader(open(faces_csv)):
                key = (int(row['frame']), int(row['track_id'])) if row['track_id'] else None
                if key is None or row['source'] != 'detected' or len(points.get(key, [])) != 468:
                    continue
                tracks.setdefault(key[1], []).append((key[0], row))
            series, boxes, tool, ratios = [], [], [], []
            for track, rows in sorted(tracks.items()):
                for side, (a, b, mirrored), column in (('left', (33, 133, False), 'left_eye_closed'),
                                                       ('right', (362, 263, True), 'right_eye_closed')):
                    values = []
                    for frame, row in rows:
                        image = cv2.imread(os.path.join(temp, 'f_%05d.png' % (frame + 1)))
                        p = points[(frame, track)]
                        values.append(iris_openness(image, p[a], p[b], mirrored, interpreter))
                        tool.append(row[column] == '1')
                    series.append(values)
                    boxes.append([[float(row[k]) for k in ('x', 'y', 'width', 'height')] for _, row in rows])
                    top = sorted(values)[int(0.9 * (len(values) - 1))]
                    ratios += [v / top for v in values]
        absolute = [replay(v, b, False) for v, b in zip(series, boxes)]
        relative = [replay(v, b, True) for v, b in zip(series, boxes)]
        flat_rel = [f for fl in relative for f in fl]
        agree = sum(a == b for a, b in zip(flat_rel, tool))
        n = len(flat_rel)
        ratios.sort()
        print(f"{os.path.basename(clip)}: {len(tracks)} tracks, {n} eye-frames measured")
        print(f"  absolute band: {sum(map(sum, absolute))} eye-frames closed, {sum(map(episodes, absolute))} episodes")
        print(f"  relative band: {sum(map(sum, relative))} eye-frames closed, {sum(map(episodes, relative))} episodes")
        print(f"  openness / track's 90th percentile: 1%={ratios[n // 100]:.2f} 5%={ratios[n // 20]:.2f} "
              f"median={ratios[n // 2]:.2f}")
        injected = caught_abs = caught_rel = 0
        for v, b in zip(series, boxes):
            blinks = list(range(BLINK_START, len(v) - BLINK_FRAMES, BLINK_EVERY))
            w = list(v)
            for start in blinks:
                for k in range(start, start + BLINK_FRAMES):
                    w[k] = v[k] * BLINK_DEPTH
            fa, fr = replay(w, b, False), replay(w, b, True)
            injected += len(blinks)
            caught_abs += sum(any(fa[s:s + BLINK_FRAMES]) for s in blinks)
            caught_rel += sum(any(fr[s:s + BLINK_FRAMES]) for s in blinks)
        print(f"  synthetic blinks to {BLINK_DEPTH:.0%} of the openness: {injected} injected, absolute band catches "
              f"{caught_abs}, relative band {caught_rel}")
        print(f"  tool flags agree with the relative replay on {agree}/{n} eye-frames")


if __name__ == '__main__':
    sys.exit(main())
