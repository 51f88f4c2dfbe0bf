// paddle_on_torch: how a custom operator describes itself (PD_BUILD_OP & co., Inputs / Outputs / Attrs,
// SetKernelFn(PD_KERNEL(...)), SetInferShapeFn, SetInferDtypeFn, SetInplaceMap), the kernel context and the
// adapters that call a user's kernel, infer-shape and infer-dtype functions with their declared argument types.
//
// Each extension library keeps its own table of op descriptions (OpMetaInfoMap, hidden inside the library);
// paddle_on_torch/registry.cc, compiled into every extension, turns the table into torch operators.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "paddle/common/exception.h"
#include "paddle/phi/api/include/tensor.h"
#include "paddle/utils/any.h"
#include "paddle/utils/none.h"
#include "paddle/utils/optional.h"

#define POT_HIDDEN __attribute__((visibility("hidden")))

namespace paddle {

using Tensor = paddle::Tensor;

///////////////// Names: suffixes marking gradients, lists, optional inputs /////////////////

constexpr char kGradTensorSuffix[] = "@GRAD";
constexpr char kTensorVectorSuffix[] = "@VECTOR";
constexpr char kDoubleGradNewOutSuffix[] = "@NEW";
constexpr char kOptionalSuffix[] = "@OPTIONAL";

inline std::string Grad(const std::string& t_name) { return t_name + kGradTensorSuffix; }
inline std::string Vec(const std::string& t_name) { return t_name + kTensorVectorSuffix; }
inline std::string New(const std::string& t_name) { return t_name + kDoubleGradNewOutSuffix; }
inline std::string Optional(const std::string& t_name) { return t_name + kOptionalSuffix; }

inline bool POT_HIDDEN IsVectorName(const std::string& n) { return n.find(kTensorVectorSuffix) != std::string::npos; }
inline bool POT_HIDDEN IsOptionalName(const std::string& n) { return n.find(kOptionalSuffix) != std::string::npos; }

// "name: type" -> {"name", "type"} (spaces trimmed)
inline std::vector<std::string> ParseAttrStr(const std::string& attr) {
  auto trim = [](std::string s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  size_t pos = attr.find(':');
  PADDLE_ENFORCE(pos != std::string::npos,
                 common::errors::InvalidArgument(
                     "Invalid attribute string format. Attribute string format is `<name>:<type>`."));
  return {trim(attr.substr(0, pos)), trim(attr.substr(pos + 1))};
}

////////////////////// Kernel context //////////////////////

// What a kernel call works on: the inputs (a list input is a range of them), the attribute values, and output
// tensors for kernels that write through `Tensor*` arguments.
class CustomOpKernelContext {
 public:
  CustomOpKernelContext() = default;

  void EmplaceBackInput(Tensor&& input) {
    input_range_.emplace_back(inputs_.size(), inputs_.size() + 1);
    inputs_.emplace_back(std::move(input));
  }
  void EmplaceBackInput(const Tensor& input) { EmplaceBackInput(Tensor(input)); }
  void EmplaceBackInputs(const std::vector<Tensor>& inputs) {
    input_range_.emplace_back(inputs_.size(), inputs_.size() + inputs.size());
    inputs_.insert(inputs_.end(), inputs.begin(), inputs.end());
  }
  void EmplaceBackOutput(Tensor&& output) {
    output_range_.emplace_back(outputs_.size(), outputs_.size() + 1);
    outputs_.emplace_back(std::move(output));
  }
  void EmplaceBackOutputs(const std::vector<Tensor>& outputs) {
    output_range_.emplace_back(outputs_.size(), outputs_.size() + outputs.size());
    outputs_.insert(outputs_.end(), outputs.begin(), outputs.end());
  }
  void EmplaceBackAttr(paddle::any attr) { attrs_.emplace_back(std::move(attr)); }
  void EmplaceBackAttrs(const std::vector<paddle::any>& attrs) { attrs_.insert(attrs_.end(), attrs.begin(), attrs.end()); }

  const std::pair<size_t, size_t>& InputRangeAt(size_t idx) const { return input_range_.at(idx); }
  const std::pair<size_t, size_t>& OutputRangeAt(size_t idx) const { return output_range_.at(idx); }
  const std::vector<std::pair<size_t, size_t>>& InputRange() const { return input_range_; }
  const std::vector<std::pair<size_t, size_t>>& OutputRange() const { return output_range_; }

  const Tensor& InputAt(size_t idx) const { return inputs_.at(idx); }
  Tensor& MutableInputAt(size_t idx) { return inputs_.at(idx); }
  std::vector<Tensor> InputsBetween(size_t start, size_t end) const {
    return std::vector<Tensor>(inputs_.begin() + start, inputs_.begin() + end);
  }
  paddle::optional<Tensor> OptionalInputAt(size_t idx) const {
    const Tensor& t = inputs_.at(idx);
    return t.is_initialized() ? paddle::optional<Tensor>(t) : paddle::optional<Tensor>(paddle::none);
  }
  paddle::optional<std::vector<Tensor>> OptionalInputsBetween(size_t start, size_t end) const {
    if (start == end || !inputs_.at(start).is_initialized()) return paddle::none;
    return InputsBetween(start, end);
  }
  std::vector<Tensor>* AllMutableInput() { return &inputs_; }
  const std::vector<paddle::any>& Attrs() const { return attrs_; }
  template <typename AttrType>
  AttrType AttrAt(size_t idx) const {
    try {
      return paddle::any_cast<AttrType>(attrs_.at(idx));
    } catch (paddle::bad_any_cast&) {
      PD_THROW("Attribute cast error in Custom Op Kernel Context.");
    }
  }

  Tensor* MutableOutputAt(size_t idx) { return &outputs_.at(idx); }
  std::vector<Tensor*> MutableOutputBetween(size_t start, size_t end) {
    std::vector<Tensor*> r;
    for (size_t i = start; i < end; ++i) r.push_back(&outputs_.at(i));
    return r;
  }
  std::vector<Tensor> OutputsBetween(size_t start, size_t end) const {
    return std::vector<Tensor>(outputs_.begin() + start, outputs_.begin() + end);
  }
  std::vector<Tensor>* AllMutableOutput() { return &outputs_; }

  // the tensors a kernel returned (kernels that return std::vector<Tensor>)
  void ValidateAndAssignOutputs(const std::vector<Tensor>& outs) {
    returned_ = outs;
    has_returned_ = true;
  }
  bool HasReturned() const { return has_returned_; }
  const std::vector<Tensor>& Returned() const { return returned_; }

  // stable storage for the arguments the adapters hand out by non-const reference
  std::vector<Tensor>& VectorInputRef(size_t idx) {
    Slots(idx);
    if (!vec_slots_[idx].second) {
      vec_slots_[idx] = {InputsBetween(input_range_[idx].first, input_range_[idx].second), true};
    }
    return vec_slots_[idx].first;
  }
  paddle::optional<Tensor>& OptionalInputRef(size_t idx) {
    Slots(idx);
    if (!opt_slots_[idx].second) opt_slots_[idx] = {OptionalInputAt(input_range_[idx].first), true};
    return opt_slots_[idx].first;
  }
  paddle::optional<std::vector<Tensor>>& OptionalVectorInputRef(size_t idx) {
    Slots(idx);
    if (!opt_vec_slots_[idx].second) {
      opt_vec_slots_[idx] = {OptionalInputsBetween(input_range_[idx].first, input_range_[idx].second), true};
    }
    return opt_vec_slots_[idx].first;
  }
  // after the kernel: what the kernel left in the inputs it received by reference (in-place inputs)
  std::vector<Tensor> InputAfterKernel(size_t idx) const {
    if (idx < vec_slots_.size() && vec_slots_[idx].second) return vec_slots_[idx].first;
    if (idx < opt_vec_slots_.size() && opt_vec_slots_[idx].second)
      return opt_vec_slots_[idx].first ? *opt_vec_slots_[idx].first : std::vector<Tensor>{};
    if (idx < opt_slots_.size() && opt_slots_[idx].second)
      return opt_slots_[idx].first ? std::vector<Tensor>{*opt_slots_[idx].first} : std::vector<Tensor>{};
    return InputsBetween(input_range_.at(idx).first, input_range_.at(idx).second);
  }

 private:
  void Slots(size_t idx) {
    if (vec_slots_.size() < input_range_.size()) {
      vec_slots_.resize(input_range_.size());
      opt_slots_.resize(input_range_.size());
      opt_vec_slots_.resize(input_range_.size());
    }
    PD_CHECK(idx < input_range_.size(), "custom op kernel: input index ", idx, " out of range");
  }

  std::vector<Tensor> inputs_;
  std::vector<Tensor> outputs_;
  std::vector<paddle::any> attrs_;
  std::vector<std::pair<size_t, size_t>> input_range_;
  std::vector<std::pair<size_t, size_t>> output_range_;
  std::vector<Tensor> returned_;
  bool has_returned_ = false;
  std::vector<std::pair<std::vector<Tensor>, bool>> vec_slots_;
  std::vector<std::pair<paddle::optional<Tensor>, bool>> opt_slots_;
  std::vector<std::pair<paddle::optional<std::vector<Tensor>>, bool>> opt_vec_slots_;
};

using KernelFunc = void (*)(CustomOpKernelContext*);
using InferShapeFunc = std::vector<std::vector<int64_t>> (*)(
    const std::vector<std::vector<int64_t>>& input_shapes,
    const std::vector<std::vector<std::vector<int64_t>>>& vec_input_shapes, const std::vector<paddle::any>& attrs);
using InferDtypeFunc = std::vector<DataType> (*)(const std::vector<DataType>& input_dtypes,
                                                 const std::vector<std::vector<DataType>>& vec_input_dtypes,
                                                 const std::vector<paddle::any>& attrs);

}  // namespace paddle

////////////////////// The adapters behind PD_KERNEL, PD_INFER_SHAPE, PD_INFER_DTYPE //////////////////////
//
// Each parameter of a user function is classified by its type (an input of some kind, an attribute, a legacy
// output pointer); its value is the next one of that class.  `Rank` counts the parameters of the same class
// before it, so the call is one pack expansion.
namespace paddle_on_torch {
namespace adapt {

enum class Class { kInput, kVecInput, kAttr, kOutput };

template <size_t N>
constexpr std::array<size_t, N> Ranks(const std::array<Class, N>& classes) {
  std::array<size_t, N> r{};
  for (size_t i = 0; i < N; ++i) {
    size_t k = 0;
    for (size_t j = 0; j < i; ++j) k += classes[j] == classes[i];
    r[i] = k;
  }
  return r;
}

// input-slot ranks count single and list inputs together (they share the declared order)
template <size_t N>
constexpr std::array<size_t, N> InputRanks(const std::array<Class, N>& classes) {
  std::array<size_t, N> r{};
  for (size_t i = 0; i < N; ++i) {
    size_t k = 0;
    for (size_t j = 0; j < i; ++j) k += classes[j] == Class::kInput || classes[j] == Class::kVecInput;
    r[i] = (classes[i] == Class::kInput || classes[i] == Class::kVecInput) ? k : 0;
  }
  return r;
}

template <typename T>
struct Unsupported : std::false_type {};

// ---- kernel arguments
template <typename T, typename Enable = void>
struct KernelArg {
  static_assert(Unsupported<T>::value,
                "paddle_on_torch: unsupported custom-op kernel argument type (Paddle's custom operators take "
                "const paddle::Tensor&, paddle::Tensor&, std::vector<paddle::Tensor>, paddle::optional<...>, "
                "attributes of type bool/int/float/double/int64_t/std::string and their std::vector, or legacy "
                "paddle::Tensor* outputs)");
};
template <>
struct KernelArg<const paddle::Tensor&> {
  static constexpr Class cls = Class::kInput;
  static const paddle::Tensor& Get(paddle::CustomOpKernelContext* c, size_t i) {
    return c->MutableInputAt(c->InputRangeAt(i).first);
  }
};
template <>
struct KernelArg<paddle::Tensor&> {
  static constexpr Class cls = Class::kInput;
  static paddle::Tensor& Get(paddle::CustomOpKernelContext* c, size_t i) {
    return c->MutableInputAt(c->InputRangeAt(i).first);
  }
};
template <>
struct KernelArg<const paddle::optional<paddle::Tensor>&> {
  static constexpr Class cls = Class::kInput;
  static paddle::optional<paddle::Tensor>& Get(paddle::CustomOpKernelContext* c, size_t i) {
    return c->OptionalInputRef(i);
  }
};
template <>
struct KernelArg<paddle::optional<paddle::Tensor>&> : KernelArg<const paddle::optional<paddle::Tensor>&> {};
template <>
struct KernelArg<const std::vector<paddle::Tensor>&> {
  static constexpr Class cls = Class::kVecInput;
  static std::vector<paddle::Tensor>& Get(paddle::CustomOpKernelContext* c, size_t i) {
    return c->VectorInputRef(i);
  }
};
template <>
struct KernelArg<std::vector<paddle::Tensor>&> : KernelArg<const std::vector<paddle::Tensor>&> {};
template <>
struct KernelArg<const paddle::optional<std::vector<paddle::Tensor>>&> {
  static constexpr Class cls = Class::kVecInput;
  static paddle::optional<std::vector<paddle::Tensor>>& Get(paddle::CustomOpKernelContext* c, size_t i) {
    return c->OptionalVectorInputRef(i);
  }
};
template <>
struct KernelArg<paddle::optional<std::vector<paddle::Tensor>>&>
    : KernelArg<const paddle::optional<std::vector<paddle::Tensor>>&> {};
template <>
struct KernelArg<paddle::Tensor*> {
  static constexpr Class cls = Class::kOutput;
  static paddle::Tensor* Get(paddle::CustomOpKernelContext* c, size_t i) {
    return c->MutableOutputAt(c->OutputRangeAt(i).first);
  }
};
template <>
struct KernelArg<std::vector<paddle::Tensor*>> {
  static constexpr Class cls = Class::kOutput;
  static std::vector<paddle::Tensor*> Get(paddle::CustomOpKernelContext* c, size_t i) {
    return c->MutableOutputBetween(c->OutputRangeAt(i).first, c->OutputRangeAt(i).second);
  }
};

// attribute types, by value, const reference or (Paddle 2.0's) const reference to a scalar
template <typename T>
struct IsAttrType
    : std::bool_constant<std::is_same_v<T, bool> || std::is_same_v<T, int> || std::is_same_v<T, float> ||
                         std::is_same_v<T, double> || std::is_same_v<T, int64_t> || std::is_same_v<T, std::string> ||
                         std::is_same_v<T, std::vector<int>> || std::is_same_v<T, std::vector<float>> ||
                         std::is_same_v<T, std::vector<int64_t>> || std::is_same_v<T, std::vector<std::string>>> {};

template <typename T>
T AttrValue(const std::vector<paddle::any>& attrs, size_t i, const char* where) {
  try {
    return paddle::any_cast<T>(attrs.at(i));
  } catch (paddle::bad_any_cast&) {
    PD_THROW("Attribute cast error in custom operator ", where,
             ": the function's attribute parameters must have the types and order of the op's Attrs.");
  } catch (std::out_of_range&) {
    PD_THROW("custom operator ", where, " takes more attributes than the op declares in Attrs.");
  }
}

template <typename T>
struct KernelArg<T, std::enable_if_t<IsAttrType<std::decay_t<T>>::value && !std::is_pointer_v<T> &&
                                     (!std::is_reference_v<T> || std::is_const_v<std::remove_reference_t<T>>)>> {
  static constexpr Class cls = Class::kAttr;
  static std::decay_t<T> Get(paddle::CustomOpKernelContext* c, size_t i) {
    return AttrValue<std::decay_t<T>>(c->Attrs(), i, "kernel");
  }
};

template <typename F, F f>
struct KernelFuncImpl;

template <typename Return, typename... Args, Return (*impl_fn)(Args...)>
struct KernelFuncImpl<Return (*)(Args...), impl_fn> {
  static void Compute(paddle::CustomOpKernelContext* ctx) { Call(ctx, std::index_sequence_for<Args...>{}); }

