#!/usr/bin/env python3
"""Builds the reference clips in samples/ and their exact ground truth.

Every clip is rendered frame by frame: public-domain photos (facts in samples/photos.json) are
cropped, scaled to whole-pixel sizes (optionally mirrored and colour-shifted) and pasted at
whole-pixel offsets on a background, and the raw frames are piped to ffmpeg. The same per-frame
placements give the truth: each photo's hand-drawn face box and eye centres, transformed by the
placement. So picture and truth cannot disagree.

  python3 scripts/reference_clips.py --photos DIR [--clips A,B]  render clips and truth into samples/
  python3 scripts/reference_clips.py --truth-only --out DIR       only the truth CSVs (stdlib only, no photos)

Truth CSV: the tracks CSV columns. One row per visible face per frame (confidence 1, source
"truth"); a frame without faces has one row with only frame and time, so every frame is listed.
Placements are pasted in list order, each an opaque rectangle over the earlier ones. A face counts
as visible while at least half of its box can be seen: inside the picture and not under a crop
pasted after it. Its box is then clipped to the picture (not to the crops in front of it), and an
eye outside the picture or under a later crop is left empty. A face more than half hidden is not
in the truth (no detector can see it) and keeps its track ID when it comes out again.
"""
import argparse
import functools
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
    """One photo crop pasted at a whole-pixel offset and size; track_id None for a faceless crop.
    mirror flips the crop left to right; tint multiplies its red, green and blue (picture only)."""

    def __init__(self, photo, crop, scale, x, y, track_id, mirror=False, tint=None):
        self.photo, self.crop, self.track_id, self.mirror, self.tint = photo, crop, track_id, mirror, tint
        cw, ch = crop[2] - crop[0], crop[3] - crop[1]
        self.width = max(1, int(round(cw * scale)))
        self.height = max(1, int(round(ch * scale)))
        self.x, self.y = int(round(x)), int(round(y))

    def map(self, px, py):
        """A photo point in frame coordinates (edges map to edges: exact for a resize and a flip)."""
        cw, ch = self.crop[2] - self.crop[0], self.crop[3] - self.crop[1]
        u = self.crop[2] - px if self.mirror else px - self.crop[0]
        return (self.x + u * self.width / cw, self.y + (py - self.crop[1]) * self.height / ch)

    def rect(self):
        """The pasted rectangle (x0, y0, x1, y1) in frame pixels."""
        return (self.x, self.y, self.x + self.width, self.y + self.height)


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


def exit_return(name, frames, back_at):
    """The astronaut's head out to the right by 1.2 s, out of sight until back_at, back at the start 1.8 s later."""
    times = [i / 25 for i in range(frames)]

    def at(t):
        if t < 1.2:
            x = 250 + 450 * ease(t / 1.2)
        elif t < back_at:
            x = 700
        else:
            x = 700 - 450 * ease((t - back_at) / 1.8)
        return [Placement(*ASTRONAUT_HEAD, 0.6, x, 110, 1)]
    return dict(name=name, size=(640, 360), times=times, at=at, rate=25)


def exit_return_clip():
    return exit_return("exit-return", 100, 2.2)


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


def exit_return_long_clip():
    # Out of sight until 3.7 s: less than half of the face is in the frame from frame 19 to 109 (3.6 s),
    # far longer than the default --max-age (1 s).
    return exit_return("exit-return-long", 150, 3.7)


def edge_enter_clip():
    """Small faces (28-40 px at 720p: too small for the whole-frame pass) that enter and leave at the
    frame's four edges: anonymisation must find them within a few frames and mask them back to
    their first frame."""
    times = [i / 25 for i in range(125)]
    # (track_id, head, mirror, face height, first and last time, centre at the first time, pixels per second)
    walkers = [(1, HOPPER_HEAD, False, 34, 0.0, 5.0, (-40, 220), (150, 0)),
               (2, ASTRONAUT_HEAD, False, 30, 0.8, 5.0, (1320, 480), (-170, 0)),
               (3, HOPPER_HEAD, True, 40, 0.0, 2.2, (1000, 330), (160, 0)),
               (4, ASTRONAUT_HEAD, True, 28, 2.4, 5.0, (-30, 600), (130, 0)),
               (5, HOPPER_HEAD, False, 36, 3.0, 5.0, (900, -30), (0, 120)),
               (6, ASTRONAUT_HEAD, False, 32, 0.0, 1.8, (200, 100), (-150, 0))]

    def at(t):
        placed = []
        for track_id, (photo, crop), mirror, height, t0, t1, (x, y), (vx, vy) in walkers:
            if t0 <= t <= t1:
                placed.append(face_at(photo, crop, height, x + vx * (t - t0), y + vy * (t - t0), track_id, mirror))
        return placed
    return dict(name="edge-enter", size=(1280, 720), times=times, at=at, rate=25)


