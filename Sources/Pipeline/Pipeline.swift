import FaceCore