 private:
  static constexpr std::array<Class, sizeof...(Args)> kClasses{KernelArg<Args>::cls...};
  static constexpr std::array<size_t, sizeof...(Args)> kRanks = Ranks(kClasses);
  static constexpr std::array<size_t, sizeof...(Args)> kInputRanks = InputRanks(kClasses);

  template <size_t I>
  static constexpr size_t Index() {
    return (kClasses[I] == Class::kInput || kClasses[I] == Class::kVecInput) ? kInputRanks[I] : kRanks[I];
  }

  template <size_t... I>
  static void Call(paddle::CustomOpKernelContext* ctx, std::index_sequence<I...>) {
    if constexpr (std::is_void_v<Return>) {
      impl_fn(KernelArg<Args>::Get(ctx, Index<I>())...);
    } else {
      static_assert(std::is_same_v<Return, std::vector<paddle::Tensor>>,
                    "a custom-op kernel returns std::vector<paddle::Tensor> or void");
      ctx->ValidateAndAssignOutputs(impl_fn(KernelArg<Args>::Get(ctx, Index<I>())...));
    }
  }
};

// ---- infer-shape arguments: single-input shapes, list-input shapes, attributes (std::vector<int64_t> is a shape)
struct ShapeCtx {
  const std::vector<std::vector<int64_t>>& shapes;
  const std::vector<std::vector<std::vector<int64_t>>>& vec_shapes;
  const std::vector<paddle::any>& attrs;
};
template <typename T, typename Enable = void>
struct ShapeArg {
  static_assert(Unsupported<T>::value,
                "paddle_on_torch: unsupported InferShapeFn argument type (Paddle's take std::vector<int64_t> per "
                "input, std::vector<std::vector<int64_t>> per list input, paddle::optional of those, and the "
                "attributes other than std::vector<int64_t>)");
};
template <typename T>
struct ShapeArg<T, std::enable_if_t<std::is_same_v<std::decay_t<T>, std::vector<int64_t>>>> {
  static constexpr Class cls = Class::kInput;
  static std::vector<int64_t> Get(const ShapeCtx& c, size_t i) { return c.shapes.at(i); }
};
template <typename T>
struct ShapeArg<T, std::enable_if_t<std::is_same_v<std::decay_t<T>, std::vector<std::vector<int64_t>>>>> {
  static constexpr Class cls = Class::kVecInput;
  static std::vector<std::vector<int64_t>> Get(const ShapeCtx& c, size_t i) { return c.vec_shapes.at(i); }
};
template <typename T>
struct ShapeArg<T, std::enable_if_t<std::is_same_v<std::decay_t<T>, paddle::optional<std::vector<int64_t>>>>> {
  static constexpr Class cls = Class::kInput;
  static paddle::optional<std::vector<int64_t>> Get(const ShapeCtx& c, size_t i) {
    const auto& s = c.shapes.at(i);
    return s.empty() ? paddle::optional<std::vector<int64_t>>(paddle::none) : paddle::optional<std::vector<int64_t>>(s);
  }
};
template <typename T>
struct ShapeArg<T, std::enable_if_t<std::is_same_v<std::decay_t<T>, paddle::optional<std::vector<std::vector<int64_t>>>>>> {
  static constexpr Class cls = Class::kVecInput;
  static paddle::optional<std::vector<std::vector<int64_t>>> Get(const ShapeCtx& c, size_t i) {
    const auto& s = c.vec_shapes.at(i);
    return s.empty() ? paddle::optional<std::vector<std::vector<int64_t>>>(paddle::none)
                     : paddle::optional<std::vector<std::vector<int64_t>>>(s);
  }
};
template <typename T>
struct ShapeArg<T, std::enable_if_t<IsAttrType<std::decay_t<T>>::value &&
                                    !std::is_same_v<std::decay_t<T>, std::vector<int64_t>>>> {
  static constexpr Class cls = Class::kAttr;
  static std::decay_t<T> Get(const ShapeCtx& c, size_t i) { return AttrValue<std::decay_t<T>>(c.attrs, i, "InferShapeFn"); }
};

template <typename F, F f>
struct InferShapeFuncImpl;

template <typename Return, typename... Args, Return (*impl_fn)(Args...)>
struct InferShapeFuncImpl<Return (*)(Args...), impl_fn> {
  static Return InferShape(const std::vector<std::vector<int64_t>>& input_shapes,
                           const std::vector<std::vector<std::vector<int64_t>>>& vec_input_shapes,
                           const std::vector<paddle::any>& attrs) {
    ShapeCtx c{input_shapes, vec_input_shapes, attrs};
    return Call(c, std::index_sequence_for<Args...>{});
  }

