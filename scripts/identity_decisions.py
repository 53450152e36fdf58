#!/usr/bin/env python3
"""Every identity decision of a run, with the truth: what the pipeline weighed when it linked (or did not
link) a new track to an earlier identity, and what a different rule would have done, without running
the pipeline again.

  identity_decisions.py sequences --corpus DIR --half tune --seeds 101,102 --out W
                                                                 more 26-shot sequences like the bench's
                                                                 `long` (identity_corpus.py's plan with
                                                                 other seeds: same people, other shots)
  identity_decisions.py halves --clips DIR --out W               talking heads of a few people (e.g.
                                                                 ../shared/data/identity) as sequences of
                                                                 their halves: A B C D A' B' C' D' and
                                                                 A B A' C B' D C' D', normal and shrunk
  identity_decisions.py dump   --facetrack BIN --out W VIDEO...   one-segment plan per video: the tracks CSV
                                                                 and the segment record, which holds every
                                                                 call on the identity ledger with its
                                                                 embedding (docs/batch.md)
  identity_decisions.py check  W                                 replays each record through the Python copy
                                                                 of ReidentificationIndex below and checks
                                                                 that every written row gets the ID it got
  identity_decisions.py show   W [NAME...]                       each decision: candidates, distances, who
                                                                 they are (truth), linked or not
  identity_decisions.py near   W                                 decisions near the threshold: the same
                                                                 person's best candidate at 0.35 and more,
                                                                 and the best candidate of a person whose
                                                                 own identity is left out (a new face)
  identity_decisions.py simulate --embeddings FILE --half tune   open-set decisions drawn from the bench's
                                                                 whole-clip embeddings (identity-bench
                                                                 embed): a new person's stretch against
                                                                 1 to 10 other people; how often a rule
                                                                 would merge them
  identity_decisions.py samples W --embeddings FILE            each sample's distance to its person's
                                                                 whole-clip reference, by look, clipping
                                                                 and quality
  identity_decisions.py measures W...                           other comparisons of two galleries than
                                                                 their centroids' distance, over every
                                                                 candidate of every decision
  identity_decisions.py rules  W                                 IDF1 per sequence under other continuation
                                                                 rules, replayed on the same samples

Truth: NAME.truth.json beside NAME.mp4 (identity_corpus.py build writes them; "persons" per frame).
The replay is a copy of Sources/Identity/ReidentificationIndex.swift and Sources/Pipeline/IdentityLedger.swift
in float32; `check` says when the two drift apart. Bench tooling only: never in the product's path.
"""
import argparse
import collections
import csv
import glob
import json
import math
import os
import signal
import subprocess
import sys

import numpy as np

THRESHOLD, MARGIN = np.float32(0.4), np.float32(0.05)
WIDE_REACH, WIDE_MARGIN = np.float32(0.05), np.float32(0.11)
CAPACITY, DRIFT_SAMPLES, DRIFT_SECONDS, DECISION_SAMPLES = 8, 4, 0.5, 2
MINIMUM_QUALITY, SPLIT_QUALITY, LOST_FOR = 0.03, 0.1, 0.25
POOR_QUALITY, POOR_SAMPLES, POOR_THRESHOLD = 0.01, 3, np.float32(0.35)


def dist(a, b):
    d = (a - b).astype(np.float32)
    return np.float32(np.sqrt(np.float32(np.sum(d * d, dtype=np.float32))))


def mean(embeddings):
    total = np.zeros(len(embeddings[0]), dtype=np.float32)
    for e in embeddings:
        total = (total + e).astype(np.float32)
    return (total * np.float32(1.0 / np.float32(len(embeddings)))).astype(np.float32)


class Sample:
    __slots__ = ("emb", "q", "t", "frame", "serial")

    def __init__(self, emb, q, t, frame, serial):
        self.emb, self.q, self.t, self.frame, self.serial = emb, q, t, frame, serial


