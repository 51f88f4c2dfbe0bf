// The per-op fast path of paddle.Tensor (issue 29): unwrap, call, wrap in C++ for the hottest ops on tensors of
// a floating-point dtype.  A Paddle Tensor stays a Python object holding a torch tensor in its `_t` slot
// (docs/architecture.md); what this file saves is the Python work around the torch call: the generated
// wrapper's checks, and torch's own Python argument parsing, as the ATen function is called directly.
//
// A call takes the fast path only when it means the same as the Python path (paddle_on_torch/_normalize):
//  - plain mode: no static-mode recording (_normalize.wrapping._IMPL_HOOK is None), no auto_cast
//    (_core.amp_state._state is None), no torch function mode on the stack (torch.export's non-strict tracer,
//    torch.device(...) as a context);
//  - every tensor operand is a paddle Tensor whose `_t` is a plain torch.Tensor or nn.Parameter (not a DTensor
//    or another subclass) of a floating-point dtype, two tensor operands share it (Paddle's promotion rule then
//    agrees with torch's), a scalar operand is a Python float or int (as torch's binding does, it becomes a
//    wrapped-number tensor).
// Anything else, and any error torch raises, goes the Python way (the operator's generated method, or the rest
// of the function wrapper), which computes the same thing or raises Paddle's error.  Results are plain torch
// tensors wrapped in a new paddle Tensor; autograd records them as it records torch's (stop_gradient is derived
// from requires_grad, as on the Python path).
//
// Two kinds of entry points:
//  - operators: method descriptors of the Tensor class (`Tensor.__add__`), made by `fastpath_operator(name,
//    fallback)`; a miss calls `fallback(self, other)`;
//  - functions: `fastpath_function(name)` is a builtin called first by the generated wrapper of paddle.tanh
//    (and the other names in kFunctions); it returns the module's `fastpath_miss` object on a miss.
#include <Python.h>
#include <structmember.h>

#include <ATen/ATen.h>
#include <ATen/PythonTorchFunctionTLS.h>
#include <ATen/ScalarOps.h>
#include <ATen/TensorIndexing.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/extension.h>

#include <cstring>
#include <string>

namespace {

PyTypeObject* g_tensor = nullptr;     // paddle_on_torch's Tensor class
Py_ssize_t g_slot = 0;                // offset of its `_t` slot
PyTypeObject* g_parameter = nullptr;  // torch.nn.Parameter
PyObject* g_amp_globals = nullptr;    // _core.amp_state's module dict (`_state`)
PyObject* g_wrap_globals = nullptr;   // _normalize.wrapping's module dict (`_IMPL_HOOK`)
PyObject* g_amp_key = nullptr;
PyObject* g_hook_key = nullptr;
PyObject* g_miss = nullptr;           // what a function entry returns when it does not apply
constexpr int64_t kReleaseGil = 1 << 15;  // elements from which the call lets other Python threads run

inline PyObject*& slot(PyObject* o) { return *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(o) + g_slot); }

inline bool plain_mode() {
  PyObject* s = PyDict_GetItemWithError(g_amp_globals, g_amp_key);
  if (s != nullptr && s != Py_None) return false;
  PyObject* h = PyDict_GetItemWithError(g_wrap_globals, g_hook_key);
  if (h != nullptr && h != Py_None) return false;
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  return !at::impl::torch_function_mode_enabled();
}

// The torch tensor of a paddle Tensor `o` when the fast path may take it (else nullptr).
inline PyObject* torch_of(PyObject* o) {
  if (Py_TYPE(o) != g_tensor && !PyType_IsSubtype(Py_TYPE(o), g_tensor)) return nullptr;
  PyObject* t = slot(o);
  if (t == nullptr) return nullptr;
  PyTypeObject* tp = Py_TYPE(t);
  if (tp != reinterpret_cast<PyTypeObject*>(THPVariableClass) && tp != g_parameter) return nullptr;
  return t;
}

inline bool floating(const at::Tensor& t) { return at::isFloatingType(t.scalar_type()); }

