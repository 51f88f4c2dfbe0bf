// paddle_on_torch: compiled into every custom-operator extension built by paddle.utils.cpp_extension.  It turns
// the library's table of Paddle op descriptions (PD_BUILD_OP & co.) into torch operators:
//
//   <ns>::<op>(inputs..., attrs...) -> Tensor[]         the kernel (CPU, CUDA and PrivateUse1 tensors)
//   <ns>::<op>__infer(inputs..., attrs...) -> Tensor[]  output shapes and dtypes on meta tensors, from the op's
//                                                       InferShapeFn / InferDtypeFn or Paddle's default rules
//
// for the op, its grad op (<op>_grad) and its double grad op (<op>_grad_grad).  The operators are functional:
// an in-place input (SetInplaceMap) is copied before the kernel runs, and the copy is returned as the output it
// maps to; paddle_on_torch's Python side writes it back into the caller's tensor.  Outputs are returned as one
// flat list (a list output contributes its tensors; a missing optional output an empty placeholder).
//
// C entry points, called by paddle_on_torch/utils/cpp_extension through ctypes:
//   paddle_on_torch_describe()       the op table as JSON
//   paddle_on_torch_register(ns)     defines the operators in torch namespace `ns` (NULL, or an error message)
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <torch/library.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "paddle/extension.h"

