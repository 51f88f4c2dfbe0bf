// paddle_on_torch: Paddle's DataType and its C++ element types, mapped onto ATen's ScalarType and c10's types
// (phi::float16 is c10::Half, phi::bfloat16 c10::BFloat16, phi::dtype::complex<T> c10::complex<T>).
#pragma once

#include <c10/core/ScalarType.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Float8_e4m3fn.h>
#include <c10/util/Float8_e5m2.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "paddle/common/exception.h"

namespace phi {
namespace dtype {
using float16 = ::c10::Half;
using bfloat16 = ::c10::BFloat16;
using float8_e4m3fn = ::c10::Float8_e4m3fn;
using float8_e5m2 = ::c10::Float8_e5m2;
template <typename T>
using complex = ::c10::complex<T>;
class pstring;  // Paddle's string tensors: not available on torch
}  // namespace dtype

using complex64 = ::phi::dtype::complex<float>;
using complex128 = ::phi::dtype::complex<double>;
using float16 = ::phi::dtype::float16;
using bfloat16 = ::phi::dtype::bfloat16;
using float8_e4m3fn = ::phi::dtype::float8_e4m3fn;
using float8_e5m2 = ::phi::dtype::float8_e5m2;
using pstring = ::phi::dtype::pstring;

// Paddle's numbering (it shows in Paddle's own messages and serialised programs)
enum class DataType {
  UNDEFINED = 0,
  BOOL,
  UINT8,
  INT8,
  UINT16,
  INT16,
  UINT32,
  INT32,
  UINT64,
  INT64,
  FLOAT32,
  FLOAT64,
  COMPLEX64,
  COMPLEX128,
  PSTRING,
  FLOAT16,
  BFLOAT16,
  FLOAT8_E4M3FN,
  FLOAT8_E5M2,
  NUM_DATA_TYPES,
  ALL_DTYPE = UNDEFINED,
};

// (C++ type, DataType, ATen ScalarType, Paddle's name) for every type a tensor can hold here
#define POT_FOR_EACH_DTYPE(_)                                                  \
  _(bool, DataType::BOOL, ::c10::ScalarType::Bool, "bool")                     \
  _(int8_t, DataType::INT8, ::c10::ScalarType::Char, "int8")                   \
  _(uint8_t, DataType::UINT8, ::c10::ScalarType::Byte, "uint8")                \
  _(int16_t, DataType::INT16, ::c10::ScalarType::Short, "int16")               \
  _(uint16_t, DataType::UINT16, ::c10::ScalarType::UInt16, "uint16")           \
  _(int32_t, DataType::INT32, ::c10::ScalarType::Int, "int32")                 \
  _(uint32_t, DataType::UINT32, ::c10::ScalarType::UInt32, "uint32")           \
  _(int64_t, DataType::INT64, ::c10::ScalarType::Long, "int64")                \
  _(uint64_t, DataType::UINT64, ::c10::ScalarType::UInt64, "uint64")           \
  _(::phi::bfloat16, DataType::BFLOAT16, ::c10::ScalarType::BFloat16, "bfloat16") \
  _(::phi::float8_e4m3fn, DataType::FLOAT8_E4M3FN, ::c10::ScalarType::Float8_e4m3fn, "float8_e4m3fn") \
  _(::phi::float8_e5m2, DataType::FLOAT8_E5M2, ::c10::ScalarType::Float8_e5m2, "float8_e5m2") \
  _(::phi::float16, DataType::FLOAT16, ::c10::ScalarType::Half, "float16")     \
  _(float, DataType::FLOAT32, ::c10::ScalarType::Float, "float32")             \
  _(double, DataType::FLOAT64, ::c10::ScalarType::Double, "float64")           \
  _(::phi::complex64, DataType::COMPLEX64, ::c10::ScalarType::ComplexFloat, "complex64") \
  _(::phi::complex128, DataType::COMPLEX128, ::c10::ScalarType::ComplexDouble, "complex128")

#define PD_FOR_EACH_DATA_TYPE(_)              \
  _(bool, DataType::BOOL)                     \
  _(int8_t, DataType::INT8)                   \
  _(uint8_t, DataType::UINT8)                 \
  _(int16_t, DataType::INT16)                 \
  _(uint16_t, DataType::UINT16)               \
  _(int32_t, DataType::INT32)                 \
  _(uint32_t, DataType::UINT32)               \
  _(int64_t, DataType::INT64)                 \
  _(uint64_t, DataType::UINT64)               \
  _(bfloat16, DataType::BFLOAT16)             \
  _(float8_e4m3fn, DataType::FLOAT8_E4M3FN)   \
  _(float8_e5m2, DataType::FLOAT8_E5M2)       \
  _(float16, DataType::FLOAT16)               \
  _(float, DataType::FLOAT32)                 \
  _(double, DataType::FLOAT64)                \
  _(complex64, DataType::COMPLEX64)           \
  _(complex128, DataType::COMPLEX128)

template <DataType T>
struct DataTypeToCppType;
template <typename T>
struct CppTypeToDataType;

#define POT_DTYPE_TRAITS(CPP, DT, ST, NAME)                  \
  template <>                                                \
  struct DataTypeToCppType<DT> {                             \
    using type = CPP;                                        \
  };                                                         \
  template <>                                                \
  struct CppTypeToDataType<CPP> {                            \
    constexpr static DataType Type() { return DT; }          \
  };
POT_FOR_EACH_DTYPE(POT_DTYPE_TRAITS)
#undef POT_DTYPE_TRAITS

inline std::string DataTypeToString(const DataType& dtype) {
  switch (dtype) {
    case DataType::UNDEFINED:
      return "Undefined(ALL_DTYPE)";
    case DataType::PSTRING:
      return "pstring";
#define POT_DTYPE_NAME(CPP, DT, ST, NAME) \
  case DT:                                \
    return NAME;
      POT_FOR_EACH_DTYPE(POT_DTYPE_NAME)
#undef POT_DTYPE_NAME
    default:
      PD_THROW("Invalid enum data type `", static_cast<int>(dtype), "`.");
  }
}

inline std::string DataTypeToString(const std::vector<DataType>& dtypes) {
  std::string s;
  for (size_t i = 0; i < dtypes.size(); ++i) s += (i ? ", " : "") + DataTypeToString(dtypes[i]);
  return s;
}

inline DataType StringToDataType(const std::string& name) {
  if (name == "Undefined(ALL_DTYPE)") return DataType::UNDEFINED;
  if (name == "pstring") return DataType::PSTRING;
#define POT_DTYPE_PARSE(CPP, DT, ST, NAME) \
  if (name == NAME) return DT;
  POT_FOR_EACH_DTYPE(POT_DTYPE_PARSE)
#undef POT_DTYPE_PARSE
  PD_THROW("Invalid enum data type `", name, "`.");
}

inline std::ostream& operator<<(std::ostream& os, DataType dtype) {
  return os << (dtype == DataType::UNDEFINED ? std::string("Undefined") : DataTypeToString(dtype));
}

inline size_t SizeOf(DataType dtype) {
  switch (dtype) {
    case DataType::UNDEFINED:
      return 0;
    case DataType::PSTRING:
      return 48;
#define POT_DTYPE_SIZE(CPP, DT, ST, NAME) \
  case DT:                                \
    return sizeof(CPP);
      POT_FOR_EACH_DTYPE(POT_DTYPE_SIZE)
#undef POT_DTYPE_SIZE
    default:
      PD_THROW("Data type `", static_cast<int>(dtype), "` is not supported by tensor.");
  }
}
}  // namespace phi