class Gallery:
    """TrackGallery: the best CAPACITY samples, best first, and their centroid."""

    def __init__(self, capacity=CAPACITY):
        self.capacity, self.samples, self.centroid = max(1, capacity), [], None

    def copy(self):
        g = Gallery(self.capacity)
        g.samples, g.centroid = list(self.samples), self.centroid
        return g

    def _update(self):
        self.centroid = mean([s.emb for s in self.samples]) if self.samples else None

    def add(self, s):
        if len(self.samples) == self.capacity:
            if not s.q > self.samples[-1].q:
                return
            self.samples.pop()
        at = next((i for i, x in enumerate(self.samples) if x.q < s.q), len(self.samples))
        self.samples.insert(at, s)
        self._update()

    def remove_since(self, t):
        self.samples = [s for s in self.samples if s.t < t]
        self._update()

    def remove_below(self, q):
        self.samples = [s for s in self.samples if s.q >= q]
        self._update()

    def merge(self, other):
        for s in other.samples:
            self.add(s)

    def to_gallery(self, other):
        return None if self.centroid is None or other.centroid is None else dist(self.centroid, other.centroid)

    def to_embedding(self, e):
        return None if self.centroid is None else dist(self.centroid, e)


class Live:
    def __init__(self, t):
        self.identity, self.gallery, self.outliers, self.poor = None, Gallery(), [], Gallery()
        self.far_from = None  # LiveTrack.farFrom: None for THRESHOLD
        self.first_seen = self.last_seen = self.last_consistent = t


class Index:
    """ReidentificationIndex with the default settings; `log` collects every decision."""

    def __init__(self, rule=None):
        self.live, self.ended, self.next, self.quiet, self.log = {}, [], 1, -math.inf, []
        self.rule = rule  # (best distance, runner-up distance or None) -> link; None: today's rule

    def observe(self, track, sample, t):
        st = self.live.get(track) or Live(t)
        st.last_seen = t
        if sample is None or not sample.q >= MINIMUM_QUALITY or not t >= self.quiet:
            if sample is not None and st.identity is None and sample.q >= POOR_QUALITY and t >= self.quiet:
                sample.t = t
                st.poor.add(sample)
            if not st.outliers:
                st.last_consistent = t
            self.live[track] = st
            return None
        sample.t = t
        d = st.gallery.to_embedding(sample.emb) if st.identity is not None else None
        if d is None or not d >= (THRESHOLD if st.far_from is None else st.far_from):
            st.gallery.add(sample)
            st.outliers, st.last_consistent = [], t
            self.live[track] = st
            return None
        if not sample.q >= SPLIT_QUALITY:
            if not st.outliers:
                st.last_consistent = t
            self.live[track] = st
            return None
        if not any(s.q >= SPLIT_QUALITY for s in st.gallery.samples):
            st.gallery.remove_below(SPLIT_QUALITY)
            st.gallery.add(sample)
            st.outliers, st.last_consistent = [], t
            self.live[track] = st
            return None
        st.outliers.append(sample)
        st.outliers = [s for s in st.outliers if not t - s.t > 2 * max(DRIFT_SECONDS, 1)]
        evidence = self.drift(st)
        if st.identity is None or evidence is None:
            self.live[track] = st
            return None
        self.remember(st.identity, st.gallery, st.last_consistent)
        since = min(s.t for s in evidence.samples)
        split = Live(since)
        split.gallery, split.last_seen, split.last_consistent = evidence, t, t
        decision = self.decide(track, split, st.identity, t, "split")
        decision["since"] = since
        return decision

    def drift(self, st):
        newest = st.outliers[-1]
        outliers = [s for s in st.outliers if dist(s.emb, newest.emb) < THRESHOLD]
        if len(outliers) < DRIFT_SAMPLES or not outliers[-1].t - outliers[0].t >= DRIFT_SECONDS:
            return None
        g = Gallery(max(CAPACITY, len(outliers)))
        for s in outliers:
            g.add(s)
        if not all(dist(s.emb, g.centroid) < THRESHOLD for s in outliers):
            return None
        apart = st.gallery.to_embedding(g.centroid)
        return g if apart is not None and apart >= THRESHOLD + MARGIN else None

    def confirm(self, track, t):
        st = self.live.get(track) or Live(t)
        return dict(identity=st.identity) if st.identity is not None else self.decide(track, st, None, t, "publish")

    def end(self, track):
        st = self.live.pop(track, None)
        if st is not None and st.identity is not None:
            self.remember(st.identity, st.gallery, st.last_consistent)

    def end_all(self, t, start):
        for track in sorted(self.live):
            if start is not None:
                self.live[track].gallery.remove_since(start)
            self.end(track)
        if start is not None and t is not None:
            self.quiet = t + max(0, t - start)

    def remember(self, identity, gallery, last_seen):
        if gallery.samples:
            self.ended.append(dict(identity=identity, gallery=gallery, last_seen=last_seen))

    def evidence(self, st, excluded):
        """ReidentificationIndex.evidence: the gallery a continuation is judged on, and whether it is
        poor evidence (judged at POOR_THRESHOLD)."""
        if len(st.gallery.samples) >= DECISION_SAMPLES:
            return st.gallery, False
        if excluded is not None or not st.poor.samples or len(st.gallery.samples) + len(st.poor.samples) < POOR_SAMPLES:
            return None, False
        g = Gallery()
        g.merge(st.gallery)
        g.merge(st.poor)
        return g, True

    def decide(self, track, st, excluded, t, kind):
        candidates = []  # (distance, identity, gallery, index in ended or None, live track or None)
        evidence, poor = self.evidence(st, excluded)
        threshold = POOR_THRESHOLD if poor else THRESHOLD
        if evidence is not None:
            for i, c in enumerate(self.ended):
                if c["identity"] != excluded and c["last_seen"] < st.first_seen:
                    d = evidence.to_gallery(c["gallery"])
                    if d is not None:
                        candidates.append((d, c["identity"], c["gallery"], i, None))
            for other, c in self.live.items():
                if other != track and c.identity is not None and c.identity != excluded \
                        and c.last_seen < st.first_seen - LOST_FOR:
                    d = evidence.to_gallery(c.gallery)
                    if d is not None:
                        candidates.append((d, c.identity, c.gallery, None, other))
        candidates.sort(key=lambda c: (c[0], c[1]))
        best = candidates[0] if candidates else None
        runner = None
        for c in candidates[1:]:
            if c[1] == best[1]:
                continue
            apart = best[2].to_gallery(c[2])
            if apart is None or apart >= THRESHOLD:
                runner = c
                break
        lead = None if runner is None else runner[0] - best[0]
        clear = best is not None and ((best[0] < threshold and (lead is None or lead >= MARGIN))
                                      or (not poor and best[0] < threshold + WIDE_REACH and lead is not None and lead >= WIDE_MARGIN))
        if self.rule is not None and best is not None:
            clear = bool(self.rule(float(best[0]), runner and float(runner[0])))
        if clear and best[3] is not None:
            self.ended.pop(best[3])
            identity = best[1]
        elif clear and best[4] is not None:
            self.live.pop(best[4])
            identity = best[1]
        else:
            identity, self.next = self.next, self.next + 1
        self.log.append(dict(track=track, t=t, kind=kind, identity=identity, linked=clear,
                             gallery=(evidence or st.gallery).copy(), first_seen=st.first_seen,
                             candidates=[(float(c[0]), c[1], c[2].copy()) for c in candidates],
                             runner=runner and float(runner[0])))
        if clear:
            st.gallery.merge(best[2])
            if best[0] >= threshold:
                st.far_from = np.float32(threshold + WIDE_REACH)
        st.identity = identity
        self.live[track] = st
        return dict(identity=identity)