namespace {

enum class AttrKind { kBool, kInt, kInt64, kFloat, kDouble, kString, kVecInt, kVecInt64, kVecFloat, kVecString };

struct AttrSpec {
  std::string name, type;
  AttrKind kind;
};

struct TensorSpec {
  std::string name;
  bool vec = false, optional = false;
  int inplace = -1;   // outputs: the input this output is written into (SetInplaceMap), else -1
  int count_of = -1;  // list outputs of grad ops: the input with as many tensors (the forward list input)
};

struct OpSpec {
  const paddle::OpMetaInfo* info = nullptr;
  int level = 0;  // 0: op, 1: grad op, 2: double grad op
  std::string name;
  std::vector<TensorSpec> inputs, outputs;
  std::vector<AttrSpec> attrs;
};

[[noreturn]] void Fail(const std::string& python_type, const std::string& msg) {
  throw common::EnforceNotMet(python_type, msg);
}

AttrKind ParseAttrKind(const std::string& op, const std::string& type) {
  if (type == "bool") return AttrKind::kBool;
  if (type == "int") return AttrKind::kInt;
  if (type == "int64_t") return AttrKind::kInt64;
  if (type == "float") return AttrKind::kFloat;
  if (type == "double") return AttrKind::kDouble;
  if (type == "std::string") return AttrKind::kString;
  if (type == "std::vector<int>") return AttrKind::kVecInt;
  if (type == "std::vector<int64_t>") return AttrKind::kVecInt64;
  if (type == "std::vector<float>") return AttrKind::kVecFloat;
  if (type == "std::vector<std::string>") return AttrKind::kVecString;
  Fail("NotImplementedError",
       "(Unimplemented) Unsupported `" + type + "` type value as custom attribute now (operator " + op +
           "). Supported data types include `bool`, `int`, `float`, `double`, `int64_t`, `std::string`, "
           "`std::vector<int>`, `std::vector<float>`, `std::vector<int64_t>`, `std::vector<std::string>`, Please "
           "check whether the attribute data type and data type string are matched.");
}

const char* SchemaType(AttrKind k) {
  switch (k) {
    case AttrKind::kBool:
      return "bool";
    case AttrKind::kInt:
    case AttrKind::kInt64:
      return "int";
    case AttrKind::kFloat:
    case AttrKind::kDouble:
      return "float";
    case AttrKind::kString:
      return "str";
    case AttrKind::kVecInt:
    case AttrKind::kVecInt64:
      return "int[]";
    case AttrKind::kVecFloat:
      return "float[]";
    case AttrKind::kVecString:
      return "str[]";
  }
  return "";
}

std::string StripGrad(std::string n, bool double_grad) {
  const std::string g = paddle::kGradTensorSuffix, nw = paddle::kDoubleGradNewOutSuffix;
  if (double_grad && n.size() > nw.size() && n.compare(n.size() - nw.size(), nw.size(), nw) == 0) n.resize(n.size() - nw.size());
  if (n.size() > g.size() && n.compare(n.size() - g.size(), g.size(), g) == 0) n.resize(n.size() - g.size());
  return n;
}

OpSpec MakeSpec(const paddle::OpMetaInfo& info, int level) {
  OpSpec s;
  s.info = &info;
  s.level = level;
  s.name = info.name();
  for (const auto& n : info.inputs()) s.inputs.push_back({n, paddle::IsVectorName(n), paddle::IsOptionalName(n)});
  for (const auto& n : info.outputs()) s.outputs.push_back({n, paddle::IsVectorName(n), paddle::IsOptionalName(n)});
  for (const auto& kv : info.inplace_map()) {
    int in = -1, out = -1;
    for (size_t i = 0; i < s.inputs.size(); ++i) if (s.inputs[i].name == kv.first) in = static_cast<int>(i);
    for (size_t i = 0; i < s.outputs.size(); ++i) if (s.outputs[i].name == kv.second) out = static_cast<int>(i);
    if (in >= 0 && out >= 0) s.outputs[out].inplace = in;
  }
  for (auto& out : s.outputs) {
    if (out.vec && out.inplace < 0 && level > 0) {
      // the gradients of a list input: as many as the forward input has, which the grad op must take
      std::string fwd = StripGrad(out.name, level == 2);
      for (size_t i = 0; i < s.inputs.size(); ++i) if (s.inputs[i].name == fwd) out.count_of = static_cast<int>(i);
      if (out.count_of < 0) {
        Fail("RuntimeError", "(NotFound) Custom grad operator " + s.name + " should have the forward input(" + fwd +
             ") as backward input: it gives the number of gradients in output " + out.name + ".");
      }
    }
    if (out.vec && out.inplace < 0 && level == 0) {
      Fail("ValueError",
           "(InvalidArgument) Custom operator only supports `paddle::Vec(...)` inputs and cannot support "
           "`paddle::Vec(...)` output without setting InplaceMap. If you have to use `paddle::Vec(...)` output, "
           "please indicate it by setting InplaceMap manually. (operator " + s.name + ", output " + out.name + ")");
    }
  }
  for (const auto& a : info.attrs()) {
    auto nt = paddle::ParseAttrStr(a);
    s.attrs.push_back({nt[0], nt[1], ParseAttrKind(s.name, nt[1])});
  }
  if (!info.kernel_fn()) Fail("RuntimeError", "(PreconditionNotMet) The custom operator " + s.name + " has no kernel (SetKernelFn).");
  return s;
}

std::string Schema(const OpSpec& s, const std::string& name) {
  std::ostringstream os;
  os << name << "(";
  size_t k = 0;
  for (size_t i = 0; i < s.inputs.size(); ++i, ++k) {
    const auto& in = s.inputs[i];
    os << (k ? ", " : "") << (in.vec ? "Tensor[]" : "Tensor") << (in.optional ? "?" : "") << " i" << i;
  }
  for (size_t i = 0; i < s.attrs.size(); ++i, ++k) os << (k ? ", " : "") << SchemaType(s.attrs[i].kind) << " a" << i;
  os << ") -> Tensor[]";
  return os.str();
}

paddle::any AttrValue(const AttrSpec& a, const c10::IValue& v) {
  switch (a.kind) {
    case AttrKind::kBool:
      return v.toBool();
    case AttrKind::kInt:
      return static_cast<int>(v.toInt());
    case AttrKind::kInt64:
      return static_cast<int64_t>(v.toInt());
    case AttrKind::kFloat:
      return static_cast<float>(v.toDouble());
    case AttrKind::kDouble:
      return v.toDouble();
    case AttrKind::kString:
      return v.toStringRef();
    case AttrKind::kVecInt: {
      auto l = v.toIntVector();
      return std::vector<int>(l.begin(), l.end());
    }
    case AttrKind::kVecInt64:
      return v.toIntVector();
    case AttrKind::kVecFloat: {
      auto l = v.toDoubleVector();
      return std::vector<float>(l.begin(), l.end());
    }
    case AttrKind::kVecString: {
      std::vector<std::string> r;
      for (const auto& e : v.toListRef()) r.push_back(e.toStringRef());
      return r;
    }
  }
  return {};
}

// how many tensors output `o` holds, given the input ranges of a call
size_t OutputCount(const OpSpec& s, size_t o, const paddle::CustomOpKernelContext& ctx) {
  const auto& out = s.outputs[o];
  int from = out.inplace >= 0 ? out.inplace : out.count_of;
  if (from < 0) return 1;
  auto r = ctx.InputRangeAt(from);
  return r.second - r.first;
}

bool IsInplaceInput(const OpSpec& s, size_t i) {
  for (const auto& o : s.outputs) if (o.inplace == static_cast<int>(i)) return true;
  return false;
}

// ---------------------------------------------------------------- running the kernel
at::Tensor Prepare(const at::Tensor& t, bool inplace) {
  // kernels see contiguous inputs; an in-place input is a private copy (the op stays functional)
  return inplace ? t.clone(at::MemoryFormat::Contiguous) : t.contiguous();
}

struct Runner final : c10::OperatorKernel {
  explicit Runner(OpSpec s) : spec(std::move(s)) {}
  OpSpec spec;

