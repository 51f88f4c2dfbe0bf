"""The planner's own rules, where DTensor's registry has no strategy (or refuses) or its strategy
would compute something else than one process.

1. replicate-fallback: every tensor input is redistributed to Replicate and every output is
   Replicate.  Always valid (each rank computes the whole op), never cheap; the ops it was used for
   are listed by `Plan.explain()` so a user can see where the plan pays for it.
2. in-place-arguments: an op that updates an argument in place (schema `Tensor(a!)`, and
   native_batch_norm's running statistics, which its schema does not declare) must get that
   argument in the placements it has: DTensor would otherwise update a redistributed copy and the
   update would be lost.  A plan that breaks this is ranked below every plan that does not
   (`Plan.solver["lost_writes"]` and `explain()` name the ops).
"""
import torch

__all__ = ["fallback", "written_args", "RULES"]

RULES = ["replicate-fallback: inputs -> Replicate, outputs Replicate (ops without a DTensor strategy)",
         "in-place-arguments: an argument an op updates in place is not redistributed (else the plan is invalid)"]


def fallback(node, in_pl, replicate):
    val = node.meta.get("val")
    out = tuple(replicate for _ in val) if isinstance(val, (tuple, list)) else replicate
    return out, tuple(replicate for _ in in_pl)


# ops whose schema does not declare the arguments they update: native_batch_norm writes its running
# statistics (arguments 3 and 4) when training
UNDECLARED_WRITES = {
    torch.ops.aten.native_batch_norm.default: lambda args: {3, 4} if len(args) > 5 and args[5] else set(),
}


def written_args(node):
    """Positions, among `node`'s tensor arguments (in the order the Evaluator lists them), of those it writes in
    place (schema `Tensor(a!)`, e.g. native_batch_norm's running_mean and running_var)."""
    schema = getattr(node.target, "_schema", None)
    if schema is None:
        return ()
    flat = list(node.args) + [node.kwargs.get(a.name) for a in schema.arguments[len(node.args):]]
    undeclared = UNDECLARED_WRITES.get(node.target)
    writes = undeclared(flat) if undeclared is not None else \
        {i for i, a in enumerate(schema.arguments) if a.alias_info is not None and a.alias_info.is_write}
    if not writes:
        return ()
    out, k = [], 0
    for i, v in enumerate(flat):
        write = i in writes
        for x in v if isinstance(v, (list, tuple)) else [v]:
            if isinstance(x, torch.fx.Node) and isinstance(x.meta.get("val"), torch.Tensor):
                if write:
                    out.append(k)
                k += 1
    return tuple(out)