// A Python int (not a bool) that fits in int64_t; false, with no error set, for anything else.
inline bool int64_of(PyObject* o, int64_t& out) {
  if (!PyLong_CheckExact(o)) return false;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  out = static_cast<int64_t>(v);
  return true;
}

// A Python float or int as torch's binding passes it for a Tensor parameter: a CPU 0-D wrapped number.
inline bool scalar_operand(PyObject* o, at::Tensor& out) {
  at::Scalar s;
  if (PyFloat_CheckExact(o)) {
    s = at::Scalar(PyFloat_AS_DOUBLE(o));
  } else if (int64_t v; int64_of(o, v)) {
    s = at::Scalar(v);
  } else {
    return false;
  }
  at::AutoDispatchBelowADInplaceOrView guard;
  out = c10::scalar_to_tensor(s);
  out.unsafeGetTensorImpl()->set_wrapped_number(true);
  return true;
}

// A Python float or int on the left of an operator (`2 - x`), as _normalize's _scalar_operand makes it:
// torch.as_tensor(v, device=x.device), a plain 0-D tensor of the default float dtype or int64 (CPU only here),
// made as torch's tensor-from-data does: filled out of sight of dispatch modes, then lift_fresh.
inline at::Tensor as_tensor(const at::Scalar& s, at::ScalarType dtype) {
  at::Tensor t;
  {
    at::AutoDispatchBelowADInplaceOrView guard;
    c10::impl::ExcludeDispatchKeyGuard python(c10::DispatchKey::Python);
    c10::impl::ExcludeDispatchKeyGuard snapshot(c10::DispatchKey::PythonTLSSnapshot);
    t = at::scalar_tensor(s, at::TensorOptions().dtype(dtype));
  }
  at::AutoDispatchBelowADInplaceOrView guard;
  return at::lift_fresh(t);
}

inline bool reflected_operand(PyObject* o, const at::Tensor& like, at::Tensor& out) {
  if (!like.is_cpu()) return false;
  if (PyFloat_CheckExact(o)) {
    out = as_tensor(at::Scalar(PyFloat_AS_DOUBLE(o)), c10::get_default_dtype_as_scalartype());
    return true;
  }
  int64_t v;
  if (!int64_of(o, v)) return false;
  out = as_tensor(at::Scalar(v), at::kLong);
  return true;
}

PyObject* wrap(at::Tensor r) {
  PyObject* v = THPVariable_Wrap(std::move(r));
  if (v == nullptr) return nullptr;
  PyObject* o = g_tensor->tp_alloc(g_tensor, 0);
  if (o == nullptr) {
    Py_DECREF(v);
    return nullptr;
  }
  slot(o) = v;
  return o;
}

// ------------------------------------------------------------------ the ops
using Unary = at::Tensor (*)(const at::Tensor&);
using Binary = at::Tensor (*)(const at::Tensor&, const at::Tensor&);

at::Tensor add(const at::Tensor& a, const at::Tensor& b) { return at::add(a, b); }
at::Tensor sub(const at::Tensor& a, const at::Tensor& b) { return at::sub(a, b); }
at::Tensor mul(const at::Tensor& a, const at::Tensor& b) { return at::mul(a, b); }
// (paddle.divide's implementation passes rounding_mode=None: torch's binding then calls div.Tensor_mode)
at::Tensor div(const at::Tensor& a, const at::Tensor& b) { return at::div(a, b, c10::nullopt); }
at::Tensor true_divide(const at::Tensor& a, const at::Tensor& b) { return at::true_divide(a, b); }
at::Tensor maximum(const at::Tensor& a, const at::Tensor& b) { return at::maximum(a, b); }
at::Tensor minimum(const at::Tensor& a, const at::Tensor& b) { return at::minimum(a, b); }
at::Tensor matmul(const at::Tensor& a, const at::Tensor& b) { return at::matmul(a, b); }

struct BinaryOp {
  const char* name;
  Binary fn;
  bool scalars;    // whether a Python number may stand for the second operand
  bool reflected;  // `2 - x`: the method's self is the right operand
};

