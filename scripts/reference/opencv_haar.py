#!/usr/bin/env python3
"""Reference boxes from OpenCV's CascadeClassifier.detectMultiScale, for comparing with FaceTrack's
pure-Swift cascade detector.

Each image is read with OpenCV (JPEG/PNG decoded to BGR then cvtColor BGR2GRAY, or a PGM read as
grey); with --pgm-dir the grey image is also written there as binary PGM so the Swift side reads the
very same pixels. Output CSV (stdout or --out): image,x,y,w,h,neighbors (neighbors from
detectMultiScale2; with --min-neighbors 0 every raw window is listed with 1).

Needs: pip install 'opencv-python-headless<5' (OpenCV 5 moved CascadeClassifier out of the main
package).
"""
import argparse
import os
import sys

import cv2


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("images", nargs="+")
    ap.add_argument("--cascade", default="/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
    ap.add_argument("--scale-factor", type=float, default=1.1)
    ap.add_argument("--min-neighbors", type=int, default=3)
    ap.add_argument("--min-size", type=int, default=0)
    ap.add_argument("--threads", type=int, default=-1, help="cv2.setNumThreads (default: OpenCV's own)")
    ap.add_argument("--pgm-dir", help="also write each grey image here as NAME.pgm")
    ap.add_argument("--out", help="CSV file (default stdout)")
    args = ap.parse_args()

    if not hasattr(cv2, "CascadeClassifier"):
        sys.exit("opencv_haar.py: this cv2 has no CascadeClassifier; pip install 'opencv-python-headless<5'")
    if args.threads >= 0:
        cv2.setNumThreads(args.threads)
    cascade = cv2.CascadeClassifier(args.cascade)
    if cascade.empty():
        sys.exit(f"opencv_haar.py: cannot load cascade {args.cascade}")

    out = open(args.out, "w") if args.out else sys.stdout
    out.write("image,x,y,w,h,neighbors\n")
    for path in args.images:
        if path.lower().endswith(".pgm"):
            gray = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        else:
            color = cv2.imread(path, cv2.IMREAD_COLOR)
            gray = None if color is None else cv2.cvtColor(color, cv2.COLOR_BGR2GRAY)
        if gray is None:
            sys.exit(f"opencv_haar.py: cannot read {path}")
        name = os.path.splitext(os.path.basename(path))[0]
        if args.pgm_dir:
            os.makedirs(args.pgm_dir, exist_ok=True)
            cv2.imwrite(os.path.join(args.pgm_dir, name + ".pgm"), gray)
        size = (args.min_size, args.min_size)
        boxes, counts = cascade.detectMultiScale2(gray, scaleFactor=args.scale_factor,
                                                  minNeighbors=args.min_neighbors, minSize=size)
        counts = list(counts) if len(boxes) else []
        for (x, y, w, h), n in zip(boxes, counts):
            out.write(f"{name},{x},{y},{w},{h},{int(n)}\n")
    if args.out:
        out.close()


if __name__ == "__main__":
    main()
