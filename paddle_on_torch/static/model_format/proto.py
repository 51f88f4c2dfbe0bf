"""A tiny protobuf wire-format decoder for Paddle's ProgramDesc (framework.proto), no protobuf dependency.

Only decoding, only the messages an inference program needs.  Each message is read into a dict of
field name -> value (repeated fields -> lists); unknown fields are skipped as the wire format
allows, so files from releases that added fields still parse.  Malformed input raises
ModelFormatError (a ValueError) with the byte offset, never an IndexError or a crash.
"""
import struct

from .errors import ModelFormatError

# field number -> (name, kind, repeated); kind is a scalar kind or the name of a message in SCHEMA
SCHEMA = {
    "ProgramDesc": {1: ("blocks", "BlockDesc", True), 4: ("version", "Version", False),
                    5: ("op_version_map", "OpVersionMap", False)},
    "Version": {1: ("version", "int64", False)},
    "OpVersionMap": {1: ("pair", "OpVersionPair", True)},
    "OpVersionPair": {1: ("op_name", "string", False), 2: ("op_version", "OpVersion", False)},
    "OpVersion": {1: ("version", "int32", False)},
    "BlockDesc": {1: ("idx", "int32", False), 2: ("parent_idx", "int32", False), 3: ("vars", "VarDesc", True),
                  4: ("ops", "OpDesc", True), 5: ("forward_block_idx", "int32", False)},
    "VarDesc": {1: ("name", "string", False), 2: ("type", "VarType", False), 3: ("persistable", "bool", False),
                4: ("need_check_feed", "bool", False), 5: ("is_parameter", "bool", False),
                6: ("stop_gradient", "bool", False)},
    "VarType": {1: ("type", "int32", False), 2: ("selected_rows", "TensorDesc", False),
                3: ("dense_tensor", "DenseTensorDesc", False), 4: ("tensor_array", "DenseTensorDesc", False)},
    "DenseTensorDesc": {1: ("tensor", "TensorDesc", False), 2: ("legacy_lod_level", "int32", False)},
    "TensorDesc": {1: ("data_type", "int32", False), 2: ("dims", "int64", True)},
    "OpDesc": {3: ("type", "string", False), 1: ("inputs", "OpVar", True), 2: ("outputs", "OpVar", True),
               4: ("attrs", "Attr", True), 5: ("is_target", "bool", False)},
    "OpVar": {1: ("parameter", "string", False), 2: ("arguments", "string", True)},
    "Attr": {1: ("name", "string", False), 2: ("type", "int32", False), 3: ("i", "int32", False),
             4: ("f", "float", False), 5: ("s", "string", False), 6: ("ints", "int32", True),
             7: ("floats", "float", True), 8: ("strings", "string", True), 10: ("b", "bool", False),
             11: ("bools", "bool", True), 12: ("block_idx", "int32", False), 13: ("l", "int64", False),
             14: ("blocks_idx", "int32", True), 15: ("longs", "int64", True), 16: ("float64s", "double", True),
             17: ("var_name", "string", False), 18: ("vars_name", "string", True), 19: ("float64", "double", False),
             20: ("scalar", "Scalar", False), 21: ("scalars", "Scalar", True)},
    "Scalar": {1: ("type", "int32", False), 2: ("b", "bool", False), 3: ("i", "int64", False),
               4: ("r", "double", False)},
}
_VARINT_KINDS = {"int32", "int64", "bool"}
_MAX_DEPTH = 32


