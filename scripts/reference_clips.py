#!/usr/bin/env python3
"""Builds the reference clips in samples/ and their exact ground truth.

Every clip is rendered frame by frame: public-domain photos (facts in samples/photos.json) are
cropped, scaled to whole-pixel sizes and pasted at whole-pixel offsets on a plain background, and
the raw frames are piped to ffmpeg. The same per-frame placements give the truth: each photo's
hand-drawn face box and eye centres, transformed by the placement. So picture and truth cannot
disagree.

  python3 scripts/reference_clips.py --photos DIR          render clips and truth into samples/
  python3 scripts/reference_clips.py --truth-only --out DIR  only the truth CSVs (stdlib only, no photos)

Truth CSV: the tracks CSV columns. One row per visible face per frame (confidence 1, source
"truth"); a frame without faces has one row with only frame and time, so every frame is listed.
A face counts as visible while at least half of its box is inside the picture; its box and eyes
are then clipped to the picture (an eye outside it is left empty).
"""
import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "samples")
COLUMNS = ["frame", "time", "track_id", "x", "y", "width", "height", "confidence",
           "left_eye_x", "left_eye_y", "right_eye_x", "right_eye_y", "mouth_x", "mouth_y",
           "has_smile", "left_eye_closed", "right_eye_closed", "roll", "yaw", "source"]

# Crops (left, top, right, bottom) in photo pixels, so heads fill the pasted pictures.
HOPPER_HEAD = ("grace_hopper", (110, 60, 420, 370))
ASTRONAUT_HEAD = ("astronaut", (110, 10, 340, 240))
HOPPER_FULL = ("grace_hopper", (0, 0, 512, 600))
NO_FACE = [("astronaut", (350, 0, 512, 300)), ("grace_hopper", (0, 0, 120, 420))]


class Placement:
    """One photo crop pasted at a whole-pixel offset and size; track_id None for a faceless crop."""

    def __init__(self, photo, crop, scale, x, y, track_id):
        self.photo, self.crop, self.track_id = photo, crop, track_id
        cw, ch = crop[2] - crop[0], crop[3] - crop[1]
        self.width = max(1, int(round(cw * scale)))
        self.height = max(1, int(round(ch * scale)))
        self.x, self.y = int(round(x)), int(round(y))

    def map(self, px, py):
        """A photo point in frame coordinates (edges map to edges: exact for a resize)."""
        cw, ch = self.crop[2] - self.crop[0], self.crop[3] - self.crop[1]
        return (self.x + (px - self.crop[0]) * self.width / cw, self.y + (py - self.crop[1]) * self.height / ch)


def ease(u):
    """Smooth 0..1 ramp."""
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


# Each clip: size, frame times, placements per frame (upright frame), encoder extras.
def zoom_clip():
    times = [i / 25 for i in range(75)]

    def at(t):
        s = 0.3 + 0.5 * (0.5 - 0.5 * math.cos(2 * math.pi * t / 3))  # 0.3 -> 0.8 -> 0.3
        w, h = 310 * s, 310 * s
        return [Placement(*HOPPER_HEAD, s, 320 - w / 2, 180 - h / 2, 1)]
    return dict(name="zoom", size=(640, 360), times=times, at=at, rate=25)


def crossing_clip():
    times = [i / 25 for i in range(100)]

    def at(t):
        u = ease(t / 4)
        lift = 45 * math.sin(math.pi * t / 4)
        return [Placement(*HOPPER_HEAD, 0.36, -20 + 560 * u, 10 + lift, 1),
                Placement(*ASTRONAUT_HEAD, 0.52, 540 - 560 * u, 230 - lift, 2)]
    return dict(name="crossing", size=(640, 360), times=times, at=at, rate=25)


def exit_return_clip():
    times = [i / 25 for i in range(100)]

    def at(t):
        # Out to the right by t = 1.2 s, out of sight until 2.2 s, back to the start by 4 s.
        if t < 1.2:
            x = 250 + 450 * ease(t / 1.2)
        elif t < 2.2:
            x = 700
        else:
            x = 700 - 450 * ease((t - 2.2) / 1.8)
        return [Placement(*ASTRONAUT_HEAD, 0.6, x, 110, 1)]
    return dict(name="exit-return", size=(640, 360), times=times, at=at, rate=25)


def no_face_clip():
    times = [i / 25 for i in range(50)]

    def at(t):
        return [Placement(*NO_FACE[0], 1.0, 420 - 60 * t, 30, None),
                Placement(*NO_FACE[1], 0.8, 40 + 50 * t, 20, None)]
    return dict(name="no-face", size=(640, 360), times=times, at=at, rate=25)


def portrait_clip():
    times = [i / 25 for i in range(75)]

    def at(t):
        return [Placement(*HOPPER_HEAD, 0.7, 180 - 108 + 40 * math.sin(2 * math.pi * t / 3), 120 + 120 * t / 3, 1)]
    return dict(name="portrait-rotated", size=(360, 640), times=times, at=at, rate=25, rotate=90)


def vfr_times():
    # 1 s at 25 fps, 1 s at 10 fps, 1 s at 30 fps: every time a whole multiple of 1/300 s.
    return [i / 25 for i in range(25)] + [1 + i / 10 for i in range(10)] + [2 + i / 30 for i in range(30)]


def vfr_clip():
    def at(t):
        return [Placement(*ASTRONAUT_HEAD, 0.55 + 0.1 * t, 80 + 120 * t, 60 + 20 * math.sin(2 * math.pi * t / 3), 1)]
    return dict(name="vfr", size=(640, 360), times=vfr_times(), at=at, rate=300, vfr=True)


