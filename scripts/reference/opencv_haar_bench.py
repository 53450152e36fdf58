#!/usr/bin/env python3
"""Times OpenCV's CascadeClassifier.detectMultiScale on grey frames with cv2.setNumThreads(1) and
with OpenCV's default thread count; one line per frame and setting:
  opencv <width>x<height> threads=<1|default> ms=<ms per frame> faces=<count>
Needs: pip install 'opencv-python-headless<5'."""
import argparse
import time

import cv2


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("frames", nargs="+")
    ap.add_argument("--cascade", default="/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
    ap.add_argument("--scale-factor", type=float, default=1.1)
    ap.add_argument("--min-neighbors", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    default_threads = cv2.getNumThreads()
    cascade = cv2.CascadeClassifier(args.cascade)
    if cascade.empty():
        raise SystemExit(f"opencv_haar_bench.py: cannot load {args.cascade}")
    for path in args.frames:
        gray = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        for threads, label in ((1, "1"), (default_threads, "default")):
            cv2.setNumThreads(threads)
            faces = cascade.detectMultiScale(gray, args.scale_factor, args.min_neighbors)
            runs, start = 0, time.perf_counter()
            while time.perf_counter() - start < args.seconds / 2 or runs < 3:
                faces = cascade.detectMultiScale(gray, args.scale_factor, args.min_neighbors)
                runs += 1
            ms = (time.perf_counter() - start) * 1000 / runs
            if label == "default":
                label = f"default({threads})"
            print(f"opencv {gray.shape[1]}x{gray.shape[0]} threads={label} ms={ms:.2f} faces={len(faces)}")


if __name__ == "__main__":
    main()
