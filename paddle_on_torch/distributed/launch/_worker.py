"""One process started by paddle.distributed.launch: as Paddle's launcher does, its stdout and stderr go
to LOG_DIR/workerlog.<local rank> (appended to, or overwritten with --log_overwrite) and its environment
to LOG_DIR/envlog.<local rank>; then the script runs under the shim (`python -m paddle_on_torch`).

usage: python -m paddle_on_torch.distributed.launch._worker --log_dir=DIR [--log_overwrite] SCRIPT ARGS...
"""
import os
import sys


def _paddle_env():
    """The variables Paddle's launcher gives each worker, from torchrun's (libraries read them: PaddleNLP's
    TrainingArguments takes its local_rank from PADDLE_RANK_IN_NODE)."""
    env = os.environ
    rank, world, local = env.get("RANK", "0"), env.get("WORLD_SIZE", "1"), env.get("LOCAL_RANK", "0")
    for k, v in {"PADDLE_GLOBAL_RANK": rank, "PADDLE_TRAINER_ID": rank, "PADDLE_GLOBAL_SIZE": world,
                 "PADDLE_TRAINERS_NUM": world, "PADDLE_LOCAL_RANK": local, "PADDLE_RANK_IN_NODE": local,
                 "PADDLE_LOCAL_SIZE": env.get("LOCAL_WORLD_SIZE", world)}.items():
        env.setdefault(k, v)


def main(argv):
    log_dir, overwrite = None, False
    while argv and argv[0].startswith("--log_"):
        opt = argv.pop(0)
        if opt.startswith("--log_dir="):
            log_dir = opt.split("=", 1)[1]
        elif opt == "--log_overwrite":
            overwrite = True
    _paddle_env()
    if log_dir:
        rank = os.environ.get("LOCAL_RANK", "0")
        os.makedirs(log_dir, exist_ok=True)
        os.environ["PADDLE_LOG_DIR"] = os.path.abspath(log_dir)
        with open(os.path.join(log_dir, f"envlog.{rank}"), "w") as f:
            f.writelines(f"{k}={v}\n" for k, v in sorted(os.environ.items()))
        flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if overwrite else os.O_APPEND)
        fd = os.open(os.path.join(log_dir, f"workerlog.{rank}"), flags, 0o666)
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(fd, 1)  # (the file descriptors: output of C code and of child processes goes there too)
        os.dup2(fd, 2)
        os.close(fd)
        sys.stdout.reconfigure(line_buffering=True)
    from ... import __main__ as runner

    return runner.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