def small_face_clip():
    times = [i / 25 for i in range(50)]

    def at(t):
        return [Placement(*HOPPER_FULL, 0.35, 700 + 250 * t, 420 + 40 * math.sin(math.pi * t), 1)]
    return dict(name="hd-small-face", size=(1920, 1080), times=times, at=at, rate=25)


CLIPS = [zoom_clip, crossing_clip, exit_return_clip, no_face_clip, portrait_clip, vfr_clip, small_face_clip]


def fixed(value, decimals):
    text = "%.*f" % (decimals, value)
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def truth_rows(clip, photos):
    width, height = clip["size"]
    lines = [",".join(COLUMNS)]
    for frame, t in enumerate(clip["times"]):
        rows = []
        for p in sorted((p for p in clip["at"](t) if p.track_id is not None), key=lambda p: p.track_id):
            facts = photos[p.photo]
            fx, fy, fw, fh = facts["face"]
            x0, y0 = p.map(fx, fy)
            x1, y1 = p.map(fx + fw, fy + fh)
            cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
            if cx1 <= cx0 or cy1 <= cy0 or (cx1 - cx0) * (cy1 - cy0) < 0.5 * (x1 - x0) * (y1 - y0):
                continue
            eyes = []
            for key in ("left_eye", "right_eye"):
                ex, ey = p.map(*facts[key])
                eyes += [fixed(ex, 2), fixed(ey, 2)] if 0 <= ex <= width and 0 <= ey <= height else ["", ""]
            rows.append([str(frame), fixed(t, 6), str(p.track_id), fixed(cx0, 2), fixed(cy0, 2),
                         fixed(cx1 - cx0, 2), fixed(cy1 - cy0, 2), "1.0000"] + eyes + [""] * 7 + ["truth"])
        if not rows:
            rows.append([str(frame), fixed(t, 6)] + [""] * (len(COLUMNS) - 2))
        lines += [",".join(r) for r in rows]
    return "\n".join(lines) + "\n"


def render(clip, photos, photo_dir, out_path):
    import numpy as np
    from PIL import Image

    images = {}
    for key, facts in photos.items():
        image = Image.open(os.path.join(photo_dir, facts["file"])).convert("RGB")
        if list(image.size) != facts["size"]:
            sys.exit(f"reference_clips: {facts['file']} is {image.size}, samples/photos.json says {facts['size']}")
        images[key] = image
    width, height = clip["size"]
    # A fixed vertical grey-blue gradient background.
    column = np.linspace(40, 90, height, dtype=np.float32)
    background = np.stack([column * 0.8, column * 0.9, column * 1.1], axis=-1).clip(0, 255).astype(np.uint8)
    background = np.repeat(background[:, None, :], width, axis=1)
    stored = (height, width) if clip.get("rotate") else (width, height)
    encode = ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{stored[0]}x{stored[1]}",
              "-framerate", str(clip["rate"]), "-i", "-"]
    if clip.get("vfr"):
        times = clip["times"]
        # Frame N's time as a piecewise expression of N, exact in the 1/300 s time base.
        expr = "if(lt(N,25),N*12,if(lt(N,35),300+(N-25)*30,600+(N-35)*10))"
        assert all(abs(t * 300 - (n * 12 if n < 25 else 300 + (n - 25) * 30 if n < 35 else 600 + (n - 35) * 10)) < 1e-6
                   for n, t in enumerate(times))
        encode += ["-vf", f"setpts='{expr}'", "-fps_mode", "vfr", "-video_track_timescale", "300"]
    encode += ["-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-an",
               "-fflags", "+bitexact", "-flags:v", "+bitexact", "-movflags", "+faststart"]
    # FFmpeg 5.1 writes the rotate tag as a display matrix only when stream-copying: a second pass.
    encoded = out_path + ".tmp.mp4" if clip.get("rotate") else out_path
    encode += [encoded]
    ffmpeg = subprocess.Popen(encode, stdin=subprocess.PIPE)
    for t in clip["times"]:
        frame = Image.fromarray(background)
        for p in clip["at"](t):
            piece = images[p.photo].crop(p.crop).resize((p.width, p.height), Image.LANCZOS)
            frame.paste(piece, (p.x, p.y))
        pixels = np.asarray(frame)
        if clip.get("rotate"):
            # Stored turned a quarter clockwise; players turn it back by the tag (as ffmpeg autorotates).
            pixels = np.ascontiguousarray(np.rot90(pixels, k=-1))
        ffmpeg.stdin.write(pixels.tobytes())
    ffmpeg.stdin.close()
    if ffmpeg.wait() != 0:
        sys.exit(f"reference_clips: ffmpeg failed for {out_path}")
    if clip.get("rotate"):
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", encoded, "-c", "copy", "-metadata:s:v:0",
                        f"rotate={clip['rotate']}", "-fflags", "+bitexact", "-movflags", "+faststart", out_path],
                       check=True)
        os.remove(encoded)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--truth-only", action="store_true", help="write only the truth CSVs (no photos needed)")
    parser.add_argument("--photos", help="folder holding the photo files named in samples/photos.json")
    parser.add_argument("--out", default=SAMPLES, help="output folder (default samples/)")
    args = parser.parse_args()
    with open(os.path.join(SAMPLES, "photos.json")) as f:
        photos = json.load(f)["photos"]
    os.makedirs(args.out, exist_ok=True)
    for make in CLIPS:
        clip = make()
        with open(os.path.join(args.out, clip["name"] + ".truth.csv"), "w", newline="") as f:
            f.write(truth_rows(clip, photos))
        if not args.truth_only:
            if not args.photos:
                sys.exit("reference_clips: --photos DIR is needed to render clips")
            path = os.path.join(args.out, clip["name"] + ".mp4")
            render(clip, photos, args.photos, path)
            print(f"reference_clips: wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main()