class Ledger:
    """IdentityLedger: which identity each tracker serial carries from when."""

    def __init__(self, rule=None):
        self.index, self.ids, self.frame = Index(rule), {}, 0

    def identity(self, serial, t, published_at):
        segments = self.ids.get(serial)
        if not segments:
            return None
        for since, identity, at in reversed(segments):
            if since <= t and at <= published_at:
                return identity
        return segments[0][1]

    def apply(self, e):
        self.frame, kind, serial = e["frame"], e["kind"], e.get("serial")
        if kind == "o":
            sample = Sample(np.array(e["embedding"], dtype=np.float32), e["quality"], e["time"], e["frame"], serial) \
                if e.get("embedding") else None
            decision = self.index.observe(serial, sample, e["time"])
            if decision is not None and serial in self.ids:
                self.ids[serial].append((decision.get("since", e["time"]), decision["identity"], self.frame))
        elif kind == "d" and serial not in self.ids:
            self.ids[serial] = [(-math.inf, self.index.confirm(serial, e["time"])["identity"], self.frame)]
        elif kind == "e":
            self.index.end(serial)
        elif kind == "x":
            self.index.end_all(e["time"], e.get("transition"))


class Run:
    """One dumped video: its record replayed, its rows, and the truth when there is one."""

    def __init__(self, folder, name, rule=None, quality=None):
        self.name = name
        base = os.path.join(folder, name + ".plan.part-000")
        self.record = json.load(open(base + ".json"))
        self.rows = list(csv.DictReader(open(base + ".csv")))
        truth = os.path.join(folder, name + ".truth.json")
        self.truth = json.load(open(truth)) if os.path.exists(truth) else None
        runs = collections.defaultdict(list)
        for r in self.record["identity_runs"]:
            runs[r["id"]].append(r)
        placed = []  # (row, run)
        self.box = {}  # (serial, frame) -> the written row
        for row in self.rows:
            if not row["track_id"]:
                continue
            f, i = int(row["frame"]), int(row["track_id"])
            run = next((r for r in runs[i] if r["first"] <= f <= r["last"]), None)
            if run is not None:
                placed.append((row, run))
                self.box[(run["serial"], f)] = row
        self.ledger = Ledger(rule)
        for e in self.record["identity_events"]:
            if quality is not None and e["kind"] == "o" and e.get("embedding"):
                e = dict(e, quality=quality(e["quality"], self.clipped(e["serial"], e["frame"])))
            self.ledger.apply(e)
        self.replayed = [(row, run["serial"], self.ledger.identity(run["serial"], float(row["time"]), int(row["frame"]) + run["lag"]))
                         for row, run in placed]

    def look(self, frame):
        """The look of the truth's shot on `frame` (normal, shrunk, zoomed, letterbox, pillarbox)."""
        shots = self.truth.get("shots") if self.truth else None
        if not shots:
            return "normal"
        k = sum(1 for b in self.truth["boundaries"] if b["first"] <= frame)
        return shots[min(k, len(shots) - 1)].get("look", "normal")

    def clipped(self, serial, frame):
        """Whether dlib's chip of the face of `serial` on `frame` reaches past the picture's edge or into a
        black bar (the bench's letterbox bars end at y 44 and 316, its pillarbox bars at x 80 and 560):
        the chip spans 0.89 eye distances above the eyes, 1.94 below and 1.41 to each side of their
        middle (FaceChip's template), so a face cut at the top is clipped even when the detector's box
        stops at the picture's edge."""
        row = self.box.get((serial, frame))
        if row is None or not row["left_eye_x"]:
            return False
        lx, ly, rx, ry = (float(row[k]) for k in ("left_eye_x", "left_eye_y", "right_eye_x", "right_eye_y"))
        eyes = math.hypot(rx - lx, ry - ly)
        mx, my = (lx + rx) / 2, (ly + ry) / 2
        left, top, right, bottom = {"letterbox": (0, 44, 640, 316), "pillarbox": (80, 0, 560, 360)}.get(
            self.look(frame), (0, 0, 640, 360))
        return my - 0.89 * eyes < top or my + 1.94 * eyes > bottom or mx - 1.41 * eyes < left or mx + 1.41 * eyes > right

    def person(self, frame):
        if not self.truth:
            return None
        persons = self.truth["persons"]
        return persons[min(frame, len(persons) - 1)]

    def gallery_person(self, gallery):
        """The truth's person on most of the gallery's sample frames, and the share of them."""
        counts = collections.Counter(self.person(s.frame) for s in gallery.samples)
        if not counts:
            return None, 0.0
        p, n = counts.most_common(1)[0]
        return p, n / len(gallery.samples)