namespace paddle {
using DataType = phi::DataType;
using float8_e4m3fn = phi::float8_e4m3fn;
using float8_e5m2 = phi::float8_e5m2;
using bfloat16 = phi::bfloat16;
using complex64 = phi::complex64;
using complex128 = phi::complex128;
using float16 = phi::float16;
using pstring = phi::pstring;
namespace experimental {
using DataType = phi::DataType;
}
}  // namespace paddle

namespace paddle_on_torch {
inline ::c10::ScalarType ToScalarType(phi::DataType dtype) {
  switch (dtype) {
#define POT_TO_ST(CPP, DT, ST, NAME) \
  case phi::DT:                      \
    return ST;
    POT_FOR_EACH_DTYPE(POT_TO_ST)
#undef POT_TO_ST
    default:
      PD_THROW("paddle_on_torch: data type `", phi::DataTypeToString(dtype), "` has no torch equivalent");
  }
}

inline phi::DataType FromScalarType(::c10::ScalarType st) {
  switch (st) {
#define POT_FROM_ST(CPP, DT, ST, NAME) \
  case ST:                             \
    return phi::DT;
    POT_FOR_EACH_DTYPE(POT_FROM_ST)
#undef POT_FROM_ST
    default:
      PD_THROW("paddle_on_torch: torch dtype ", ::c10::toString(st), " has no Paddle DataType");
  }
}
}  // namespace paddle_on_torch