 private:
  static constexpr std::array<Class, sizeof...(Args)> kClasses{ShapeArg<Args>::cls...};
  static constexpr std::array<size_t, sizeof...(Args)> kRanks = Ranks(kClasses);
  template <size_t... I>
  static Return Call(const ShapeCtx& c, std::index_sequence<I...>) {
    return impl_fn(ShapeArg<Args>::Get(c, kRanks[I])...);
  }
};

// ---- infer-dtype arguments
struct DtypeCtx {
  const std::vector<paddle::DataType>& dtypes;
  const std::vector<std::vector<paddle::DataType>>& vec_dtypes;
  const std::vector<paddle::any>& attrs;
};
template <typename T, typename Enable = void>
struct DtypeArg {
  static_assert(Unsupported<T>::value,
                "paddle_on_torch: unsupported InferDtypeFn argument type (Paddle's take paddle::DataType per input, "
                "std::vector<paddle::DataType> per list input, paddle::optional of those, and the attributes)");
};
template <typename T>
struct DtypeArg<T, std::enable_if_t<std::is_same_v<std::decay_t<T>, paddle::DataType>>> {
  static constexpr Class cls = Class::kInput;
  static paddle::DataType Get(const DtypeCtx& c, size_t i) { return c.dtypes.at(i); }
};
template <typename T>
struct DtypeArg<T, std::enable_if_t<std::is_same_v<std::decay_t<T>, std::vector<paddle::DataType>>>> {
  static constexpr Class cls = Class::kVecInput;
  static std::vector<paddle::DataType> Get(const DtypeCtx& c, size_t i) { return c.vec_dtypes.at(i); }
};
template <typename T>
struct DtypeArg<T, std::enable_if_t<std::is_same_v<std::decay_t<T>, paddle::optional<paddle::DataType>>>> {
  static constexpr Class cls = Class::kInput;
  static paddle::optional<paddle::DataType> Get(const DtypeCtx& c, size_t i) {
    auto d = c.dtypes.at(i);
    return d == paddle::DataType::UNDEFINED ? paddle::optional<paddle::DataType>(paddle::none)
                                            : paddle::optional<paddle::DataType>(d);
  }
};
template <typename T>
struct DtypeArg<T, std::enable_if_t<std::is_same_v<std::decay_t<T>, paddle::optional<std::vector<paddle::DataType>>>>> {
  static constexpr Class cls = Class::kVecInput;
  static paddle::optional<std::vector<paddle::DataType>> Get(const DtypeCtx& c, size_t i) {
    const auto& d = c.vec_dtypes.at(i);
    return d.empty() ? paddle::optional<std::vector<paddle::DataType>>(paddle::none)
                     : paddle::optional<std::vector<paddle::DataType>>(d);
  }
};
template <typename T>
struct DtypeArg<T, std::enable_if_t<IsAttrType<std::decay_t<T>>::value>> {
  static constexpr Class cls = Class::kAttr;
  static std::decay_t<T> Get(const DtypeCtx& c, size_t i) { return AttrValue<std::decay_t<T>>(c.attrs, i, "InferDtypeFn"); }
};

template <typename F, F f>
struct InferDtypeFuncImpl;

template <typename Return, typename... Args, Return (*impl_fn)(Args...)>
struct InferDtypeFuncImpl<Return (*)(Args...), impl_fn> {
  static Return InferDtype(const std::vector<paddle::DataType>& input_dtypes,
                           const std::vector<std::vector<paddle::DataType>>& vec_input_dtypes,
                           const std::vector<paddle::any>& attrs) {
    DtypeCtx c{input_dtypes, vec_input_dtypes, attrs};
    return Call(c, std::index_sequence_for<Args...>{});
  }