def face_at(photo, crop, height, cx, cy, track_id, mirror=False, tint=None):
    """A crop placed so that the photo's face box is about `height` pixels tall and centred on (cx, cy)."""
    fx, fy, fw, fh = photo_facts()[photo]["face"]
    scale = height / fh
    u = crop[2] - (fx + fw / 2) if mirror else fx + fw / 2 - crop[0]
    return Placement(photo, crop, scale, cx - u * scale, cy - (fy + fh / 2 - crop[1]) * scale, track_id, mirror, tint)


def cut_clip():
    # Shots A, B, A of 38 frames each, hard cuts between them. Each shot: a backdrop (a plain patch of
    # the photo's own background, blown up to fill the frame), then the person, face about 130 px
    # high near the centre, swaying and zooming slightly. Track IDs are per person: Hopper 1, the astronaut 2.
    times = [i / 25 for i in range(114)]
    shots = [(("grace_hopper", (400, 10, 512, 73)), ("grace_hopper", (140, 20, 420, 600)), 1),
             (("astronaut", (310, 0, 382, 41)), ("astronaut", (60, 0, 400, 512)), 2)]

    def at(t):
        frame = int(round(t * 25))
        backdrop, (photo, crop), track_id = shots[0] if frame < 38 or frame >= 76 else shots[1]
        scale = 640 / (backdrop[1][2] - backdrop[1][0])
        height = 130 * (1 + 0.03 * math.sin(2 * math.pi * t / 3.1))
        cx, cy = 320 + 6 * math.sin(2 * math.pi * t / 2.3), 170 + 3 * math.sin(2 * math.pi * t / 1.7)
        return [Placement(*backdrop, scale, 0, 0, None), face_at(photo, crop, height, cx, cy, track_id)]
    return dict(name="cut-aba", size=(640, 360), times=times, at=at, rate=25)