def names_in(folder):
    return sorted(os.path.basename(p)[:-len(".plan.part-000.json")] for p in glob.glob(os.path.join(folder, "*.plan.part-000.json")))


def dump(args):
    os.makedirs(args.out, exist_ok=True)
    for video in args.videos:
        name = os.path.splitext(os.path.basename(video))[0]
        plan = os.path.join(args.out, name + ".plan.jsonl")
        if os.path.exists(os.path.join(args.out, name + ".plan.part-000.json")) and not args.force:
            continue
        subprocess.run([args.facetrack, "split-plan", video, "--segments", "1", "-o", plan, "-q"], check=True)
        subprocess.run([args.facetrack, "process", video, "--segment", "0", "--plan", plan,
                        "--csv", os.path.join(args.out, name + ".csv"), "--quiet"], check=True)
        truth = os.path.splitext(video)[0] + ".truth.json"
        if os.path.exists(truth):
            with open(truth) as f, open(os.path.join(args.out, name + ".truth.json"), "w") as g:
                g.write(f.read())
        print("dumped", name)


def check(args):
    bad = 0
    for name in names_in(args.folder):
        run = Run(args.folder, name)
        differ = sum(1 for row, _, i in run.replayed if str(i) != row["track_id"])
        if differ:
            bad += 1
            print("%s: %d rows get another ID in the replay" % (name, differ))
    print("replayed %d records, %d differ" % (len(names_in(args.folder)), bad))
    return 1 if bad else 0