  void operator()(const c10::OperatorHandle&, c10::DispatchKeySet, torch::jit::Stack* stack) {
    const size_t n = spec.inputs.size() + spec.attrs.size();
    std::vector<c10::IValue> args(stack->end() - n, stack->end());
    torch::jit::drop(*stack, n);

    paddle::CustomOpKernelContext ctx;
    std::vector<at::Tensor> all_inputs;
    phi::Place place(phi::AllocationType::CPU);
    bool have_place = false;
    for (size_t i = 0; i < spec.inputs.size(); ++i) {
      const auto& in = spec.inputs[i];
      const auto& v = args[i];
      bool inplace = IsInplaceInput(spec, i);
      if (in.vec) {
        std::vector<paddle::Tensor> ts;
        if (!v.isNone()) {
          for (const auto& t : v.toTensorVector()) {
            ts.emplace_back(Prepare(t, inplace));
            all_inputs.push_back(t);
          }
        }
        ctx.EmplaceBackInputs(ts);
      } else if (v.isNone()) {
        ctx.EmplaceBackInput(paddle::Tensor());
      } else {
        const at::Tensor& t = v.toTensor();
        all_inputs.push_back(t);
        if (!have_place) {
          place = paddle_on_torch::PlaceOf(t.device());
          have_place = true;
        }
        ctx.EmplaceBackInput(paddle::Tensor(Prepare(t, inplace)));
      }
    }
    for (size_t i = 0; i < spec.attrs.size(); ++i) ctx.EmplaceBackAttr(AttrValue(spec.attrs[i], args[spec.inputs.size() + i]));
    // outputs for kernels that write through Tensor* arguments: defined, unallocated, on the inputs' place
    for (size_t o = 0; o < spec.outputs.size(); ++o) {
      if (spec.outputs[o].vec) {
        ctx.EmplaceBackOutputs(std::vector<paddle::Tensor>(OutputCount(spec, o, ctx), paddle::Tensor(place)));
      } else {
        ctx.EmplaceBackOutput(paddle::Tensor(place));
      }
    }

    try {
      spec.info->kernel_fn()(&ctx);
    } catch (const common::EnforceNotMet& e) {
      TORCH_CHECK(false, "[paddle_on_torch:", e.python_type(), "] ", e.what());
    } catch (const std::exception& e) {
      TORCH_CHECK(false, "[paddle_on_torch:OSError] ", e.what());
    }

    // gather the outputs in declared order
    size_t plain = 0;
    for (size_t o = 0; o < spec.outputs.size(); ++o) plain += spec.outputs[o].inplace < 0 ? OutputCount(spec, o, ctx) : 0;
    const auto& returned = ctx.Returned();
    if (ctx.HasReturned() && returned.size() != plain) {
      TORCH_CHECK(false, "[paddle_on_torch:ValueError] (InvalidArgument) The number of element in custom operator ",
                  spec.name, " outputs is wrong, expected contains ", plain, " Tensors, but actually contains ",
                  returned.size(), " Tensors.");
    }
    c10::List<at::Tensor> result;
    size_t next_plain = 0;
    for (size_t o = 0; o < spec.outputs.size(); ++o) {
      const auto& out = spec.outputs[o];
      std::vector<paddle::Tensor> ts;
      if (out.inplace >= 0) {
        ts = ctx.InputAfterKernel(out.inplace);
      } else if (ctx.HasReturned()) {
        for (size_t j = OutputCount(spec, o, ctx); j > 0; --j) ts.push_back(returned[next_plain++]);
      } else {
        auto r = ctx.OutputRangeAt(o);
        ts = ctx.OutputsBetween(r.first, r.second);
      }
      if (out.inplace >= 0 && spec.inputs[out.inplace].optional && args[out.inplace].isNone()) ts.clear();
      if (ts.empty() && !out.vec) ts.emplace_back();  // a missing optional output
      for (auto& t : ts) {
        if (!t.is_initialized()) {
          if (!out.optional && spec.level == 0) {
            TORCH_CHECK(false, "[paddle_on_torch:RuntimeError] (Unavailable) The Custom OpKernel calculate output ",
                        out.name, " of operator ", spec.name, " is not initialized.");
          }
          result.push_back(at::empty({0}, at::TensorOptions().device(paddle_on_torch::DeviceOf(place))));
          continue;
        }
        at::Tensor r = t.aten();
        // a kernel may hand back an input (or one tensor twice): outputs must be fresh tensors
        bool alias = false;
        for (const auto& a : all_inputs) alias = alias || r.is_alias_of(a);
        for (size_t j = 0; j < result.size() && !alias; ++j) alias = r.is_alias_of(result.get(j));
        result.push_back(alias ? r.clone() : r);
      }
    }
    torch::jit::push(*stack, result);
  }
};

// ---------------------------------------------------------------- shapes and dtypes (Paddle's rules)
struct InferRunner final : c10::OperatorKernel {
  explicit InferRunner(OpSpec s) : spec(std::move(s)) {}
  OpSpec spec;

