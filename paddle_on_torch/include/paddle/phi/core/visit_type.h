// paddle_on_torch: Paddle's dtype dispatch macros.  PD_VISIT_xxx(TYPE, NAME, LAMBDA) runs LAMBDA with `data_t`
// bound to the C++ type of the DataType TYPE, or throws "function NAME is not implemented for data type ..."
// (as Paddle, from PD_THROW) for a type outside the group.
#pragma once

#include "paddle/common/exception.h"
#include "paddle/phi/common/data_type.h"

#define POT_VISIT_CASE(ENUM, CPP, ...)  \
  case ENUM: {                          \
    using data_t = CPP;                 \
    __VA_ARGS__();                      \
    break;                              \
  }
#define POT_VISIT_UNSUPPORTED(NAME, DTYPE) \
  PD_THROW("function " #NAME " is not implemented for data type `", DTYPE, "`")

#define POT_CASE_FLOATING(...)                                           \
  POT_VISIT_CASE(::paddle::DataType::FLOAT32, float, __VA_ARGS__)        \
  POT_VISIT_CASE(::paddle::DataType::FLOAT64, double, __VA_ARGS__)
#define POT_CASE_HALF(...)                                                        \
  POT_VISIT_CASE(::paddle::DataType::FLOAT16, ::paddle::float16, __VA_ARGS__)     \
  POT_VISIT_CASE(::paddle::DataType::BFLOAT16, ::paddle::bfloat16, __VA_ARGS__)
#define POT_CASE_INTEGRAL(...)                                           \
  POT_VISIT_CASE(::paddle::DataType::INT32, int, __VA_ARGS__)            \
  POT_VISIT_CASE(::paddle::DataType::INT64, int64_t, __VA_ARGS__)        \
  POT_VISIT_CASE(::paddle::DataType::INT8, int8_t, __VA_ARGS__)          \
  POT_VISIT_CASE(::paddle::DataType::UINT8, uint8_t, __VA_ARGS__)        \
  POT_VISIT_CASE(::paddle::DataType::INT16, int16_t, __VA_ARGS__)
#define POT_CASE_COMPLEX(...)                                                         \
  POT_VISIT_CASE(::paddle::DataType::COMPLEX64, ::paddle::complex64, __VA_ARGS__)     \
  POT_VISIT_CASE(::paddle::DataType::COMPLEX128, ::paddle::complex128, __VA_ARGS__)
#define POT_CASE_ONE(SPECIFIED, ...) \
  POT_VISIT_CASE(SPECIFIED, typename ::phi::DataTypeToCppType<SPECIFIED>::type, __VA_ARGS__)

#define POT_VISIT(TYPE, NAME, CASES)                  \
  [&] {                                               \
    const auto& __dtype__ = TYPE;                     \
    switch (__dtype__) {                              \
      CASES                                           \
      default:                                        \
        POT_VISIT_UNSUPPORTED(NAME, __dtype__);       \
    }                                                 \
  }()

#define PD_VISIT_FLOATING_TYPES(TYPE, NAME, ...) POT_VISIT(TYPE, NAME, POT_CASE_FLOATING(__VA_ARGS__))
#define PD_VISIT_FLOATING_AND_HALF_TYPES(TYPE, NAME, ...) \
  POT_VISIT(TYPE, NAME, POT_CASE_FLOATING(__VA_ARGS__) POT_CASE_HALF(__VA_ARGS__))
#define PD_VISIT_INTEGRAL_TYPES(TYPE, NAME, ...) POT_VISIT(TYPE, NAME, POT_CASE_INTEGRAL(__VA_ARGS__))
#define PD_VISIT_BASE_INTEGRAL_TYPES(TYPE, NAME, ...)                                            \
  POT_VISIT(TYPE, NAME, POT_VISIT_CASE(::paddle::DataType::INT32, int, __VA_ARGS__)               \
                            POT_VISIT_CASE(::paddle::DataType::INT64, int64_t, __VA_ARGS__))
#define PD_VISIT_COMPLEX_TYPES(TYPE, NAME, ...) POT_VISIT(TYPE, NAME, POT_CASE_COMPLEX(__VA_ARGS__))
#define PD_VISIT_FLOATING_AND_INTEGRAL_TYPES(TYPE, NAME, ...) \
  POT_VISIT(TYPE, NAME, POT_CASE_FLOATING(__VA_ARGS__) POT_CASE_INTEGRAL(__VA_ARGS__))
#define PD_VISIT_BOOL_AND_FLOATING_AND_INTEGRAL_TYPES(TYPE, NAME, ...)                                  \
  POT_VISIT(TYPE, NAME, POT_VISIT_CASE(::paddle::DataType::BOOL, bool, __VA_ARGS__)                      \
                            POT_CASE_FLOATING(__VA_ARGS__) POT_CASE_INTEGRAL(__VA_ARGS__)                \
                                POT_VISIT_CASE(::paddle::DataType::FLOAT16, ::paddle::float16, __VA_ARGS__) \
                                    POT_VISIT_CASE(::paddle::DataType::BFLOAT16, ::paddle::bfloat16, __VA_ARGS__))
#define PD_VISIT_BOOL_AND_FLOATING_AND_INTEGRAL_TYPES_CPU(TYPE, NAME, ...)                   \
  POT_VISIT(TYPE, NAME, POT_VISIT_CASE(::paddle::DataType::BOOL, bool, __VA_ARGS__)           \
                            POT_CASE_FLOATING(__VA_ARGS__) POT_CASE_INTEGRAL(__VA_ARGS__)     \
                                POT_VISIT_CASE(::paddle::DataType::FLOAT16, ::paddle::float16, __VA_ARGS__))
#define PD_VISIT_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, ...) \
  POT_VISIT(TYPE, NAME, POT_CASE_FLOATING(__VA_ARGS__) POT_CASE_COMPLEX(__VA_ARGS__))
#define PD_VISIT_FLOATING_AND_COMPLEX_AND_1_TYPE(SPECIFIED_TYPE, TYPE, NAME, ...) \
  POT_VISIT(TYPE, NAME,                                                          \
            POT_CASE_ONE(SPECIFIED_TYPE, __VA_ARGS__) POT_CASE_FLOATING(__VA_ARGS__) POT_CASE_COMPLEX(__VA_ARGS__))
#define PD_VISIT_FLOATING_AND_COMPLEX_AND_2_TYPES(SPECIFIED_TYPE1, SPECIFIED_TYPE2, TYPE, NAME, ...)       \
  POT_VISIT(TYPE, NAME,                                                                                 \
            POT_CASE_ONE(SPECIFIED_TYPE1, __VA_ARGS__) POT_CASE_ONE(SPECIFIED_TYPE2, __VA_ARGS__)       \
                POT_CASE_FLOATING(__VA_ARGS__) POT_CASE_COMPLEX(__VA_ARGS__))
#define PD_VISIT_FLOATING_AND_INTEGRAL_AND_COMPLEX_TYPES(TYPE, NAME, ...) \
  POT_VISIT(TYPE, NAME, POT_CASE_FLOATING(__VA_ARGS__) POT_CASE_INTEGRAL(__VA_ARGS__) POT_CASE_COMPLEX(__VA_ARGS__))
#define PD_VISIT_BOOL_AND_FLOATING_AND_INTEGRAL_AND_COMPLEX_TYPES(TYPE, NAME, ...)                    \
  POT_VISIT(TYPE, NAME, POT_VISIT_CASE(::paddle::DataType::BOOL, bool, __VA_ARGS__)                    \
                            POT_CASE_FLOATING(__VA_ARGS__) POT_CASE_INTEGRAL(__VA_ARGS__)              \
                                POT_CASE_COMPLEX(__VA_ARGS__))
#define PD_VISIT_ALL_TYPES(TYPE, NAME, ...)                                                             \
  POT_VISIT(TYPE, NAME, POT_VISIT_CASE(::paddle::DataType::BOOL, bool, __VA_ARGS__)                      \
                            POT_CASE_FLOATING(__VA_ARGS__) POT_CASE_INTEGRAL(__VA_ARGS__)                \
                                POT_CASE_HALF(__VA_ARGS__) POT_CASE_COMPLEX(__VA_ARGS__))
