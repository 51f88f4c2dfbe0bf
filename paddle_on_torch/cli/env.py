"""`paddle-on-torch env`: what paddle_on_torch runs on here (versions, devices, build tools)."""
import importlib.util
import json
import platform
import shutil
import subprocess
import sys


def add_parser(sub):
    p = sub.add_parser("env", help="print versions of Python, torch and paddle_on_torch, the devices, and "
                                   "whether a C++ compiler, ninja and triton are available")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _compiler():
    for name in ("c++", "g++", "clang++"):
        path = shutil.which(name)
        if path:
            try:
                out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10).stdout
                return {"path": path, "version": out.splitlines()[0] if out else ""}
            except (OSError, subprocess.SubprocessError):
                return {"path": path, "version": ""}
    return None


def _ninja():
    path = shutil.which("ninja")
    if path:
        try:
            v = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            v = ""
        return {"path": path, "version": v}
    return None


def _triton():
    if importlib.util.find_spec("triton") is None:
        return None
    try:
        import triton

        return triton.__version__
    except Exception as e:  # noqa: BLE001 - installed but broken is worth reporting
        return f"installed but not importable ({type(e).__name__}: {e})"


def collect():
    import torch

    import paddle_on_torch
    from .._core import backends

    devices = []
    for b in backends.backends():
        available = b.is_available()
        entry = {"paddle": b.name, "torch": b.torch_type, "available": available,
                 "count": b.device_count() if available else 0}
        if available and b.name == "gpu":
            entry["names"] = [torch.cuda.get_device_name(i) for i in range(entry["count"])]
        devices.append(entry)
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})",
        "platform": platform.platform(),
        "paddle_on_torch": paddle_on_torch.__shim_version__,
        "paddle_api": paddle_on_torch.__version__,
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "torch_hip": torch.version.hip,
        "cudnn": paddle_on_torch.device.get_cudnn_version(),
        "current_device": paddle_on_torch.device.get_device(),
        "devices": devices,
        "cxx_compiler": _compiler(),
        "ninja": _ninja(),
        "triton": _triton(),
        "real_paddle_installed": importlib.util.find_spec("paddle") is not None
        and "paddle_on_torch" not in (importlib.util.find_spec("paddle").origin or ""),
    }


def run(args):
    info = collect()
    if args.json:
        print(json.dumps(info, indent=1))
        return 0
    print(f"paddle_on_torch: {info['paddle_on_torch']} (Paddle {info['paddle_api']} API)")
    print(f"torch:           {info['torch']} (CUDA {info['torch_cuda'] or '-'}, HIP {info['torch_hip'] or '-'}, "
          f"cuDNN {info['cudnn'] or '-'})")
    print(f"Python:          {info['python']}")
    print(f"platform:        {info['platform']}")
    print(f"current device:  {info['current_device']}")
    print("devices:")
    for d in info["devices"]:
        state = f"{d['count']} available" if d["available"] else "not available"
        names = f" ({', '.join(d['names'])})" if d.get("names") else ""
        print(f"  {d['paddle']:<6} (torch '{d['torch']}'): {state}{names}")
    c = info["cxx_compiler"]
    print(f"C++ compiler:    {c['path'] + ' (' + c['version'] + ')' if c else 'not found'}")
    n = info["ninja"]
    print(f"ninja:           {n['path'] + ' ' + n['version'] if n else 'not found'}")
    print(f"triton:          {info['triton'] or 'not importable'}")
    print(f"real Paddle:     {'installed (import paddle outside the runner gives it)' if info['real_paddle_installed'] else 'not installed'}")
    return 0