  void operator()(const c10::OperatorHandle&, c10::DispatchKeySet, torch::jit::Stack* stack) {
    const size_t n = spec.inputs.size() + spec.attrs.size();
    std::vector<c10::IValue> args(stack->end() - n, stack->end());
    torch::jit::drop(*stack, n);
    try {
      Run(args, stack);
    } catch (const common::EnforceNotMet& e) {
      TORCH_CHECK(false, "[paddle_on_torch:", e.python_type(), "] ", e.what());
    } catch (const c10::Error&) {
      throw;
    } catch (const std::exception& e) {
      TORCH_CHECK(false, "[paddle_on_torch:OSError] ", e.what());
    }
  }

  void Run(const std::vector<c10::IValue>& args, torch::jit::Stack* stack) {
    std::vector<std::vector<std::vector<int64_t>>> in_shapes(spec.inputs.size());
    std::vector<std::vector<paddle::DataType>> in_dtypes(spec.inputs.size());
    std::vector<std::vector<int64_t>> single_shapes;
    std::vector<std::vector<std::vector<int64_t>>> vec_shapes;
    std::vector<paddle::DataType> single_dtypes;
    std::vector<std::vector<paddle::DataType>> vec_dtypes;
    at::Device device(at::kMeta);
    for (size_t i = 0; i < spec.inputs.size(); ++i) {
      const auto& v = args[i];
      std::vector<at::Tensor> ts;
      if (spec.inputs[i].vec) {
        if (!v.isNone()) ts = v.toTensorVector();
      } else if (!v.isNone()) {
        ts = {v.toTensor()};
      }
      for (const auto& t : ts) {
        in_shapes[i].push_back(t.sizes().vec());
        in_dtypes[i].push_back(paddle_on_torch::FromScalarType(t.scalar_type()));
        device = t.device();
      }
      if (spec.inputs[i].vec) {
        vec_shapes.push_back(in_shapes[i]);
        vec_dtypes.push_back(in_dtypes[i]);
      } else {
        single_shapes.push_back(ts.empty() ? std::vector<int64_t>{} : in_shapes[i][0]);
        single_dtypes.push_back(ts.empty() ? paddle::DataType::UNDEFINED : in_dtypes[i][0]);
      }
    }
    std::vector<paddle::any> attrs, shape_attrs;
    for (size_t i = 0; i < spec.attrs.size(); ++i) {
      attrs.push_back(AttrValue(spec.attrs[i], args[spec.inputs.size() + i]));
      // an InferShapeFn takes every attribute but the std::vector<int64_t> ones (those read as shapes)
      if (spec.attrs[i].kind != AttrKind::kVecInt64) shape_attrs.push_back(attrs.back());
    }

    const size_t n_out = spec.outputs.size();
    std::vector<std::vector<std::vector<int64_t>>> out_shapes(n_out);
    std::vector<std::vector<paddle::DataType>> out_dtypes(n_out);
    // in-place outputs take their inputs' shapes and dtypes, a grad op's list output those of the forward list
    size_t n_inplace = 0;
    for (size_t o = 0; o < n_out; ++o) {
      int from = spec.outputs[o].inplace >= 0 ? spec.outputs[o].inplace : spec.outputs[o].count_of;
      if (from >= 0) {
        out_shapes[o] = in_shapes[from];
        out_dtypes[o] = in_dtypes[from];
        ++n_inplace;
      }
    }
    const auto* info = spec.info;
    if (info->infer_shape_fn()) {
      auto r = info->infer_shape_fn()(single_shapes, vec_shapes, shape_attrs);
      if (r.size() + n_inplace != n_out) {
        Fail("ValueError", "(InvalidArgument) Your custom operator " + spec.name + " has set the InferShapeFn. "
             "However, `Outputs` size = " + std::to_string(n_out) + " does not match the returned vector size of "
             "InferShapeFn plus the in-place outputs = " + std::to_string(r.size() + n_inplace) +
             ". Please check InferShapeFn again.");
      }
      size_t k = 0;
      for (size_t o = 0; o < n_out; ++o) if (spec.outputs[o].inplace < 0 && spec.outputs[o].count_of < 0) out_shapes[o] = {r[k++]};
    } else {
      DefaultShapes(in_shapes, &out_shapes, "InferShapeFn");
    }
    if (info->infer_dtype_fn()) {
      auto r = info->infer_dtype_fn()(single_dtypes, vec_dtypes, attrs);
      if (r.size() + n_inplace != n_out) {
        Fail("ValueError", "(InvalidArgument) Your custom operator " + spec.name + " has set the InferDtypeFn. "
             "However, `Outputs` size = " + std::to_string(n_out) + " does not match the returned vector size of "
             "InferDtypeFn plus the in-place outputs = " + std::to_string(r.size() + n_inplace) +
             ". Please check InferDtypeFn again.");
      }
      size_t k = 0;
      for (size_t o = 0; o < n_out; ++o) if (spec.outputs[o].inplace < 0 && spec.outputs[o].count_of < 0) out_dtypes[o] = {r[k++]};
    } else {
      DefaultShapes(in_dtypes, &out_dtypes, "InferDtypeFn");
    }

    c10::List<at::Tensor> result;
    for (size_t o = 0; o < n_out; ++o) {
      const auto& out = spec.outputs[o];
      bool missing = out.inplace >= 0 && spec.inputs[out.inplace].optional && args[out.inplace].isNone();
      if (out.vec) {
        for (size_t j = 0; j < out_shapes[o].size(); ++j) {
          result.push_back(at::empty(out_shapes[o][j], at::TensorOptions().dtype(paddle_on_torch::ToScalarType(out_dtypes[o].at(j))).device(device)));
        }
      } else if (missing || out_shapes[o].empty() || out_dtypes[o].empty() || out_dtypes[o][0] == paddle::DataType::UNDEFINED) {
        result.push_back(at::empty({0}, at::TensorOptions().device(device)));  // a missing optional output
      } else {
        result.push_back(at::empty(out_shapes[o][0], at::TensorOptions().dtype(paddle_on_torch::ToScalarType(out_dtypes[o][0])).device(device)));
      }
    }
    torch::jit::push(*stack, result);
  }