// Operators (Tensor methods), then functions, by the name the Python side asks for.  Each entry is the torch
// call of the Python path: tensor/methods.py's `direct` table and the implementations in tensor/math.py (add /
// subtract / multiply / divide / maximum / minimum / matmul without transposes; `x @ y` of one dtype).
const BinaryOp kBinary[] = {
    {"__add__", add, true, false},         {"__sub__", sub, true, false},   {"__mul__", mul, true, false},
    {"__truediv__", true_divide, true, false}, {"__matmul__", matmul, false, false},
    {"__radd__", add, true, true},         {"__rsub__", sub, true, true},   {"__rmul__", mul, true, true},
    {"__rtruediv__", div, true, true},
    {"add", add, true, false},             {"subtract", sub, true, false},  {"multiply", mul, true, false},
    {"divide", div, true, false},          {"maximum", maximum, false, false}, {"minimum", minimum, false, false},
    {"matmul", matmul, false, false},
};
constexpr int kOperators = 9;  // the first entries are operators; then __getitem__ (its own entry point)
constexpr int kGetitem = kOperators;

struct UnaryOp {
  const char* name;
  Unary fn;
};
const UnaryOp kUnary[] = {
    {"tanh", at::tanh},       {"exp", at::exp},   {"sqrt", at::sqrt}, {"rsqrt", at::rsqrt}, {"sigmoid", at::sigmoid},
    {"log", at::log},         {"sin", at::sin},   {"cos", at::cos},   {"abs", at::abs},     {"neg", at::neg},
    {"relu", at::relu},
    // full reductions: paddle.sum / mean of a floating tensor with every other argument at its default
    {"sum", [](const at::Tensor& a) { return at::sum(a); }}, {"mean", [](const at::Tensor& a) { return at::mean(a); }},
};

template <typename F>
PyObject* call(F&& f, int64_t numel) {
  try {
    at::Tensor r;
    if (numel >= kReleaseGil) {
      pybind11::gil_scoped_release no_gil;
      r = f();
    } else {
      r = f();
    }
    return wrap(std::move(r));
  } catch (const std::exception&) {
    // the caller takes the Python path, which raises Paddle's error (a Python error raised inside the call, by a
    // dispatch mode say, is raised again there: clear this one)
    PyErr_Clear();
    return nullptr;
  }
}

// x (op) y for paddle Tensor x and a paddle Tensor or Python number y; nullptr without an error set: a miss.
PyObject* binary(int op, PyObject* x, PyObject* y) {
  const bool reflected = kBinary[op].reflected;
  if (!plain_mode()) return nullptr;
  PyObject* tx = torch_of(x);
  if (tx == nullptr) return nullptr;
  at::Tensor a = THPVariable_Unpack(tx);  // (owned: the call may let other threads run)
  if (!floating(a)) return nullptr;
  const BinaryOp& o = kBinary[op];
  if (PyObject* ty = torch_of(y)) {
    at::Tensor b = THPVariable_Unpack(ty);
    if (b.scalar_type() != a.scalar_type()) return nullptr;
    int64_t n = std::max(a.numel(), b.numel());
    return reflected ? call([&] { return o.fn(b, a); }, n) : call([&] { return o.fn(a, b); }, n);
  }
  at::Tensor s;
  if (!o.scalars || !(reflected ? reflected_operand(y, a, s) : scalar_operand(y, s))) return nullptr;
  return reflected ? call([&] { return o.fn(s, a); }, a.numel()) : call([&] { return o.fn(a, s); }, a.numel());
}

// ------------------------------------------------------------------ operators: methods of Tensor
PyObject* g_fallback[kOperators + 1] = {};

// A slice bound as Paddle's getitem passes it to torch unchanged: None or an int (not a bool).
inline bool slice_bound(PyObject* o, c10::optional<c10::SymInt>& out) {
  if (o == Py_None) return true;
  int64_t v;
  if (!int64_of(o, v)) return false;
  out = c10::SymInt(v);
  return true;
}

