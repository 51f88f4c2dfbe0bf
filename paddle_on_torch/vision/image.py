"""paddle.vision.set_image_backend / get_image_backend / image_load."""
_BACKENDS = ["pil", "cv2", "tensor"]
_image_backend = "pil"

__all__ = []


def set_image_backend(backend):
    """Choose how the vision datasets load images: 'pil' (default), 'cv2' or 'tensor'."""
    global _image_backend
    if backend not in _BACKENDS:
        raise ValueError(f"Expected backend are one of ['pil', 'cv2', 'tensor'], but got {backend}")
    _image_backend = backend


def get_image_backend():
    return _image_backend


def image_load(path, backend=None):
    """Load the image at `path`: a PIL image ('pil') or a BGR numpy array ('cv2')."""
    if backend is None:
        backend = _image_backend
    if backend not in _BACKENDS:
        raise ValueError(f"Expected backend are one of ['pil', 'cv2', 'tensor'], but got {backend}")
    if backend == "pil":
        from PIL import Image

        return Image.open(path)
    if backend == "cv2":
        try:
            import cv2
        except ImportError as e:
            raise ImportError("Failed importing cv2. This likely means that some paddle modules require "
                              "additional dependencies that have to be manually installed (usually with "
                              "`pip install opencv-python`).") from e
        return cv2.imread(path)
    return None  # Paddle's image_load returns nothing for the 'tensor' backend