  // Paddle's rules for an op without InferShapeFn / InferDtypeFn (T: a shape or a dtype)
  template <typename T>
  void DefaultShapes(const std::vector<std::vector<T>>& in, std::vector<std::vector<T>>* out, const char* what) const {
    const size_t n_out = spec.outputs.size();
    if (spec.level == 0) {
      bool any_inplace = false;
      for (const auto& o : spec.outputs) any_inplace |= o.inplace >= 0;
      if (!any_inplace) {
        if (spec.inputs.size() != 1 || n_out != 1) {
          Fail("RuntimeError", std::string("(Unavailable) Your custom operator ") + spec.name + " contains " +
               (spec.inputs.size() != 1 ? "multiple inputs" : "multiple outputs") + ". We only allow a custom "
               "operator that contains only one input and only one output without setting the " + what +
               ". At this time, the input will be directly set to the output.\nPlease set the " + what +
               " of custom operator by .Set" + what + "(...)");
        }
        (*out)[0] = in[0];
        return;
      }
      for (size_t o = 0; o < n_out; ++o) {
        if (spec.outputs[o].inplace < 0) {
          Fail("RuntimeError", std::string("(Unavailable) Your custom operator ") + spec.name + " uses "
               "`SetInplaceMap` without setting the " + what + ". However, `Outputs` size = " +
               std::to_string(n_out) + " does not match the `InplaceMap` size. Please check `SetInplaceMap` "
               "again or set the " + what + " of custom operator");
        }
      }
      return;  // all outputs in place: already filled
    }
    // a grad op: the gradient of a forward input has that input's shape / dtype
    for (size_t o = 0; o < n_out; ++o) {
      if (spec.outputs[o].inplace >= 0 || spec.outputs[o].count_of >= 0) continue;
      std::string fwd = StripGrad(spec.outputs[o].name, spec.level == 2);
      int found = -1;
      for (size_t i = 0; i < spec.inputs.size(); ++i) if (spec.inputs[i].name == fwd) found = static_cast<int>(i);
      if (found >= 0) {
        (*out)[o] = in[found];
      } else if (!spec.outputs[o].vec && spec.inputs.size() == n_out) {
        (*out)[o] = in[0];
      } else {
        Fail("RuntimeError", "(NotFound) Custom grad operator " + spec.name + " should have the forward input(" +
             fwd + ") as backward input. Maybe this custom grad op need set its own " + what);
      }
    }
  }
};

// ---------------------------------------------------------------- the C entry points
std::string JsonString(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\', r += c;
    else if (c == '\n') r += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) r += ' ';
    else r += c;
  }
  return r + "\"";
}