 private:
  static constexpr std::array<Class, sizeof...(Args)> kClasses{DtypeArg<Args>::cls...};
  static constexpr std::array<size_t, sizeof...(Args)> kRanks = Ranks(kClasses);
  template <size_t... I>
  static Return Call(const DtypeCtx& c, std::index_sequence<I...>) {
    return impl_fn(DtypeArg<Args>::Get(c, kRanks[I])...);
  }
};
}  // namespace adapt
}  // namespace paddle_on_torch

#define PD_KERNEL(...) \
  ::paddle_on_torch::adapt::KernelFuncImpl<decltype(&__VA_ARGS__), &__VA_ARGS__>::Compute
#define PD_INFER_SHAPE(...) \
  ::paddle_on_torch::adapt::InferShapeFuncImpl<decltype(&__VA_ARGS__), &__VA_ARGS__>::InferShape
#define PD_INFER_DTYPE(...) \
  ::paddle_on_torch::adapt::InferDtypeFuncImpl<decltype(&__VA_ARGS__), &__VA_ARGS__>::InferDtype

namespace paddle {

////////////////////// Op meta info //////////////////////

class OpMetaInfo {
 public:
  explicit OpMetaInfo(const std::string& op_name) : name_(op_name) {}
  OpMetaInfo& Inputs(std::vector<std::string>&& inputs) {
    inputs_ = std::move(inputs);
    return *this;
  }
  OpMetaInfo& Outputs(std::vector<std::string>&& outputs) {
    outputs_ = std::move(outputs);
    return *this;
  }
  OpMetaInfo& Attrs(std::vector<std::string>&& attrs) {
    attrs_ = std::move(attrs);
    return *this;
  }
  OpMetaInfo& SetInplaceMap(std::unordered_map<std::string, std::string>&& inplace_map) {
    inplace_map_ = std::move(inplace_map);
    return *this;
  }
  OpMetaInfo& SetKernelFn(KernelFunc&& func) {
    kernel_fn_ = func;
    return *this;
  }
  OpMetaInfo& SetInferShapeFn(InferShapeFunc&& func) {
    infer_shape_fn_ = func;
    return *this;
  }
  OpMetaInfo& SetInferDtypeFn(InferDtypeFunc&& func) {
    infer_dtype_fn_ = func;
    return *this;
  }
  bool IsGradOp() const { return name_.size() > 5 && name_.compare(name_.size() - 5, 5, "_grad") == 0; }
  bool IsDoubleGradOp() const {
    return name_.size() > 10 && name_.compare(name_.size() - 10, 10, "_grad_grad") == 0;
  }