// x[i] for a Python int i, x[a:b:c] for a slice of int bounds and a positive step: what Paddle's getitem passes to
// torch's own indexing (tensor/indexing.py: _basic), here torch's get_item itself (select / slice on dim 0)
PyObject* getitem(PyObject* x, PyObject* index) {
  const bool is_slice = PySlice_Check(index);
  if ((!is_slice && !PyLong_CheckExact(index)) || !plain_mode()) return nullptr;
  PyObject* tx = torch_of(x);
  if (tx == nullptr) return nullptr;
  at::Tensor a = THPVariable_Unpack(tx);  // (owned: the call may let other threads run)
  if (a.dim() == 0) return nullptr;
  if (is_slice) {
    auto* sl = reinterpret_cast<PySliceObject*>(index);
    c10::optional<c10::SymInt> start, stop, step;
    if (!slice_bound(sl->start, start) || !slice_bound(sl->stop, stop) || !slice_bound(sl->step, step)) return nullptr;
    if (step.has_value() && step->expect_int() <= 0) return nullptr;  // Paddle's negative steps: the Python path
    return call([&] {
      return at::indexing::get_item(a, {at::indexing::TensorIndex(at::indexing::Slice(start, stop, step))});
    }, 0);
  }
  int64_t i;
  if (!int64_of(index, i)) return nullptr;
  return call([&] { return at::select(a, 0, i); }, 0);
}

template <int OP>
PyObject* operator_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs == 1) {
    if (PyObject* r = OP == kGetitem ? getitem(self, args[0]) : binary(OP, self, args[0])) return r;
    if (PyErr_Occurred()) return nullptr;
  }
  if (nargs != 1) return PyObject_CallOneArg(g_fallback[OP], self);  // (Python's arity error)
  PyObject* full[2] = {self, args[0]};
  return PyObject_Vectorcall(g_fallback[OP], full, 2, nullptr);
}

template <int... OPS>
struct OperatorDefs {
  static PyMethodDef defs[sizeof...(OPS)];
};
template <int... OPS>
PyMethodDef OperatorDefs<OPS...>::defs[sizeof...(OPS)] = {
    {OPS == kGetitem ? "__getitem__" : kBinary[OPS].name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(operator_method<OPS>)),
     METH_FASTCALL, nullptr}...};
using Operators = OperatorDefs<0, 1, 2, 3, 4, 5, 6, 7, 8, 9>;

// ------------------------------------------------------------------ functions
PyObject* function_binary(PyObject* opobj, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs == 2) {
    if (PyObject* r = binary(static_cast<int>(PyLong_AsLong(opobj)), args[0], args[1])) return r;
    if (PyErr_Occurred()) return nullptr;
  }
  Py_INCREF(g_miss);
  return g_miss;
}

PyObject* function_unary(PyObject* opobj, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs == 1 && plain_mode()) {
    if (PyObject* tx = torch_of(args[0])) {
      at::Tensor a = THPVariable_Unpack(tx);  // (owned: the call may let other threads run)
      if (floating(a)) {
        Unary fn = kUnary[PyLong_AsLong(opobj)].fn;
        if (PyObject* r = call([&] { return fn(a); }, a.numel())) return r;
        if (PyErr_Occurred()) return nullptr;
      }
    }
  }
  Py_INCREF(g_miss);
  return g_miss;
}

// paddle.reshape(x, shape) with `shape` a list or tuple of Python ints without a 0 (Paddle's 0 copies a dimension
// of x: the Python path handles it): torch.reshape, any dtype.
PyObject* function_reshape(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs == 2 && plain_mode() && (PyList_CheckExact(args[1]) || PyTuple_CheckExact(args[1]))) {
    if (PyObject* tx = torch_of(args[0])) {
      PyObject* seq = args[1];
      const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
      PyObject** items = PySequence_Fast_ITEMS(seq);
      c10::SmallVector<int64_t, 8> shape;
      bool ok = n <= 64;
      for (Py_ssize_t i = 0; ok && i < n; ++i) {
        int64_t v = 0;
        ok = int64_of(items[i], v) && v != 0;
        shape.push_back(v);
      }
      if (ok) {
        at::Tensor a = THPVariable_Unpack(tx);  // (owned: the call may let other threads run)
        if (PyObject* r = call([&] { return at::reshape(a, shape); }, 0)) return r;
        if (PyErr_Occurred()) return nullptr;
      }
    }
  }
  Py_INCREF(g_miss);
  return g_miss;
}

