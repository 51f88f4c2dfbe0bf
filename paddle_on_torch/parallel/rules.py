"""The planner's own sharding rules, for ops DTensor's registry has no strategy for (or refuses).

1. replicate-fallback: every tensor input is redistributed to Replicate and every output is
   Replicate.  Always valid (each rank computes the whole op), never cheap; the ops it was used for
   are listed by `Plan.explain()` so a user can see where the plan pays for it.
"""

__all__ = ["fallback", "RULES"]

RULES = ["replicate-fallback: inputs -> Replicate, outputs Replicate (ops without a DTensor strategy)"]


def fallback(node, in_pl, replicate):
    val = node.meta.get("val")
    out = tuple(replicate for _ in val) if isinstance(val, (tuple, list)) else replicate
    return out, tuple(replicate for _ in in_pl)