def show(args):
    for name in args.names or names_in(args.folder):
        run = Run(args.folder, name)
        print("==", name)
        for d in run.ledger.index.log:
            who, share = run.gallery_person(d["gallery"])
            cands = " ".join("%d(%s):%.3f" % (i, run.gallery_person(g)[0], dd) for dd, i, g in d["candidates"][:4])
            verdict = ""
            if d["candidates"] and who is not None:
                best_person = run.gallery_person(d["candidates"][0][2])[0]
                verdict = ("linked, right" if best_person == who else "linked, WRONG") if d["linked"] else \
                    ("new, MISSED its own" if best_person == who else "new, right")
            print("  t=%6.2f %-7s track %3d (%s %.0f%%) samples %d q[%s] -> %d  %s | %s" % (
                d["t"], d["kind"], d["track"], who, 100 * share, len(d["gallery"].samples),
                " ".join("%.2f" % s.q for s in d["gallery"].samples), d["identity"], verdict, cands))


def near(args):
    positives, negatives = [], []
    for name in names_in(args.folder):
        run = Run(args.folder, name)
        if not run.truth:
            continue
        for d in run.ledger.index.log:
            who, share = run.gallery_person(d["gallery"])
            if len(d["gallery"].samples) < 2 or not d["candidates"] or share < 0.75:
                continue
            cands = [(dd, i, g, run.gallery_person(g)[0]) for dd, i, g in d["candidates"]]

            def best_runner(cs):
                best = cs[0]
                for c in cs[1:]:
                    apart = best[2].to_gallery(c[2])
                    if apart is None or apart >= THRESHOLD:
                        return best, c
                return best, None

            if any(c[3] == who for c in cands):
                best, runner = best_runner(cands)
                if best[3] == who:
                    positives.append((name, d["t"], who, best[0], runner and runner[0]))
                # The same decision for a face never seen before: its own identities left out.
                cands = [c for c in cands if c[3] != who]
                if not cands:
                    continue
            best, runner = best_runner(cands)
            negatives.append((name, d["t"], who, best[0], best[3], runner and runner[0]))
    print("the same person's best candidate, %d decisions; at 0.35 and more (distance, runner-up, margin):" % len(positives))
    for name, t, who, d, r in sorted(positives, key=lambda x: x[3]):
        if d >= 0.35:
            print("  %-14s t=%6.2f %-10s %.3f  %s  %s" % (name, t, who, d, "%.3f" % r if r else "-", "%.3f" % (r - d) if r else "-"))
    print("a new face's best candidate (another person), %d decisions; under 0.56:" % len(negatives))
    for name, t, who, d, other, r in sorted(negatives, key=lambda x: x[3]):
        if d < 0.56:
            print("  %-14s t=%6.2f %-10s %.3f (%s)  %s  %s" % (name, t, who, d, other, "%.3f" % r if r else "-", "%.3f" % (r - d) if r else "-"))
    for label, values in (("same person", [p[3] for p in positives]), ("new face", [n[3] for n in negatives])):
        if values:
            v = np.array(values)
            print("%-12s n=%d min %.3f p1 %.3f p50 %.3f p99 %.3f max %.3f" % (label, len(v), v.min(), *np.percentile(v, [1, 50, 99]), v.max()))


RULES = {
    "today: < 0.40, margin 0.05, or < 0.45 with a runner-up 0.11 farther": None,
    "< 0.40, margin 0.05 (before the wide tier)": lambda d, r: d < 0.40 and (r is None or r - d >= 0.05),
    "< 0.45, margin 0.08": lambda d, r: d < 0.45 and (r is None or r - d >= 0.08),
    "< 0.48, margin 0.08": lambda d, r: d < 0.48 and (r is None or r - d >= 0.08),
    "today, or < 0.47 with a runner-up 0.2 farther": lambda d, r: (d < 0.40 and (r is None or r - d >= 0.08))
    or (d < 0.47 and r is not None and r - d >= 0.2),
}


