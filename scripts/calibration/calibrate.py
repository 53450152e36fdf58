#!/usr/bin/env python3
"""Accuracy of `facetrack detect --attributes all` on hand-labelled faces (labels.csv), per attribute,
and the thresholds the raw scores suggest.

Runs the built tool (release) on every labelled image / clip frame with --landmarks, matches each
labelled box to the detected face with the highest IoU (>= 0.4), then reports:
  - the tool's flags against the labels (accuracy per attribute, per class);
  - the raw scores recomputed from the exported mesh points (smile score, the formulas of
    Sources/Attributes/FaceMeshMeasures.swift; eye openness from the iris model run here with
    ai-edge-litert on the crop of Sources/Attributes/IrisLandmarkModel.swift, or the mesh's eye aspect
    ratio with --mesh-eyes) and the single threshold that maximises balanced accuracy, for
    calibrating AttributeThresholds.
Usage: scripts/calibration/calibrate [--data /work/shared/data] [--models DIR] [--mesh-eyes]
"""
import argparse, csv, math, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def read_labels(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith('#')))


def materialise(source, data, temp, cache):
    """The image file for a label source, extracting clip frames (2 fps) once per clip."""
    root, _, rel = source.partition(':')
    base = data if root == 'shared' else REPO
    path, _, frame = rel.partition('#')
    full = os.path.join(base, path)
    if not frame:
        return full
    if full not in cache:
        folder = os.path.join(temp, str(len(cache)))
        os.makedirs(folder)
        subprocess.run(['ffmpeg', '-v', 'error', '-i', full, '-vf', 'fps=2', os.path.join(folder, 'f_%03d.png')], check=True)
        cache[full] = folder
    return os.path.join(cache[full], 'f_%03d.png' % int(frame))


def iou(a, b):
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 0


def dist(p, q):
    return math.hypot(p[0] - q[0], p[1] - q[1])


def measures(p):
    """Eye aspect ratios and smile score, as FaceMeshMeasures computes them."""
    def ear(outer, inner, upper, lower):
        return sum(dist(p[u], p[l]) for u, l in zip(upper, lower)) / len(upper) / dist(p[outer], p[inner])

    def centre(ids):
        return (sum(p[i][0] for i in ids) / len(ids), sum(p[i][1] for i in ids) / len(ids))
    left_ids = [33, 133, 160, 159, 158, 144, 145, 153]
    right_ids = [263, 362, 387, 386, 385, 373, 374, 380]
    le, re = centre(left_ids), centre(right_ids)
    d = dist(le, re)
    ax, ay = (re[0] - le[0]) / d, (re[1] - le[1]) / d
    down = lambda q: -q[0] * ay + q[1] * ax
    width = dist(p[61], p[291])
    lip = centre([13, 14])
    lift = (down(lip) - (down(p[61]) + down(p[291])) / 2) / width
    return {'left_ear': ear(33, 133, [160, 159, 158], [144, 145, 153]),
            'right_ear': ear(263, 362, [387, 386, 385], [373, 374, 380]),
            'smile': width / d + 2.0 * lift}


def iris_openness(image, a, b, mirrored, interpreter):
    """Openness of the eye between corners a (image left) and b, as IrisEye.openness computes it:
    the iris model on a 64 x 64 crop of 2.3 x the corner distance, turned along the corners, the
    image-right eye mirrored; mean of five lid gaps (contour 10-14 to 2-6) over the corner gap (0-8)."""
    import numpy as np, cv2
    cx, cy = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    k = 2.3 * dist(a, b) / 64
    c, s, f = math.cos(angle), math.sin(angle), (-1 if mirrored else 1)
    # crop pixel (u, v) -> frame: centre + (u - 32) k f (c, s) + (v - 32) k (-s, c), at pixel centres
    m = np.array([[f * k * c, -k * s, 0.0], [f * k * s, k * c, 0.0]])
    m[:, 2] = np.array([cx, cy]) + m[:, :2] @ np.array([-31.5, -31.5]) - 0.5
    crop = cv2.warpAffine(image, m, (64, 64), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT)
    x = cv2.cvtColor(crop, cv2.COLOR_BGR2RGB).astype(np.float32)[None] / 255
    out = {o['name']: o['index'] for o in interpreter.get_output_details()}
    interpreter.set_tensor(interpreter.get_input_details()[0]['index'], x)
    interpreter.invoke()
    e = interpreter.get_tensor(out['output_eyes_contours_and_brows']).reshape(71, 3)[:, :2]
    # A ratio of distances within one crop: no need to map the points back to the frame.
    gaps = sum(dist(e[u], e[l]) for u, l in zip((10, 11, 12, 13, 14), (2, 3, 4, 5, 6)))
    return gaps / 5 / dist(e[0], e[8])


