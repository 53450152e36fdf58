print("facetrack")