  // read by paddle_on_torch's registry
  const std::string& name() const { return name_; }
  const std::vector<std::string>& inputs() const { return inputs_; }
  const std::vector<std::string>& outputs() const { return outputs_; }
  const std::vector<std::string>& attrs() const { return attrs_; }
  const std::unordered_map<std::string, std::string>& inplace_map() const { return inplace_map_; }
  KernelFunc kernel_fn() const { return kernel_fn_; }
  InferShapeFunc infer_shape_fn() const { return infer_shape_fn_; }
  InferDtypeFunc infer_dtype_fn() const { return infer_dtype_fn_; }

 private:
  std::string name_;
  std::vector<std::string> inputs_;
  std::vector<std::string> outputs_;
  std::vector<std::string> attrs_;
  std::unordered_map<std::string, std::string> inplace_map_;
  KernelFunc kernel_fn_{nullptr};
  InferShapeFunc infer_shape_fn_{nullptr};
  InferDtypeFunc infer_dtype_fn_{nullptr};
};

// name -> [op, grad op, double grad op]; one table per extension library (hidden symbols)
class POT_HIDDEN OpMetaInfoMap {
 public:
  static OpMetaInfoMap& Instance() {
    static OpMetaInfoMap map;
    return map;
  }
  std::vector<OpMetaInfo>& operator[](const std::string& name) {
    if (map_.find(name) == map_.end()) order_.push_back(name);
    return map_[name];
  }
  const std::unordered_map<std::string, std::vector<OpMetaInfo>>& GetMap() const { return map_; }
  const std::vector<std::string>& Order() const { return order_; }
  // registration mistakes (reported when the library is loaded: a static initializer must not throw)
  std::vector<std::string>& Errors() { return errors_; }