class _Reader:
    def __init__(self, data, what):
        self.data, self.what = data, what

    def fail(self, pos, why):
        raise ModelFormatError(f"{self.what}: not a valid ProgramDesc protobuf ({why} at byte {pos})")

    def varint(self, pos, end):
        shift = result = 0
        start = pos
        while True:
            if pos >= end:
                self.fail(start, "truncated varint")
            b = self.data[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result, pos
            shift += 7
            if shift > 63:
                self.fail(start, "varint longer than 10 bytes")

    def scalar(self, kind, wire, pos, end):
        if kind in _VARINT_KINDS:
            if wire != 0:
                self.fail(pos, f"wire type {wire} for a {kind} field")
            v, pos = self.varint(pos, end)
            if kind == "bool":
                return bool(v), pos
            v &= (1 << 64) - 1
            return (v - (1 << 64) if v >= 1 << 63 else v), pos
        if kind in ("float", "double"):
            size, fmt = (4, "<f") if kind == "float" else (8, "<d")
            if wire != (5 if size == 4 else 1) or pos + size > end:
                self.fail(pos, f"bad {kind} field")
            return struct.unpack_from(fmt, self.data, pos)[0], pos + size
        # string
        if wire != 2:
            self.fail(pos, f"wire type {wire} for a string field")
        n, pos = self.varint(pos, end)
        if pos + n > end:
            self.fail(pos, "truncated string")
        try:
            return bytes(self.data[pos:pos + n]).decode("utf-8"), pos + n
        except UnicodeDecodeError:
            self.fail(pos, "a string that is not UTF-8")

    def message(self, name, pos, end, depth=0):
        if depth > _MAX_DEPTH:
            self.fail(pos, "messages nested too deeply")
        schema = SCHEMA[name]
        out = {f[0]: [] for f in schema.values() if f[2]}
        while pos < end:
            key, pos = self.varint(pos, end)
            field, wire = key >> 3, key & 7
            if field == 0 or wire in (3, 4, 6, 7):
                self.fail(pos, f"field {field} with wire type {wire}")
            spec = schema.get(field)
            if spec is None:  # unknown field: skip it
                pos = self.skip(wire, pos, end)
                continue
            fname, kind, repeated = spec
            if kind in SCHEMA:
                if wire != 2:
                    self.fail(pos, f"wire type {wire} for message field {fname}")
                n, pos = self.varint(pos, end)
                if pos + n > end:
                    self.fail(pos, f"truncated {kind} message")
                value = self.message(kind, pos, pos + n, depth + 1)
                pos += n
            elif repeated and wire == 2 and kind != "string":  # packed numbers
                n, pos = self.varint(pos, end)
                stop = pos + n
                if stop > end:
                    self.fail(pos, "truncated packed field")
                inner = 0 if kind in _VARINT_KINDS else (5 if kind == "float" else 1)
                while pos < stop:
                    v, pos = self.scalar(kind, inner, pos, stop)
                    out[fname].append(v)
                continue
            else:
                value, pos = self.scalar(kind, wire, pos, end)
            if repeated:
                out[fname].append(value)
            else:
                out[fname] = value
        return out

    def skip(self, wire, pos, end):
        if wire == 0:
            return self.varint(pos, end)[1]
        if wire == 1:
            pos += 8
        elif wire == 5:
            pos += 4
        else:
            n, pos = self.varint(pos, end)
            pos += n
        if pos > end:
            self.fail(pos, "truncated field")
        return pos


def parse_program_desc(data, what="ProgramDesc"):
    """The ProgramDesc in `data` (bytes) as nested dicts."""
    if not data:
        raise ModelFormatError(f"{what}: the file is empty")
    if data[:1] != b"\x0a":  # every ProgramDesc starts with its first BlockDesc (field 1, length-delimited)
        raise ModelFormatError(f"{what}: not a Paddle ProgramDesc (.pdmodel) file (first byte {data[:1]!r})")
    return _Reader(memoryview(data), what).message("ProgramDesc", 0, len(data))


# AttrType enum -> the field holding the value
ATTR_FIELD = {0: "i", 1: "f", 2: "s", 3: "ints", 4: "floats", 5: "strings", 6: "b", 7: "bools", 8: "block_idx",
              9: "l", 10: "blocks_idx", 11: "longs", 12: "float64s", 13: "var_name", 14: "vars_name", 15: "float64",
              16: "scalar", 17: "scalars"}


def attr_value(attr):
    field = ATTR_FIELD.get(attr.get("type"))
    if field is None:
        return None
    v = attr.get(field)
    if field == "scalar" and isinstance(v, dict):
        return _scalar(v)
    if field == "scalars":
        return [_scalar(s) for s in v]
    if v is None:
        return [] if field in ("ints", "floats", "strings", "bools", "longs", "float64s", "blocks_idx",
                               "vars_name") else None
    return v


def _scalar(s):
    t = s.get("type")
    return s.get("b") if t == 1 else s.get("i") if t == 2 else s.get("r")