std::vector<std::unique_ptr<torch::Library>>& Libraries() {
  static std::vector<std::unique_ptr<torch::Library>> libs;
  return libs;
}

std::string Describe() {
  auto& map = paddle::OpMetaInfoMap::Instance();
  std::ostringstream os;
  os << "{\"ops\": [";
  bool first = true;
  for (const auto& name : map.Order()) {
    const auto& infos = map.GetMap().at(name);
    for (size_t level = 0; level < infos.size(); ++level) {
      const auto& info = infos[level];
      os << (first ? "" : ", ") << "{\"name\": " << JsonString(info.name()) << ", \"base\": " << JsonString(name)
         << ", \"level\": " << level << ", \"inputs\": [";
      for (size_t i = 0; i < info.inputs().size(); ++i) os << (i ? ", " : "") << JsonString(info.inputs()[i]);
      os << "], \"outputs\": [";
      for (size_t i = 0; i < info.outputs().size(); ++i) os << (i ? ", " : "") << JsonString(info.outputs()[i]);
      os << "], \"attrs\": [";
      for (size_t i = 0; i < info.attrs().size(); ++i) os << (i ? ", " : "") << JsonString(info.attrs()[i]);
      os << "], \"inplace\": {";
      size_t k = 0;
      for (const auto& kv : info.inplace_map()) os << (k++ ? ", " : "") << JsonString(kv.first) << ": " << JsonString(kv.second);
      os << "}, \"infer_shape\": " << (info.infer_shape_fn() ? "true" : "false")
         << ", \"infer_dtype\": " << (info.infer_dtype_fn() ? "true" : "false") << "}";
      first = false;
    }
  }
  os << "], \"errors\": [";
  for (size_t i = 0; i < map.Errors().size(); ++i) os << (i ? ", " : "") << JsonString(map.Errors()[i]);
  os << "]}";
  return os.str();
}