# The crowd: a camera above head height looking at people walking in front of a brick wall. A person at
# depth d (1 = nearest) has a face CROWD_FOCAL / d pixels high, centred HORIZON + RISE * height down
# the frame (farther faces higher up), and sideways at 960 + CROWD_FOCAL * X / d for a world position X.
CROWD_FOCAL, HORIZON, RISE = 160, 300, 2.6
CROWD_WALL_BASE = int(HORIZON + (RISE + 7) * 24)  # the farthest feet: where the wall meets the floor
HOPPER_BUST = ("grace_hopper", (90, 20, 450, 600))
ASTRONAUT_BUST = ("astronaut", (100, 0, 370, 512))
OBAMA_BUST = ("obama", (270, 40, 730, 740))
OBAMA3_BUST = ("obama3", (540, 190, 1060, 1000))
BIDEN_BUST = ("biden", (330, 120, 860, 940))
BIDEN_NARROW = ("biden", (400, 180, 790, 960))
COELHO_BUST = ("luispedro", (0, 30, 300, 377))
# Five different people; the truth's track ID is the person's (Hopper 1, the astronaut 2, Obama 3, Biden 4,
# Coelho 5), so a person who leaves and comes back, after more than a tracker bridges, is one true ID: that
# is what re-identification has to find. No person is in the picture twice at once (copies of one photo at
# once are what made re-identification unmeasurable here before). Obama comes back in another photo.
# (track ID, crop, mirrored, colour gains, first and last time, (X, d) at the first and at the last, sway)
# Each walks a straight line at constant speed; absent outside its times (then out of the frame or hidden).
CROWD_PEOPLE = [
    (1, HOPPER_BUST, False, (1.0, 1.0, 1.0), 0.0, 7.0, (-41, 6.5), (11, 6.5), 0),            # far; ends behind pillar
    (2, ASTRONAUT_BUST, True, (0.9, 0.95, 1.1), 0.0, 7.0, (33, 5.0), (-12, 5.0), 0),         # far; behind a pillar
    (5, COELHO_BUST, False, (1.15, 1.05, 0.95), 0.3, 7.0, (-8.5, 1.25), (-26, 5.5), 0),      # near at left, recedes
    (3, OBAMA_BUST, False, (0.95, 1.0, 1.1), 0.0, 4.0, (-11, 1.6), (10, 1.6), 0),            # near, left to right, out
    (4, BIDEN_BUST, True, (0.9, 0.9, 0.95), 0.8, 4.6, (12.6, 6.5), (10, 1.15), 0),           # from right pillar, out
    (3, OBAMA3_BUST, False, (1.0, 0.95, 0.9), 4.7, 7.0, (7.2, 1.0), (3, 2.0), 0),            # back near at right
    (4, BIDEN_NARROW, False, (1.1, 1.0, 0.9), 5.2, 7.0, (-18, 6.4), (-5, 3.6), 0),           # back from left pillar
]
# Pillars (left edge, width, depth): brick strips from the top of the frame down to the floor at their depth.
CROWD_PILLARS = [(1180, 110, 2.7), (430, 90, 3.5)]
# Face-like things that are not faces, on the wall: (photo or drawing, crop, scale, x, y, mirrored).
CROWD_DECOYS = [
    ("chelsea", (60, 0, 420, 300), 0.6, 150, 90, False),
    ("chelsea", (60, 0, 420, 300), 0.22, 1560, 330, True),
    ("coffee", (0, 0, 600, 400), 0.3, 1650, 110, False),
    ("astronaut", (130, 345, 215, 425), 0.8, 760, 200, False),
    ("outlet", (0, 0, 60, 90), 0.5, 1010, 470, False),
    ("outlet", (0, 0, 60, 90), 0.7, 330, 455, False),
    ("outlet", (0, 0, 60, 90), 0.4, 1420, 480, False),
]


def crowd_clip():
    times = [i / 25 for i in range(175)]
    decoys = [Placement(photo, crop, scale, x, y, None, mirror) for photo, crop, scale, x, y, mirror in CROWD_DECOYS]

    def at(t):
        layers = []  # (depth, paste rank, placement): painted from far to near
        for rank, (track_id, (photo, crop), mirror, tint, t0, t1, start, end, sway) in enumerate(CROWD_PEOPLE):
            if not t0 <= t <= t1:
                continue
            u = (t - t0) / (t1 - t0)
            x = start[0] + (end[0] - start[0]) * u + sway * math.sin(2 * math.pi * t / 2.9 + track_id)
            d = start[1] + (end[1] - start[1]) * u
            height = CROWD_FOCAL / d
            walking = start != end
            bob = 0.025 * height * math.sin(2 * math.pi * 1.8 * t + track_id + rank) if walking else 0
            cx, cy = 960 + CROWD_FOCAL * x / d, HORIZON + RISE * height + bob
            layers.append((d, rank, face_at(photo, crop, height, cx, cy, track_id, mirror, tint)))
        for rank, (left, width, d) in enumerate(CROWD_PILLARS):
            floor = HORIZON + (RISE + 7) * CROWD_FOCAL / d
            scale = floor / 512
            crop = (0, 0, int(round(width / scale)), 512)
            pillar = Placement("brick", crop, scale, left, 0, None, tint=(0.55, 0.55, 0.6))
            layers.append((d, len(CROWD_PEOPLE) + rank, pillar))
        layers.sort(key=lambda layer: (-layer[0], layer[1]))
        return decoys + [p for _, _, p in layers]
    return dict(name="crowd-hd", size=(1920, 1080), times=times, at=at, rate=25, backdrop=crowd_backdrop)


