"""paddle_on_torch's build.

Layout (the design card's top level): paddle_on_torch/ (Paddle's namespaces), kernels/ and parallel/ (installed
as paddle_on_torch.kernels / paddle_on_torch.parallel: PyPI has packages named `kernels` and `parallel`), ext/ (the
C++ sources, built into paddle_on_torch.kernels._C and shipped as package data for the JIT fallback).

The C++ extension is built here when torch is importable in the build environment (`pip install
--no-build-isolation`, as the README does) and a compiler works; otherwise the package installs without it and
kernels/cpp.py builds the same sources on first use.
"""
import importlib.util
import os

from setuptools import find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def _cpp_extension():
    """([the CppExtension], {"build_ext": ...}), or ([], {}) when torch or a compiler is missing here."""
    try:
        from torch.utils.cpp_extension import BuildExtension, CppExtension
    except ImportError:  # torch is not in the build environment: build on first use instead
        return [], {}
    if os.environ.get("PADDLE_ON_TORCH_NO_BUILD"):
        return [], {}
    spec = importlib.util.spec_from_file_location("_pot_cpp", os.path.join(HERE, "kernels", "cpp.py"))
    cpp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cpp)
    srcs = [os.path.relpath(p, HERE) for p in cpp.sources(os.path.join(HERE, "ext"))]
    ext = CppExtension("paddle_on_torch.kernels._C", srcs, include_dirs=[os.path.join(HERE, "ext")],
                       extra_compile_args=cpp.compile_flags(), extra_link_args=cpp.LINK_FLAGS)
    base = BuildExtension.with_options(use_ninja=True)

    class BuildWithInfo(base):
        """Also writes what the extension was built from beside it (kernels/cpp.py: BUILD_INFO), so that the loader
        passes over a build the sources have moved past without importing it.  Sources edited during the build
        make it a mix of two versions: then no info is written (the loader takes the JIT build instead)."""

        def build_extension(self, e):
            import json

            import torch

            before = cpp.source_hash(os.path.join(HERE, "ext"))
            info_path = os.path.join(os.path.dirname(self.get_ext_fullpath(e.name)), cpp.BUILD_INFO)
            stale = os.path.join(HERE, "kernels", cpp.BUILD_INFO)
            for path in (info_path, stale):  # until this build is done, whatever is there is not described by it
                if os.path.exists(path):
                    os.remove(path)
            super().build_extension(e)
            if cpp.source_hash(os.path.join(HERE, "ext")) != before:
                print("paddle_on_torch: ext/ changed during the build; kernels/_C.json not written", flush=True)
                return
            info = {"source_hash": before, "capability": cpp.capability(), "torch": torch.__version__.split("+")[0]}
            with open(info_path, "w") as f:
                json.dump(info, f)

        def copy_extensions_to_source(self):
            """An in-place or editable build compiles into build_lib and copies the extension alone into the source
            tree: the info goes with it."""
            import shutil

            super().copy_extensions_to_source()
            build_py = self.get_finalized_command("build_py")
            for e in self.extensions:
                package = ".".join(e.name.split(".")[:-1])
                built = os.path.join(self.build_lib, *package.split("."), cpp.BUILD_INFO)
                src = build_py.get_package_dir(package)
                if os.path.exists(built):
                    shutil.copyfile(built, os.path.join(src if os.path.isabs(src) else os.path.join(HERE, src),
                                                        cpp.BUILD_INFO))

    return [ext], {"build_ext": BuildWithInfo}


ext_modules, cmdclass = _cpp_extension()

setup(
    name="paddle_on_torch",
    version="0.1.0",
    description="Run PaddlePaddle 3.x programs unchanged on PyTorch",
    packages=find_packages(include=["paddle_on_torch", "paddle_on_torch.*"])
    + ["paddle_on_torch.kernels", "paddle_on_torch.parallel", "paddle_on_torch.ext"],
    package_dir={"paddle_on_torch.kernels": "kernels", "paddle_on_torch.parallel": "parallel",
                 "paddle_on_torch.ext": "ext"},
    package_data={"paddle_on_torch": ["*.json", "include/paddle/**/*.h", "include/paddle_on_torch/*.cc"],
                  "paddle_on_torch.kernels": ["_C.json"],
                  "paddle_on_torch.ext": ["*.cpp", "*.h"]},
    ext_modules=ext_modules,
    cmdclass=cmdclass,
    python_requires=">=3.10",
    install_requires=["torch>=2.6,<2.15", "numpy>=1.24", "safetensors>=0.4", "pillow>=9"],
    extras_require={
        "kernels": ["ninja>=1.11", "triton>=3.0"],
        "test": ["pytest>=8", "hypothesis>=6"],
        "accelerate": ["accelerate>=1.0"],
        # paddle.onnx.export on torch.onnx's dynamo exporter, and ONNX Runtime to run what it writes
        "onnx": ["onnx>=1.18", "onnxscript>=0.5", "onnxruntime>=1.20"],
        # (no torch-xla extra: its wheels pin their own torch; tools/xla_lane.sh builds that environment)
    },
    entry_points={"console_scripts": ["paddle-on-torch=paddle_on_torch.cli:main"]},
)