QUALITIES = {
    "clipped samples do not vote": lambda q, clipped: 0.0 if clipped else q,
    "clipped samples' quality x 0.3": lambda q, clipped: q * 0.3 if clipped else q,
}


def rules(args):
    """IDF1 and IDs per sequence when the continuation rule is another (replayed on the same samples)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import identity_corpus
    names = [n for n in names_in(args.folder) if os.path.exists(os.path.join(args.folder, n + ".truth.json"))]
    base = None
    variants = [(label, rule, None) for label, rule in RULES.items()] + [(label, None, q) for label, q in QUALITIES.items()]
    for label, rule, quality in variants:
        scores = []
        for name in names:
            run = Run(args.folder, name, rule, quality)
            rows = [dict(frame=int(row["frame"]), id=i, shot=None) for row, _, i in run.replayed]
            scores.append(identity_corpus.identity_scores(run.truth["persons"], rows))
        base = base or scores
        changed = ["%s %.3f %d/%d -> %.3f %d/%d" % (n, b["idf1"], b["ids"], b["people"], s["idf1"], s["ids"], s["people"])
                   for n, b, s in zip(names, base, scores) if abs(b["idf1"] - s["idf1"]) > 1e-9 or b["ids"] != s["ids"]]
        print("%-48s mean IDF1 %.3f  %s" % (label, sum(s["idf1"] for s in scores) / len(scores), "; ".join(changed)))


def samples(args):
    """Each embedded sample's distance to its person's reference (the mean of the bench's whole-clip
    embeddings of quality 0.1 and more), by the shot's look, by whether the box is clipped, by quality."""
    reference = collections.defaultdict(list)
    for line in open(args.embeddings):
        v = line.rstrip("\n").split("\t")
        if float(v[2]) >= 0.1:
            reference[v[0].split("-")[0]].append(np.array([float(x) for x in v[3:]], dtype=np.float32))
    reference = {p: np.mean(v, 0) for p, v in reference.items()}
    out = []
    for name in names_in(args.folder):
        run = Run(args.folder, name)
        if not run.truth or "boundaries" not in run.truth:
            continue
        transition = {f for b in run.truth["boundaries"] for f in range(b["first"] - 1, b["last"] + 2)}
        for e in run.record["identity_events"]:
            if e["kind"] != "o" or not e.get("embedding") or e["frame"] in transition:
                continue
            person = run.person(e["frame"])
            if person not in reference or (e["serial"], e["frame"]) not in run.box:
                continue
            emb = np.array(e["embedding"], dtype=np.float32)
            others = [float(np.linalg.norm(emb - v)) for p, v in reference.items()
                      if p != person and int(p[1:]) % 2 == int(person[1:]) % 2]
            out.append((run.look(e["frame"]), run.clipped(e["serial"], e["frame"]), e["quality"],
                        float(np.linalg.norm(emb - reference[person])), min(others)))

    def line(label, sel):
        if sel:
            own, other = np.array([x[3] for x in sel]), np.array([x[4] for x in sel])
            print("  %-26s n=%4d  own person: p50 %.3f p90 %.3f max %.3f | nearest other: p10 %.3f min %.3f | nearer another: %d" % (
                label, len(sel), np.median(own), np.percentile(own, 90), own.max(), np.percentile(other, 10), other.min(),
                int((other < own).sum())))
    print("distance of each sample to its person's whole-clip reference (transition frames left out):")
    for look in ("normal", "zoomed", "letterbox", "pillarbox", "shrunk"):
        for clipped in (False, True):
            line("%s, %s" % (look, "chip clipped" if clipped else "inside"), [x for x in out if x[0] == look and x[1] == clipped])
    for low, high in ((0.03, 0.1), (0.1, 0.2), (0.2, 0.4), (0.4, 1.01)):
        line("quality %.2f to %.2f" % (low, high), [x for x in out if low <= x[2] < high])