 private:
  OpMetaInfoMap() = default;
  std::unordered_map<std::string, std::vector<OpMetaInfo>> map_;
  std::vector<std::string> order_;
  std::vector<std::string> errors_;
};

class OpMetaInfoBuilder {
 public:
  explicit OpMetaInfoBuilder(std::string&& name, size_t index) : name_(std::move(name)), index_(index) {
    auto& infos = OpMetaInfoMap::Instance()[name_];
    if (infos.size() != index_) {
      OpMetaInfoMap::Instance().Errors().push_back(
          "The operator " + name_ + "'s meta info register failed. Please make sure you call marcos as order "
          "`PD_BUILD_OP`, `PD_BUILD_GRAD_OP`, `PD_BUILD_DOUBLE_GRAD_OP`.");
      info_ = &Scratch();
      return;
    }
    static const char* const kSuffix[] = {"", "_grad", "_grad_grad"};
    infos.emplace_back(name_ + kSuffix[index_]);
    info_ = &infos.back();
  }
  OpMetaInfoBuilder& Inputs(std::vector<std::string>&& inputs) {
    info_->Inputs(std::move(inputs));
    return *this;
  }
  OpMetaInfoBuilder& Outputs(std::vector<std::string>&& outputs) {
    info_->Outputs(std::move(outputs));
    return *this;
  }
  OpMetaInfoBuilder& Attrs(std::vector<std::string>&& attrs) {
    info_->Attrs(std::move(attrs));
    return *this;
  }
  OpMetaInfoBuilder& SetInplaceMap(std::unordered_map<std::string, std::string>&& inplace_map) {
    for (const auto& kv : inplace_map) {
      bool in_ok = false, out_ok = false;
      for (const auto& n : info_->inputs()) in_ok |= n == kv.first;
      for (const auto& n : info_->outputs()) out_ok |= n == kv.second;
      if (!in_ok || !out_ok) {
        OpMetaInfoMap::Instance().Errors().push_back(
            "The register of operator " + name_ + "'s `SetInplaceMap` failed. Please make sure: 1. Call `Inputs` "
            "and `Outputs` before `SetInplaceMap`; 2. The keys of inplace_map are inside `Inputs` and its values "
            "inside `Outputs`");
      }
    }
    info_->SetInplaceMap(std::move(inplace_map));
    return *this;
  }
  OpMetaInfoBuilder& SetKernelFn(KernelFunc func) {
    info_->SetKernelFn(std::move(func));
    return *this;
  }
  OpMetaInfoBuilder& SetInferShapeFn(InferShapeFunc func) {
    info_->SetInferShapeFn(std::move(func));
    return *this;
  }
  OpMetaInfoBuilder& SetInferDtypeFn(InferDtypeFunc func) {
    if (index_ != 0) {
      OpMetaInfoMap::Instance().Errors().push_back(
          "(Unimplemented) Currently, the InferDtypeFn setting of Grad Op is not supported, And backward Tensor "
          "`X@GRAD` will use the dtype of forward Tensor `X` by default. (operator " + name_ + ")");
    }
    info_->SetInferDtypeFn(std::move(func));
    return *this;
  }