def best_threshold(pairs):
    """(threshold, balanced accuracy) for 'positive when score > t' over (score, is_positive) pairs."""
    pos = [s for s, y in pairs if y]
    neg = [s for s, y in pairs if not y]
    if not pos or not neg:
        return None, None
    best = (None, -1)
    for t in sorted(s for s, _ in pairs):
        t += 1e-6
        bal = (sum(s > t for s in pos) / len(pos) + sum(s <= t for s in neg) / len(neg)) / 2
        if bal > best[1]:
            best = (t, bal)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default='/work/shared/data')
    ap.add_argument('--models', default=os.environ.get('FACETRACK_MODELS', os.path.join(REPO, 'models')))
    ap.add_argument('--binary', default=None)
    ap.add_argument('--mesh-eyes', action='store_true', help="raw eye scores from the mesh's eye aspect ratio")
    args = ap.parse_args()
    binary = args.binary
    if binary is None:
        subprocess.run(['swift', 'build', '-c', 'release', '--product', 'facetrack'], cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL)
        bin_dir = subprocess.run(['swift', 'build', '-c', 'release', '--show-bin-path'], cwd=REPO, check=True,
                                 capture_output=True, text=True).stdout.strip()
        binary = os.path.join(bin_dir, 'facetrack')
    labels = read_labels(os.path.join(HERE, 'labels.csv'))
    # Kept until the end: the eye scores read the extracted frames again.
    holder = tempfile.TemporaryDirectory()
    temp = holder.name
    cache = {}
    for row in labels:
        row['image'] = materialise(row['source'], args.data, temp, cache)
    images = sorted({row['image'] for row in labels})
    faces_csv, marks_csv = os.path.join(temp, 'faces.csv'), os.path.join(temp, 'marks.csv')
    subprocess.run([binary, 'detect', *images, '--attributes', 'all', '--csv', faces_csv,
                    '--landmarks', marks_csv, '--models', args.models], check=True)
    faces = list(csv.DictReader(open(faces_csv)))
    marks = {}
    for m in csv.DictReader(open(marks_csv)):
        marks.setdefault(m['image'], []).append((float(m['x']), float(m['y'])))
    # Landmark rows come in face order for faces that have a mesh; attach 468 points to each such face.
    taken = {}
    for face in faces:
        if face['has_smile'] == '' and face['left_eye_closed'] == '':
            continue
        start = taken.get(face['image'], 0)
        face['points'] = marks[face['image']][start:start + 468]
        taken[face['image']] = start + 468

    interpreter = None
    if not args.mesh_eyes:
        import cv2
        from ai_edge_litert.interpreter import Interpreter
        interpreter = Interpreter(os.path.join(args.models, 'iris_landmark.tflite'))
        interpreter.allocate_tensors()
    results = {'eyes': [], 'smile': []}
    unmatched = no_mesh = 0
    for row in labels:
        box = [float(row[k]) for k in ('x', 'y', 'width', 'height')]
        candidates = [(iou(box, [float(f[k]) for k in ('x', 'y', 'width', 'height')]), f)
                      for f in faces if f['image'] == row['image']]
        score, face = max(candidates, key=lambda c: c[0], default=(0, None))
        if face is None or score < 0.4:
            unmatched += 1
            continue
        if 'points' not in face:
            no_mesh += 1
            continue
        raw = measures(face['points'])
        if row['eyes']:
            closed = row['eyes'] == 'closed'
            if interpreter is not None:
                image, p = cv2.imread(row['image']), face['points']
                raw['left_ear'] = iris_openness(image, p[33], p[133], False, interpreter)
                raw['right_ear'] = iris_openness(image, p[362], p[263], True, interpreter)
            for side, column in (('left', 'left_eye_closed'), ('right', 'right_eye_closed')):
                results['eyes'].append((closed, face[column] == '1', -raw[side + '_ear']))
        if row['smile']:
            results['smile'].append((row['smile'] == 'smile', face['has_smile'] == '1', raw['smile']))

    print(f"labelled faces: {len(labels)}, not detected: {unmatched}, no mesh (small / presence): {no_mesh}")
    for name, positive in (('eyes', 'closed'), ('smile', 'smile')):
        items = results[name]
        if not items:
            continue
        correct = sum(truth == flag for truth, flag, _ in items)
        pos = [i for i in items if i[0]]
        neg = [i for i in items if not i[0]]
        unit = 'eyes' if name == 'eyes' else 'faces'
        print(f"{name}: accuracy {correct}/{len(items)} {unit} = {100 * correct / len(items):.1f}%  "
              f"({positive}: {sum(f for _, f, _ in pos)}/{len(pos)} found; "
              f"other: {sum(not f for _, f, _ in neg)}/{len(neg)} right)")
        t, bal = best_threshold([(s, truth) for truth, _, s in items])
        if t is not None:
            shown = -t if name == 'eyes' else t
            rule = 'eye openness below' if name == 'eyes' else 'smile score above'
            print(f"  best single threshold: {rule} {shown:.3f} (balanced accuracy {100 * bal:.1f}%)")
        lo = sorted(s for truth, _, s in items if not truth)
        hi = sorted(s for truth, _, s in items if truth)
        sign = -1 if name == 'eyes' else 1
        fmt = lambda xs: ' '.join(f"{sign * x:.3f}" for x in xs)
        print(f"  raw scores, {positive}: {fmt(hi)}")
        print(f"  raw scores, other (range): {sign * lo[0]:.3f} .. {sign * lo[-1]:.3f}" if lo else '')


if __name__ == '__main__':
    sys.exit(main())