void Register(const std::string& ns) {
  auto& map = paddle::OpMetaInfoMap::Instance();
  if (!map.Errors().empty()) Fail("RuntimeError", "(PreconditionNotMet) " + map.Errors().front());
  std::vector<OpSpec> specs;  // all checked before any is registered
  for (const auto& name : map.Order()) {
    const auto& infos = map.GetMap().at(name);
    for (size_t level = 0; level < infos.size(); ++level) specs.push_back(MakeSpec(infos[level], static_cast<int>(level)));
  }
  {
    for (const OpSpec& spec : specs) {
      auto lib = std::make_unique<torch::Library>(torch::Library::FRAGMENT, ns, std::nullopt, __FILE__, __LINE__);
      lib->def(Schema(spec, spec.name).c_str());
      lib->def(Schema(spec, spec.name + "__infer").c_str());
      for (auto key : {c10::DispatchKey::CPU, c10::DispatchKey::CUDA, c10::DispatchKey::PrivateUse1}) {
        lib->impl(spec.name.c_str(), torch::dispatch(key, torch::CppFunction::makeFromBoxedFunctor(std::make_unique<Runner>(spec))));
      }
      lib->impl((spec.name + "__infer").c_str(),
                torch::dispatch(c10::DispatchKey::Meta, torch::CppFunction::makeFromBoxedFunctor(std::make_unique<InferRunner>(spec))));
      Libraries().push_back(std::move(lib));
    }
  }
}
}  // namespace

extern "C" {
__attribute__((visibility("default"))) const char* paddle_on_torch_describe() {
  static std::string json;
  json = Describe();
  return json.c_str();
}

__attribute__((visibility("default"))) const char* paddle_on_torch_register(const char* ns) {
  static std::string error;
  try {
    Register(ns);
    return nullptr;
  } catch (const common::EnforceNotMet& e) {
    error = "[paddle_on_torch:" + e.python_type() + "] " + e.what();
  } catch (const std::exception& e) {
    error = std::string("[paddle_on_torch:RuntimeError] ") + e.what();
  }
  return error.c_str();
}
}
