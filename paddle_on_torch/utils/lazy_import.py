"""paddle.utils.try_import: import a module by name, or fail with a hint of what to pip install."""
import importlib

__all__ = ["try_import"]


def try_import(module_name, err_msg=None):
    install_name = "opencv-python" if module_name == "cv2" else module_name.split(".")[0]
    try:
        return importlib.import_module(module_name)
    except ImportError:
        if err_msg is None:
            err_msg = (f"Failed importing {module_name}. This likely means that some paddle modules require additional "
                       f"dependencies that have to be manually installed (usually with `pip install {install_name}`). ")
        raise ImportError(err_msg) from None