def measures(args):
    """Other ways to compare two galleries than their centroids' distance, over every candidate of
    every decision in the folders: the largest value of the same person, the smallest of two people,
    and the fewest pairs on the wrong side of any one threshold."""
    def compare(g1, g2):
        a, b = np.array([s.emb for s in g1.samples]), np.array([s.emb for s in g2.samples])
        pairs = np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(-1))
        wa, wb = np.array([s.q for s in g1.samples]), np.array([s.q for s in g2.samples])
        ca, cb = a.mean(0), b.mean(0)
        spread = np.mean(np.linalg.norm(a - ca, axis=1)) + np.mean(np.linalg.norm(b - cb, axis=1))
        return {"centroids": float(np.linalg.norm(ca - cb)),
                "quality-weighted centroids": float(np.linalg.norm((a * wa[:, None]).sum(0) / wa.sum() - (b * wb[:, None]).sum(0) / wb.sum())),
                "cosine distance of centroids": float(1 - ca @ cb / np.linalg.norm(ca) / np.linalg.norm(cb)),
                "nearest pair of samples": float(pairs.min()), "median pair": float(np.median(pairs)),
                "mean pair": float(pairs.mean()), "mean nearest sample": float((pairs.min(1).mean() + pairs.min(0).mean()) / 2),
                "centroids / spreads": float(np.linalg.norm(ca - cb) / spread)}
    values = []  # (measures, same person)
    for folder in args.folders:
        for name in names_in(folder):
            run = Run(folder, name)
            if not run.truth:
                continue
            for d in run.ledger.index.log:
                who, share = run.gallery_person(d["gallery"])
                if len(d["gallery"].samples) < 2 or share < 0.75:
                    continue
                for _, _, g in d["candidates"]:
                    values.append((compare(d["gallery"], g), run.gallery_person(g)[0] == who))
    print("%d candidate pairs of one person, %d of two" % (sum(1 for _, same in values if same), sum(1 for _, same in values if not same)))
    for key in values[0][0]:
        same = sorted(m[key] for m, s in values if s)
        other = sorted(m[key] for m, s in values if not s)
        wrong, at = min((sum(v >= t for v in same) + sum(v < t for v in other), t) for t in same + other)
        print("  %-28s one person: top %s | two people: bottom %s | fewest wrong %d (at %.4f)" % (
            key, " ".join("%.4f" % v for v in same[-4:]), " ".join("%.4f" % v for v in other[:3]), wrong, at))


def sequences(args):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import identity_corpus
    os.makedirs(args.out, exist_ok=True)
    for seed in (int(x) for x in args.seeds.split(",")):
        for sequence in identity_corpus.plan(args.corpus, args.half, seed):
            if sequence.name == "long":
                sequence.name = "xlong-%d" % seed
                sequence.render(args.out)
                print("built", sequence.name)


def halves(args):
    """Each clip cut in halves; the halves joined by hard cuts on a 640x360 grey canvas, truth per frame."""
    clips = sorted(glob.glob(os.path.join(args.clips, "*.mp4")))
    os.makedirs(args.out, exist_ok=True)

    def duration(clip):
        out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", clip],
                             capture_output=True, text=True, check=True).stdout
        return float(out)

    half = {c: duration(c) / 2 for c in clips}
    a, b = [(c, 0) for c in clips], [(c, 1) for c in clips]
    orders = {"halves-abcd": a + b}
    if len(clips) == 4:
        orders["halves-abacbdcd"] = [a[0], a[1], b[0], a[2], b[1], a[3], b[2], b[3]]
    looks = {"": "scale=360:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2:color=0x6a6a6a",
             "-shrunk": "scale=162:162:force_original_aspect_ratio=decrease,pad=640:360:{x}:{y}:color=0x6a6a6a"}
    for name, order in orders.items():
        for suffix, look in looks.items():
            inputs, filters, persons = [], [], []
            for k, (clip, which) in enumerate(order):
                inputs += ["-ss", "%.3f" % (which * half[clip]), "-t", "%.3f" % half[clip], "-i", clip]
                filters.append("[%d:v]fps=25,%s,setsar=1,trim=duration=%.3f,setpts=PTS-STARTPTS[v%d]" % (
                    k, look.format(x=100 + 40 * k, y=60 + 10 * k), half[clip], k))
                persons += [os.path.splitext(os.path.basename(clip))[0]] * int(round(half[clip] * 25))
            filters.append("".join("[v%d]" % k for k in range(len(order))) + "concat=n=%d:v=1:a=0[out]" % len(order))
            video = os.path.join(args.out, name + suffix + ".mp4")
            subprocess.run(["ffmpeg", "-v", "error", "-y"] + inputs + ["-filter_complex", ";".join(filters), "-map", "[out]",
                            "-c:v", "libx264", "-crf", "18", "-pix_fmt", "yuv420p", video], check=True)
            with open(os.path.splitext(video)[0] + ".truth.json", "w") as f:
                json.dump(dict(name=name + suffix, persons=persons), f)
            print("built", name + suffix)


