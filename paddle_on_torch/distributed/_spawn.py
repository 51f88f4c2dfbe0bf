"""paddle.distributed.spawn: start `nprocs` processes running `func(*args)` as one gloo/nccl world.

Processes come from torch.multiprocessing ("spawn" start method); each gets the environment a
launcher gives (MASTER_ADDR/PORT, RANK, WORLD_SIZE, LOCAL_RANK and Paddle's PADDLE_TRAINER_ID /
PADDLE_TRAINERS_NUM / PADDLE_TRAINER_ENDPOINTS; the rendezvous store is hosted by the parent, as
torchrun's agent hosts it), installs the `import paddle` hook, then
unpickles and calls `func`; `init_parallel_env()` inside it joins the world.  A child's exception
is re-raised in the parent with its traceback, and the others are stopped (no hang).  A function
defined in a script run by `python -m paddle_on_torch script.py` is found in the children because
they re-run that script as their main module with the hook installed (not as `__main__`, as
multiprocessing does).
"""
import os
import datetime
import pickle
import sys
import traceback

import torch.multiprocessing as mp

__all__ = ["spawn", "MultiprocessContext"]


def _worker(rank, payload, env, error_queue, return_queue):
    os.environ.update(env)
    os.environ.update({"RANK": str(rank), "LOCAL_RANK": str(rank), "PADDLE_TRAINER_ID": str(rank),
                       "PADDLE_LOCAL_RANK": str(rank),
                       "PADDLE_CURRENT_ENDPOINT": env["PADDLE_TRAINER_ENDPOINTS"].split(",")[rank]})
    import paddle_on_torch

    paddle_on_torch.install()
    try:
        func, args = pickle.loads(payload)
        return_queue.put(func(*args))
    except Exception:  # noqa: BLE001 -- reported to the parent, which raises it
        error_queue.put(traceback.format_exc())
        sys.exit(1)


class MultiprocessContext:
    def __init__(self, processes, error_queues, return_queues, store=None):
        self._store = store  # the rendezvous store the children connect to lives as long as this
        self.processes = processes
        self.error_queues = error_queues
        self.return_queues = return_queues
        self.sentinels = {p.sentinel: i for i, p in enumerate(processes)}

    def join(self, timeout=None):
        """True when every process has finished; raises the first failure's traceback."""
        from multiprocessing.connection import wait

        if not self.sentinels:
            return True
        ready = wait(self.sentinels.keys(), timeout=timeout)
        for s in ready:
            i = self.sentinels.pop(s)
            p = self.processes[i]
            p.join()
            if p.exitcode != 0:
                for q in self.processes:
                    if q.is_alive():
                        q.terminate()
                    q.join()
                msg = self.error_queues[i].get() if not self.error_queues[i].empty() else \
                    f"process {i} terminated with exit code {p.exitcode}"
                raise Exception(f"\n\n----------------------------------------------\nProcess {i} terminated with "
                                f"the following error:\n----------------------------------------------\n\n{msg}")
        return not self.sentinels


def _main_module_for_children():
    """multiprocessing re-runs the parent's main module in each child; point it at our shim that
    installs the hook first (see _spawn_main)."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if path is None or getattr(main, "__spec__", None) is not None:
        return None
    return os.path.abspath(path)


def spawn(func, args=(), nprocs=-1, join=True, daemon=False, **options):
    bad = set(options) - {"start_method", "ips", "gpus", "xpus", "print_config", "backend"}
    if bad:
        raise ValueError(f"The config option ({sorted(bad)[0]}) of `paddle.distributed.spawn` is not supported.")
    import torch

    if nprocs == -1:
        nprocs = torch.cuda.device_count() if torch.cuda.is_available() else os.cpu_count()
    if nprocs < 1:
        raise RuntimeError(f"the number of processes to start must be positive, got {nprocs}")
    # the parent hosts the rendezvous store on a port the OS picks and every child connects to it as a
    # client (torchelastic's agent-store mode): no window in which another job can take the port
    import torch.distributed as tdist

    store = tdist.TCPStore("127.0.0.1", 0, nprocs + 1, True, timeout=datetime.timedelta(minutes=30),
                           wait_for_workers=False)
    port = store.port
    env = {"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port), "TORCHELASTIC_USE_AGENT_STORE": "True",
           "WORLD_SIZE": str(nprocs),
           "PADDLE_TRAINERS_NUM": str(nprocs), "LOCAL_WORLD_SIZE": str(nprocs),
           "PADDLE_TRAINER_ENDPOINTS": ",".join(f"127.0.0.1:{port + i}" for i in range(nprocs))}
    payload = pickle.dumps((func, tuple(args)))
    ctx = mp.get_context(options.get("start_method") or "spawn")
    main_path = _main_module_for_children()
    saved = sys.modules.get("__main__")
    if main_path is not None:
        import types

        stub = types.ModuleType("__main__")
        stub.__spec__ = __import__("importlib").util.find_spec("paddle_on_torch.distributed._spawn_main")
        os.environ["PADDLE_ON_TORCH_SPAWN_MAIN"] = main_path
        sys.modules["__main__"] = stub
    try:
        error_queues, return_queues, processes = [], [], []
        for i in range(nprocs):
            eq, rq = ctx.SimpleQueue(), ctx.SimpleQueue()
            p = ctx.Process(target=_worker, args=(i, payload, env, eq, rq), daemon=daemon)
            p.start()
            processes.append(p)
            error_queues.append(eq)
            return_queues.append(rq)
    finally:
        if main_path is not None:
            sys.modules["__main__"] = saved
    context = MultiprocessContext(processes, error_queues, return_queues, store)
    if not join:
        return context
    while not context.join():
        pass
    return context
