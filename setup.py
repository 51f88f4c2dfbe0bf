from setuptools import find_packages, setup

setup(
    name="paddle_on_torch",
    version="0.1.0",
    description="Run PaddlePaddle 3.x programs unchanged on PyTorch",
    packages=find_packages(include=["paddle_on_torch", "paddle_on_torch.*"]),
    package_data={"paddle_on_torch": ["_paddle_api.json"]},
    python_requires=">=3.10",
    install_requires=["torch>=2.6,<2.15", "numpy>=1.24", "safetensors>=0.4", "pillow>=9"],
    extras_require={
        "kernels": ["ninja>=1.11", "triton>=3.0"],
        "test": ["pytest>=8", "hypothesis>=6"],
        "accelerate": ["accelerate>=1.0"],
        "xla": ["torch-xla"],
    },
    entry_points={"console_scripts": ["paddle-on-torch=paddle_on_torch.cli:main"]},
)
