"""paddle.utils.layers_utils: nested-structure helpers (map_structure, flatten, pack_sequence_as, ...) and
convert_to_list, with Paddle's rules: lists, tuples (namedtuples too) and dicts nest, strings do not, and a dict's
entries are visited in sorted key order (a rebuilt dict keeps its own key order)."""
import collections.abc
import copy

from .. import _report

__all__ = ["convert_to_list", "is_sequence", "to_sequence", "flatten", "pack_sequence_as", "map_structure",
           "assert_same_structure", "padding_to_same_structure", "hold_mutable_vars", "copy_mutable_vars",
           "NotSupportedTensorArgumentError"]


class NotSupportedTensorArgumentError(TypeError):
    """A Tensor was given where a Python number is required."""

    def __init__(self, msg, name):
        super().__init__(msg)
        self.name = name


def _is_tensor(v):
    from ..tensor.tensor import Tensor

    return isinstance(v, Tensor)


def convert_to_list(value, n, name, dtype=int):
    """`value` (one number, or an iterable of `n`) as a list of `n` numbers of type `dtype`."""
    if isinstance(value, dtype):
        return [value] * n
    if _is_tensor(value):
        raise NotSupportedTensorArgumentError(f"`{name}` required numerical type with `{dtype}`, but received "
                                              "Tensor.", name)
    try:
        values = list(value)
    except TypeError:
        raise ValueError(f"The {name}'s type must be list or tuple. Received: {value}") from None
    if len(values) != n:
        raise ValueError(f"The {name}'s length must be {n}. Received: {value}")
    for v in values:
        if _is_tensor(v):
            raise NotSupportedTensorArgumentError(f"`{name}` required numerical type with `{dtype}`, but received "
                                                  "Tensor.", name)
        try:
            dtype(v)
        except (ValueError, TypeError):
            raise ValueError(f"The {name}'s type must be a list or tuple of {n} {dtype}. Received: {value} including "
                             f"element {v} of type {type(v)}") from None
    return values


def is_sequence(seq):
    """Whether `seq` nests: a dict, or a Sequence that is not a string."""
    return isinstance(seq, dict) or (isinstance(seq, collections.abc.Sequence) and not isinstance(seq, str))


def _sorted_keys(d):
    try:
        return sorted(d.keys())
    except TypeError:
        raise TypeError("nest only supports dicts with sortable keys.") from None


def _children(nest):
    if isinstance(nest, dict):
        return [nest[k] for k in _sorted_keys(nest)]
    return list(nest)


def _leaves(nest, out):
    for child in _children(nest):
        if is_sequence(child):
            _leaves(child, out)
        else:
            out.append(child)
    return out


def to_sequence(nest):
    return nest if is_sequence(nest) else [nest]


def flatten(nest):
    """The leaves of a nested structure, in order (dicts by sorted key)."""
    return _leaves(nest, []) if is_sequence(nest) else [nest]


def _rebuild(instance, items):
    """`items` as a container of `instance`'s type."""
    if isinstance(instance, dict):
        by_key = dict(zip(_sorted_keys(instance), items))
        return type(instance)((k, by_key[k]) for k in instance.keys())
    fields = getattr(instance, "_fields", None)
    if isinstance(instance, tuple) and isinstance(fields, collections.abc.Sequence) \
            and all(isinstance(f, str) for f in fields):
        return type(instance)(*items)  # a namedtuple
    return type(instance)(items)


def _pack(structure, flat, index):
    items = []
    for child in _children(structure):
        if is_sequence(child):
            index, packed = _pack(child, flat, index)
            items.append(_rebuild(child, packed))
        else:
            items.append(list(flat.values())[index] if isinstance(flat, dict) else flat[index])
            index += 1
    return index, items


def pack_sequence_as(structure, flat_sequence):
    """The leaves `flat_sequence` arranged as `structure`."""
    if not is_sequence(flat_sequence):
        raise TypeError("flat_sequence must be a sequence")
    if not is_sequence(structure):
        if len(flat_sequence) != 1:
            raise ValueError(f"Structure is a scalar but len(flat_sequence) == {len(flat_sequence)} > 1")
        return flat_sequence[0]
    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(f"Could not pack sequence. Structure had {n} elements, but flat_sequence had "
                         f"{len(flat_sequence)} elements. Structure: {structure}, flat_sequence: {flat_sequence}.")
    return _rebuild(structure, _pack(structure, flat_sequence, 0)[1])


def map_structure(func, *structure):
    """`func` applied leaf by leaf across the structures, arranged as the first one."""
    flats = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*flats)])


def hold_mutable_vars(structure):
    return any(is_sequence(s) for s in structure)


def copy_mutable_vars(structure):
    return pack_sequence_as(structure, copy.copy(flatten(structure)))


def _assert_same(nest1, nest2, check_types, skip_if):
    if skip_if is not None and (skip_if(nest1) or skip_if(nest2)):
        return
    seq1 = is_sequence(nest1)
    if seq1 != is_sequence(nest2):
        raise ValueError("The two structures don't have the same nested structure.\n\n"
                         f"First structure: {nest1}\n\nSecond structure: {nest2}.")
    if not seq1:
        return
    if check_types:
        if type(nest1) is not type(nest2):
            raise TypeError("The two structures don't have the same sequence type. First structure has type "
                            f"{type(nest1)}, while second structure has type {type(nest2)}.")
        if isinstance(nest1, dict) and set(nest1) != set(nest2):
            raise ValueError("The two dictionaries don't have the same set of keys. First structure has keys "
                             f"{set(nest1)}, while second structure has keys {set(nest2)}.")
    c1, c2 = _children(nest1), _children(nest2)
    if len(c1) != len(c2):
        raise ValueError("The two structures don't have the same number of elements.\n\n"
                         f"First structure ({len(c1)} elements): {nest1}\n\n"
                         f"Second structure ({len(c2)} elements): {nest2}")
    for a, b in zip(c1, c2):
        _assert_same(a, b, check_types, skip_if)


def assert_same_structure(nest1, nest2, check_types=True, skip_if=None):
    """ValueError / TypeError unless the two structures nest alike."""
    if skip_if is not None and (skip_if(nest1) or skip_if(nest2)):
        return
    n1 = len(flatten(nest1)) if is_sequence(nest1) else 1
    n2 = len(flatten(nest2)) if is_sequence(nest2) else 1
    if n1 != n2 and skip_if is None:
        raise ValueError("The two structures don't have the same number of elements.\n\n"
                         f"First structure ({n1} elements): {nest1}\n\nSecond structure ({n2} elements): {nest2}")
    _assert_same(nest1, nest2, check_types, skip_if)


def padding_to_same_structure(nest1, nest2, obj=None):
    """Both structures with their None leaves replaced by `obj`."""
    def fill(value):
        if is_sequence(value):
            return pack_sequence_as(value, [obj if x is None else x for x in flatten(value)])
        return obj if value is None else value

    return fill(nest1), fill(nest2)


__getattr__ = _report.module_getattr("paddle.utils.layers_utils")
