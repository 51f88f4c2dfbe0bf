"""paddle.distributed.launch on torchrun's machinery (torch.distributed.run).

`python -m paddle_on_torch -m paddle.distributed.launch --devices=0,1,2,3 train.py args` starts
one process per device with torchrun's elastic agent, each running `train.py` under the shim
(`python -m paddle_on_torch train.py args`).  Paddle's options map onto torchrun's:

  --devices/--gpus/--xpus/--npus LIST  one process per listed device (nproc-per-node)
  --nproc_per_node N                   N processes (when no devices are listed)
  --nnodes N  or  MIN:MAX              --nnodes
  --master IP:PORT                     --master-addr / --master-port (static rendezvous)
  --rank R                             --node-rank
  --log_dir DIR (default "log")        Paddle's per-rank logs: DIR/workerlog.N holds local rank N's stdout
                                       and stderr, DIR/envlog.N its environment (appended to; overwritten
                                       with --log_overwrite=True); the console shows workerlog.0 as it
                                       grows, and a failed rank's last lines.  --log_dir="" sends every
                                       rank's output to the console instead
  --job_id ID                          --rdzv-id
  --max_restart N                      --max-restarts

A rank that raises or dies makes the agent stop the others and exit non-zero with the failure
reported (no hang).  On a machine without GPUs every process runs on the CPU with gloo.
"""
import argparse
import os
import sys
import threading

__all__ = ["launch"]


def _parser():
    p = argparse.ArgumentParser(prog="python -m paddle.distributed.launch",
                                description="Paddle's distributed launcher, on torch.distributed.run")
    p.add_argument("--master", type=str, default=None)
    p.add_argument("--rank", type=int, default=-1)
    p.add_argument("--nnodes", type=str, default="1")
    p.add_argument("--nproc_per_node", type=int, default=None)
    p.add_argument("--log_dir", type=str, default="log")
    p.add_argument("--log_overwrite", type=lambda v: str(v).lower() in ("1", "true", "yes", "on", "y", "t"),
                   default=False)
    p.add_argument("--job_id", type=str, default="default")
    p.add_argument("--devices", "--gpus", "--xpus", "--npus", "--device", dest="devices", type=str, default=None)
    p.add_argument("--max_restart", type=int, default=0)
    p.add_argument("--run_mode", type=str, default=None)
    p.add_argument("--log_level", type=str, default="INFO")
    p.add_argument("--host", type=str, default=None)
    p.add_argument("--start_port", type=int, default=6070)
    p.add_argument("training_script", type=str)
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return p


def torchrun_args(argv):
    """torch.distributed.run's argument list for Paddle's launch arguments."""
    a = _parser().parse_args(argv)
    if a.run_mode not in (None, "collective"):
        from ... import _report

        raise _report.unsupported(f"paddle.distributed.launch --run_mode={a.run_mode}", " (only collective)")
    if a.devices:
        nproc = len([d for d in a.devices.split(",") if d.strip() != ""])
    else:
        nproc = a.nproc_per_node or 1
    if nproc < 1:
        raise ValueError(f"paddle.distributed.launch: no devices in --devices={a.devices!r}")
    out = [f"--nproc-per-node={nproc}", f"--nnodes={a.nnodes}", f"--max-restarts={a.max_restart}",
           f"--rdzv-id={a.job_id}"]
    if a.master:
        host, _, port = a.master.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"paddle.distributed.launch: --master must be IP:PORT, got {a.master!r}")
        out += [f"--master-addr={host}", f"--master-port={port}"]
        if a.rank >= 0:
            out.append(f"--node-rank={a.rank}")
    elif a.nnodes in ("1", "1:1"):
        out.append("--standalone")
    else:
        raise ValueError("paddle.distributed.launch: --master IP:PORT is needed with --nnodes > 1")
    if not a.log_dir:  # (Paddle: no log files, the processes write to the console)
        return out + ["-m", "paddle_on_torch", a.training_script, *a.training_script_args]
    worker = ["-m", "paddle_on_torch.distributed.launch._worker", f"--log_dir={os.path.abspath(a.log_dir)}"]
    if a.log_overwrite:
        worker.append("--log_overwrite")
    return out + worker + [a.training_script, *a.training_script_args]


class _Tail(threading.Thread):
    """Copies what is appended to a file to stdout (Paddle's launcher shows workerlog.0 this way)."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path, self.done = path, threading.Event()
        self.offset = os.path.getsize(path) if os.path.exists(path) else 0

    def copy(self):
        if not os.path.exists(self.path):
            return
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = f.read()
        if data:
            self.offset += len(data)
            sys.stdout.buffer.write(data)
            sys.stdout.flush()

    def run(self):
        while not self.done.wait(0.2):
            self.copy()

    def stop(self):
        self.done.set()
        self.join()
        self.copy()


def _tail_of(path, limit=3000):
    try:
        with open(path, "rb") as f:
            f.seek(max(0, os.path.getsize(path) - limit))
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def launch(argv=None):
    """Run Paddle's launcher command line (sys.argv[1:] by default) through torch.distributed.run."""
    from torch.distributed import run

    from torch.distributed.elastic.multiprocessing.errors import ChildFailedError

    argv = list(sys.argv[1:] if argv is None else argv)
    args = torchrun_args(argv)
    log_dir = _parser().parse_args(argv).log_dir
    if not isinstance(sys.argv[0], str):  # runpy leaves None for a module run through the paddle alias
        sys.argv[0] = "paddle.distributed.launch"
    tail = None
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
        tail = _Tail(os.path.join(log_dir, "workerlog.0"))
        tail.start()
    try:
        run.main(args)
    except ChildFailedError as e:
        if tail is not None:
            tail.stop()
            tail = None
            for failure in e.failures.values():
                log = os.path.join(log_dir, f"workerlog.{failure.local_rank}")
                print(f"------------------------- ERROR LOG DETAIL ({log}) -------------------------\n"
                      f"{_tail_of(log)}", file=sys.stderr, flush=True)
        raise
    finally:
        if tail is not None:
            tail.stop()
