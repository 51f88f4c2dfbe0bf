"""paddle.utils.require_version: fail early when the Paddle release (3.3.1, the one paddle_on_torch
follows) is outside [min_version, max_version]."""
import re

from .. import version

_FORMAT = re.compile(r"\d+(\.\d+){0,3}")


def _parts(v, arg):
    if _FORMAT.fullmatch(v) is None:
        raise ValueError(f"The value of '{arg}' in require_version must be in format '\\d+(\\.\\d+){{0,3}}', like "
                         f"'1.5.2.0', but received {v}")
    parts = [int(p) for p in v.split(".")]
    return parts + [0] * (4 - len(parts))


def require_version(min_version, max_version=None):
    if not isinstance(min_version, str):
        raise TypeError(f"The type of 'min_version' in require_version must be str, but received {type(min_version)}.")
    if not isinstance(max_version, (str, type(None))):
        raise TypeError("The type of 'max_version' in require_version must be str or type(None), but received "
                        f"{type(max_version)}.")
    low = _parts(min_version, "min_version")
    high = None if max_version is None else _parts(max_version, "max_version")
    installed = [int(p) for p in (version.major, version.minor, version.patch, version.rc)]
    if high is not None:
        if installed > high or installed < low:
            raise Exception(f"VersionError: PaddlePaddle version in [{min_version}, {max_version}] required, but "
                            f"{version.full_version} installed.")
    elif installed < low:
        raise Exception(f"VersionError: PaddlePaddle version {min_version} or higher is required, but "
                        f"{version.full_version} installed, please upgrade your PaddlePaddle to {min_version} or "
                        "other higher version.")