def crowd_backdrop(images, width, height):
    """Brick wall above the floor line, gravel floor below it (both tiled mirrored, so without seams)."""
    import numpy as np

    wall = tiled(images["brick"], 384, (1.0, 0.72, 0.6), width, height)
    floor = tiled(images["gravel"], 256, (0.75, 0.72, 0.68), width, height)
    shade = np.linspace(0.6, 1.0, height, dtype=np.float32)[:, None, None]  # the floor darker far away
    picture = np.where(np.arange(height)[:, None, None] < CROWD_WALL_BASE, wall, floor * shade)
    picture[CROWD_WALL_BASE - 8:CROWD_WALL_BASE] *= 0.4  # a dark skirting along the wall's foot
    return picture.clip(0, 255).astype(np.uint8)


def tiled(image, size, gains, width, height):
    """A texture resized to size x size, tiled mirrored (so without seams) over width x height, with
    red, green and blue gains (floats)."""
    import numpy as np
    from PIL import Image

    tile = np.asarray(image.resize((size, size), Image.LANCZOS), dtype=np.float32)
    pair = np.concatenate([tile, tile[:, ::-1]], axis=1)
    block = np.concatenate([pair, pair[::-1]], axis=0)
    reps = (height // block.shape[0] + 1, width // block.shape[1] + 1, 1)
    return np.tile(block, reps)[:height, :width] * np.array(gains, dtype=np.float32)


# steady-hd: talking heads in front of a brick wall at 720p, so that the detection budget's quiet sweep
# (docs/scheduling.md, "Detection budget": a whole tile sweep at the slow pace with nothing new and no
# small face, then a tile a second) sets in and lasts, and faces enter while it runs. Track IDs are
# people: Hopper 1 and the astronaut 2 (faces 136 to 154 px high, the whole clip, swaying and zooming slightly),
# Obama 3 (120 px, walking in from the right edge at 6 s and stopping), Biden 4 (30 px, mirrored, walking
# in from the left edge at 9.5 s and stopping: too small for the whole-frame pass, a tile has to find him).
# The times are chosen with the tile rhythm (keyed on the frame number: at 25 fps the quiet sweep's tiles
# run on frames 24, 49, 74, ..., tile k on the (k+1)th of six): Biden's tile, the bottom left one, comes
# on frame 249, 5 frames after he is more than half in, and the sweep is quiet again by then (Obama's
# new track ended the quiet state for a sweep at the slow pace).
# Head and shoulders only for the two who sway and zoom: every frame of them costs x264 bits.
STEADY_HOPPER = ("grace_hopper", (100, 40, 430, 420))
STEADY_ASTRONAUT = ("astronaut", (100, 0, 350, 260))
STEADY_OBAMA = ("obama", (270, 40, 730, 1137))
# (track ID, crop, mirrored, colour gains, face height, centre, sway (x, y) px, sway periods s, zoom)
STEADY_SEATED = [
    (1, STEADY_HOPPER, False, (1.0, 1.0, 1.0), 150, (390, 300), (9, 4), (4.1, 3.3), 0.03),
    (2, STEADY_ASTRONAUT, False, (0.95, 0.95, 1.05), 140, (800, 330), (10, 5), (3.7, 2.9), 0.03),
]
# (track ID, crop, mirrored, colour gains, face height, first time, centre then, stopping time, centre there)
STEADY_WALKERS = [
    (3, STEADY_OBAMA, False, (0.95, 1.0, 1.05), 120, 6.0, (1345, 345), 7.6, (1130, 345)),
    (4, BIDEN_NARROW, True, (1.0, 1.0, 1.0), 30, 9.52, (-20, 470), 10.92, (95, 470)),
]


def steady_clip():
    times = [i / 25 for i in range(300)]

    def at(t):
        placed = []
        for track_id, (photo, crop), mirror, tint, height, (x, y), (ax, ay), (px, py), zoom in STEADY_SEATED:
            phase = track_id * 1.3
            size = height * (1 + zoom * math.sin(2 * math.pi * t / 11.7 + phase))
            cx = x + ax * math.sin(2 * math.pi * t / px + phase)
            cy = y + ay * math.sin(2 * math.pi * t / py + phase)
            placed.append(face_at(photo, crop, size, cx, cy, track_id, mirror, tint))
        for track_id, (photo, crop), mirror, tint, height, t0, (x0, y0), t1, (x1, y1) in STEADY_WALKERS:
            if t < t0:
                continue
            # Walking at a steady pace, slowing down evenly over the last third, then standing.
            u = min(1.0, (t - t0) / (t1 - t0))
            v = 1.2 * u if u < 2 / 3 else 0.8 + 3.6 * ((u - 2 / 3) - (u * u - 4 / 9) / 2)
            bob = 0.02 * height * math.sin(2 * math.pi * 1.8 * (t - t0)) * (1 - u)
            placed.append(face_at(photo, crop, height, x0 + (x1 - x0) * v, y0 + (y1 - y0) * v + bob, track_id, mirror, tint))
        return placed
    return dict(name="steady-hd", size=(1280, 720), times=times, at=at, rate=25, backdrop=steady_backdrop)


def steady_backdrop(images, width, height):
    """crowd-hd's brick wall over the whole frame, its bricks larger and its contrast lower: x264 spends less
    on it (with crowd-hd's wall and gravel floor, and busts instead of heads, the clip took 711 kB)."""
    import numpy as np

    wall = tiled(images["brick"], 512, (1.0, 0.72, 0.6), width, height)
    mean = wall.mean(axis=(0, 1))
    return (mean + 0.45 * (wall - mean)).clip(0, 255).astype(np.uint8)


def draw_outlet():
    """A wall socket (60x90): a pale plate, two dark slots and a round hole, like a face at a glance."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (60, 90), (96, 70, 60))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((2, 2, 57, 87), radius=10, fill=(226, 220, 205), outline=(150, 145, 135), width=2)
    draw.rounded_rectangle((15, 22, 22, 42), radius=3, fill=(35, 30, 30))
    draw.rounded_rectangle((38, 22, 45, 42), radius=3, fill=(35, 30, 30))
    draw.ellipse((23, 55, 37, 69), fill=(35, 30, 30))
    return image


# Pictures drawn here rather than taken from a photo, by name.
DRAWINGS = {"outlet": draw_outlet}

CLIPS = [zoom_clip, crossing_clip, exit_return_clip, no_face_clip, portrait_clip, vfr_clip, small_face_clip,
         exit_return_long_clip, cut_clip, crowd_clip, edge_enter_clip, steady_clip]


@functools.lru_cache(maxsize=None)
def photo_facts():
    """samples/photos.json's photos: pixel size, face box and eye centres by name."""
    with open(os.path.join(SAMPLES, "photos.json")) as f:
        return json.load(f)["photos"]


def fixed(value, decimals):
    text = "%.*f" % (decimals, value)
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def covered_area(box, rects):
    """The area of box (x0, y0, x1, y1) under the union of rects: column strips between the
    rectangles' x edges, each summing its merged y spans."""
    x0, y0, x1, y1 = box
    parts = [(max(x0, a), max(y0, b), min(x1, c), min(y1, d)) for a, b, c, d in rects]
    parts = [r for r in parts if r[0] < r[2] and r[1] < r[3]]
    if not parts:
        return 0.0
    edges = sorted({v for r in parts for v in (r[0], r[2])})
    area = 0.0
    for left, right in zip(edges, edges[1:]):
        spans = sorted((r[1], r[3]) for r in parts if r[0] <= left and right <= r[2])
        covered, top, bottom = 0.0, None, None
        for a, b in spans:
            if top is not None and a <= bottom:
                bottom = max(bottom, b)
                continue
            if top is not None:
                covered += bottom - top
            top, bottom = a, b
        if top is not None:
            covered += bottom - top
        area += covered * (right - left)
    return area


def truth_rows(clip, photos):
    width, height = clip["size"]
    lines = [",".join(COLUMNS)]
    for frame, t in enumerate(clip["times"]):
        rows = []
        placed = clip["at"](t)
        faces = sorted((i for i, p in enumerate(placed) if p.track_id is not None), key=lambda i: placed[i].track_id)
        for index in faces:
            p, later = placed[index], [q.rect() for q in placed[index + 1:]]
            facts = photos[p.photo]
            fx, fy, fw, fh = facts["face"]
            x0, y0 = p.map(fx, fy)
            x1, y1 = p.map(fx + fw, fy + fh)
            if p.mirror:
                x0, x1 = x1, x0
            cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
            if cx1 <= cx0 or cy1 <= cy0:
                continue
            seen = (cx1 - cx0) * (cy1 - cy0) - covered_area((cx0, cy0, cx1, cy1), later)
            if seen < 0.5 * abs((x1 - x0) * (y1 - y0)):
                # Mostly hidden or out of the picture: neither a miss nor a false positive.
                rows.append([str(frame), fixed(t, 6), str(p.track_id), fixed(cx0, 2), fixed(cy0, 2),
                             fixed(cx1 - cx0, 2), fixed(cy1 - cy0, 2), "1.0000"] + [""] * 11 + ["ignore"])
                continue
            eyes = []
            # Mirrored, the photo's right eye is on the image's left.
            for key in ("right_eye", "left_eye") if p.mirror else ("left_eye", "right_eye"):
                ex, ey = p.map(*facts[key])
                inside = 0 <= ex <= width and 0 <= ey <= height
                hidden = any(a <= ex < c and b <= ey < d for a, b, c, d in later)
                eyes += [fixed(ex, 2), fixed(ey, 2)] if inside and not hidden else ["", ""]
            rows.append([str(frame), fixed(t, 6), str(p.track_id), fixed(cx0, 2), fixed(cy0, 2),
                         fixed(cx1 - cx0, 2), fixed(cy1 - cy0, 2), "1.0000"] + eyes + [""] * 7 + ["truth"])
        if not rows:
            rows.append([str(frame), fixed(t, 6)] + [""] * (len(COLUMNS) - 2))
        lines += [",".join(r) for r in rows]
    return "\n".join(lines) + "\n"


def piece(image, p):
    """The picture placement p pastes: its crop of image resized, then mirrored and tinted."""
    import numpy as np
    from PIL import Image

    resized = image.crop(p.crop).resize((p.width, p.height), Image.LANCZOS)
    if p.mirror:
        resized = resized.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    if p.tint:
        pixels = np.asarray(resized, dtype=np.float32) * np.array(p.tint, dtype=np.float32)
        resized = Image.fromarray(pixels.round().clip(0, 255).astype(np.uint8))
    return resized


def render(clip, photos, photo_dir, out_path):
    import numpy as np
    from PIL import Image

    images = {key: draw() for key, draw in DRAWINGS.items()}
    for key, facts in photos.items():
        image = Image.open(os.path.join(photo_dir, facts["file"])).convert("RGB")
        if list(image.size) != facts["size"]:
            sys.exit(f"reference_clips: {facts['file']} is {image.size}, samples/photos.json says {facts['size']}")
        images[key] = image
    width, height = clip["size"]
    if clip.get("backdrop"):
        background = clip["backdrop"](images, width, height)
    else:
        # A fixed vertical grey-blue gradient background.
        column = np.linspace(40, 90, height, dtype=np.float32)
        background = np.stack([column * 0.8, column * 0.9, column * 1.1], axis=-1).clip(0, 255).astype(np.uint8)
        background = np.repeat(background[:, None, :], width, axis=1)
    pieces = {}  # resized crops by (photo, crop, size, mirror, tint): still placements are resized once
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
            key = (p.photo, p.crop, p.width, p.height, p.mirror, p.tint)
            if key not in pieces:
                if len(pieces) > 256:
                    pieces.clear()
                pieces[key] = piece(images[p.photo], p)
            frame.paste(pieces[key], (p.x, p.y))
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
    parser.add_argument("--clips", help="comma-separated clip names to build (default all)")
    args = parser.parse_args()
    photos = photo_facts()
    clips = [make() for make in CLIPS]
    if args.clips:
        wanted = args.clips.split(",")
        unknown = sorted(set(wanted) - {clip["name"] for clip in clips})
        if unknown:
            sys.exit(f"reference_clips: no clip named {', '.join(unknown)}")
        clips = [clip for clip in clips if clip["name"] in wanted]
    os.makedirs(args.out, exist_ok=True)
    for clip in clips:
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
