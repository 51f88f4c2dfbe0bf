"""paddle.distributed.launch on torchrun's machinery (torch.distributed.run).

`python -m paddle_on_torch -m paddle.distributed.launch --devices=0,1,2,3 train.py args` starts
one process per device with torchrun's elastic agent, each running `train.py` under the shim
(`python -m paddle_on_torch train.py args`).  Paddle's options map onto torchrun's:

  --devices/--gpus/--xpus/--npus LIST  one process per listed device (nproc-per-node)
  --nproc_per_node N                   N processes (when no devices are listed)
  --nnodes N  or  MIN:MAX              --nnodes
  --master IP:PORT                     --master-addr / --master-port (static rendezvous)
  --rank R                             --node-rank
  --log_dir DIR                        per-rank logs under DIR (torchrun's layout) and the console
  --job_id ID                          --rdzv-id
  --max_restart N                      --max-restarts

A rank that raises or dies makes the agent stop the others and exit non-zero with the failure
reported (no hang).  On a machine without GPUs every process runs on the CPU with gloo.
"""
import argparse
import sys

__all__ = ["launch"]


def _parser():
    p = argparse.ArgumentParser(prog="python -m paddle.distributed.launch",
                                description="Paddle's distributed launcher, on torch.distributed.run")
    p.add_argument("--master", type=str, default=None)
    p.add_argument("--rank", type=int, default=-1)
    p.add_argument("--nnodes", type=str, default="1")
    p.add_argument("--nproc_per_node", type=int, default=None)
    p.add_argument("--log_dir", type=str, default=None)
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
    if a.log_dir:
        out += [f"--log-dir={a.log_dir}", "--tee=3"]
    return out + ["-m", "paddle_on_torch", a.training_script, *a.training_script_args]


def launch(argv=None):
    """Run Paddle's launcher command line (sys.argv[1:] by default) through torch.distributed.run."""
    from torch.distributed import run

    args = torchrun_args(list(sys.argv[1:] if argv is None else argv))
    if not isinstance(sys.argv[0], str):  # runpy leaves None for a module run through the paddle alias
        sys.argv[0] = "paddle.distributed.launch"
    run.main(args)