 private:
  static OpMetaInfo& Scratch() {
    static OpMetaInfo scratch("");
    return scratch;
  }
  std::string name_;
  size_t index_;
  OpMetaInfo* info_;
};
}  // namespace paddle

#define POT_ASSERT_GLOBAL_NAMESPACE(uniq, msg)                                                  \
  struct __pot_global_ns_check_##uniq##__ {};                                                   \
  static_assert(std::is_same<::__pot_global_ns_check_##uniq##__, __pot_global_ns_check_##uniq##__>::value, msg)

#define PD_BUILD_OP(op_name)                                                                     \
  POT_ASSERT_GLOBAL_NAMESPACE(__reg_op__##op_name, "PD_BUILD_OP must be called in global namespace."); \
  static ::paddle::OpMetaInfoBuilder __op_meta_info_##op_name##__ = ::paddle::OpMetaInfoBuilder(#op_name, 0)

#define PD_BUILD_GRAD_OP(op_name)                                                                          \
  POT_ASSERT_GLOBAL_NAMESPACE(__reg_grad_op__##op_name, "PD_BUILD_GRAD_OP must be called in global namespace."); \
  static ::paddle::OpMetaInfoBuilder __grad_op_meta_info_##op_name##__ = ::paddle::OpMetaInfoBuilder(#op_name, 1)

#define PD_BUILD_DOUBLE_GRAD_OP(op_name)                                                   \
  POT_ASSERT_GLOBAL_NAMESPACE(__reg_grad_grad_op__##op_name,                               \
                              "PD_BUILD_DOUBLE_GRAD_OP must be called in global namespace."); \
  static ::paddle::OpMetaInfoBuilder __grad_grad_op_meta_info_##op_name##__ =              \
      ::paddle::OpMetaInfoBuilder(#op_name, 2)