PyMethodDef kFunctionReshapeDef = {"fastpath_reshape", reinterpret_cast<PyCFunction>(
                                   reinterpret_cast<void (*)()>(function_reshape)), METH_FASTCALL, nullptr};
PyMethodDef kFunctionBinaryDef = {"fastpath_binary", reinterpret_cast<PyCFunction>(
                                  reinterpret_cast<void (*)()>(function_binary)), METH_FASTCALL, nullptr};
PyMethodDef kFunctionUnaryDef = {"fastpath_unary", reinterpret_cast<PyCFunction>(
                                 reinterpret_cast<void (*)()>(function_unary)), METH_FASTCALL, nullptr};

Py_ssize_t slot_offset(PyObject* descr) {
  if (Py_TYPE(descr) != &PyMemberDescr_Type) throw std::invalid_argument("fastpath: `_t` is not a slot");
  return reinterpret_cast<PyMemberDescrObject*>(descr)->d_member->offset;
}

}  // namespace

void bind_fastpath(pybind11::module_& m) {
  namespace py = pybind11;
  m.attr("fastpath_miss") = py::reinterpret_steal<py::object>(PyObject_CallNoArgs(
      reinterpret_cast<PyObject*>(&PyBaseObject_Type)));
  g_miss = m.attr("fastpath_miss").ptr();
  m.def("fastpath_install", [](py::object tensor_cls, py::object parameter_cls, py::dict amp_globals,
                               py::dict wrapping_globals) {
    // the Tensor class, torch.nn.Parameter, and the two module dicts whose switches mean "not plain mode"
    g_slot = slot_offset(tensor_cls.attr("__dict__")["_t"].ptr());
    g_tensor = reinterpret_cast<PyTypeObject*>(tensor_cls.release().ptr());
    g_parameter = reinterpret_cast<PyTypeObject*>(parameter_cls.release().ptr());
    g_amp_globals = amp_globals.release().ptr();
    g_wrap_globals = wrapping_globals.release().ptr();
    g_amp_key = PyUnicode_InternFromString("_state");
    g_hook_key = PyUnicode_InternFromString("_IMPL_HOOK");
  });
  m.def("fastpath_operator", [](const std::string& name, py::object fallback) -> py::object {
    // Tensor.<name> as a method descriptor of the Tensor class, or None when the name has no fast path
    for (int i = 0; i <= kOperators; ++i) {
      if (name == Operators::defs[i].ml_name) {
        Py_XDECREF(g_fallback[i]);
        g_fallback[i] = fallback.release().ptr();
        return py::reinterpret_steal<py::object>(PyDescr_NewMethod(g_tensor, &Operators::defs[i]));
      }
    }
    return py::none();
  });
  m.def("fastpath_function", [](const std::string& name) -> py::object {
    // the fast entry of paddle.<name> (a builtin: args -> result or fastpath_miss), or None
    if (name == "reshape") return py::reinterpret_steal<py::object>(PyCFunction_New(&kFunctionReshapeDef, nullptr));
    for (int i = kOperators; i < static_cast<int>(sizeof(kBinary) / sizeof(kBinary[0])); ++i) {
      if (name == kBinary[i].name)
        return py::reinterpret_steal<py::object>(PyCFunction_New(&kFunctionBinaryDef, py::int_(i).ptr()));
    }
    for (int i = 0; i < static_cast<int>(sizeof(kUnary) / sizeof(kUnary[0])); ++i) {
      if (name == kUnary[i].name)
        return py::reinterpret_steal<py::object>(PyCFunction_New(&kFunctionUnaryDef, py::int_(i).ptr()));
    }
    return py::none();
  });
}