def simulate(args):
    import random
    by = collections.defaultdict(list)
    for line in open(args.embeddings):
        v = line.rstrip("\n").split("\t")
        person = v[0].split("-")[0]
        if (int(person[1:]) % 2 == 1) == (args.half == "tune") and float(v[2]) >= MINIMUM_QUALITY:
            by[person].append(np.array([float(x) for x in v[3:]], dtype=np.float32))
    people = [p for p in sorted(by) if len(by[p]) >= 8]
    rng = random.Random(1)

    def stretch(p, n):
        i = rng.randrange(0, len(by[p]) - n + 1)
        return np.mean(by[p][i:i + n], 0)

    rules = {"today (< 0.40, margin 0.08)": lambda d, r: d < 0.40 and (r is None or r - d >= 0.08),
             "< 0.45, margin 0.08": lambda d, r: d < 0.45 and (r is None or r - d >= 0.08),
             "today, or < 0.47 with a runner-up 0.2 farther": lambda d, r: (d < 0.40 and (r is None or r - d >= 0.08))
             or (d < 0.47 and r is not None and r - d >= 0.2)}
    merges, trials = collections.Counter(), 0
    for _ in range(args.trials):
        x = rng.choice(people)
        others = rng.sample([p for p in people if p != x], rng.randint(1, min(10, len(people) - 1)))
        g = stretch(x, rng.randint(2, 7))
        ds = sorted(float(np.linalg.norm(g - stretch(o, 8))) for o in others)
        trials += 1
        for label, rule in rules.items():
            merges[label] += rule(ds[0], ds[1] if len(ds) > 1 else None)
    print("%s half, %d people, %d new faces each against 1 to 10 others:" % (args.half, len(people), trials))
    for label in rules:
        print("  %-48s %d merged (%.2f per 1000)" % (label, merges[label], 1000 * merges[label] / trials))
    # One stretch against another stretch of the same person and of someone else, by two measures.
    same, other = [], []
    for _ in range(args.trials):
        x = rng.choice(people)
        y = rng.choice([p for p in people if p != x])
        a, b, c = stretch(x, rng.randint(2, 7)), stretch(x, 8), stretch(y, 8)
        for pair, into in (((a, b), same), ((a, c), other)):
            u, v = pair
            into.append((float(np.linalg.norm(u - v)), float(1 - u @ v / np.linalg.norm(u) / np.linalg.norm(v))))
    for k, label in enumerate(("centroids' distance", "cosine distance")):
        s, o = np.array([x[k] for x in same]), np.array([x[k] for x in other])
        print("  %-20s one person: p99 %.4f max %.4f | two people: min %.4f p1 %.4f | gap %+.1f %%" % (
            label, np.percentile(s, 99), s.max(), o.min(), np.percentile(o, 1), 100 * (o.min() - s.max()) / s.max()))


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the listing quietly
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--facetrack", required=True)
    d.add_argument("--out", required=True)
    d.add_argument("--force", action="store_true")
    d.add_argument("videos", nargs="+")
    q = sub.add_parser("sequences")
    q.add_argument("--corpus", required=True)
    q.add_argument("--half", choices=["tune", "report"], required=True)
    q.add_argument("--seeds", required=True)
    q.add_argument("--out", required=True)
    h = sub.add_parser("halves")
    h.add_argument("--clips", required=True)
    h.add_argument("--out", required=True)
    m = sub.add_parser("simulate")
    m.add_argument("--embeddings", required=True)
    m.add_argument("--half", choices=["tune", "report"], default="tune")
    m.add_argument("--trials", type=int, default=20000)
    c = sub.add_parser("measures")
    c.add_argument("folders", nargs="+")
    e = sub.add_parser("samples")
    e.add_argument("folder")
    e.add_argument("--embeddings", required=True)
    for command in ("check", "show", "near", "rules"):
        s = sub.add_parser(command)
        s.add_argument("folder")
        s.add_argument("names", nargs="*")
    args = p.parse_args()
    sys.exit({"dump": dump, "check": check, "show": show, "near": near, "sequences": sequences,
              "halves": halves, "simulate": simulate, "rules": rules,
              "samples": samples, "measures": measures}[args.command](args) or 0)


if __name__ == "__main__":
    main()
