// paddle_on_torch: Paddle's DataLayout enum.  Tensors here are strided torch tensors; a custom op sees them
// contiguous, in Paddle's default layout (NCHW).
#pragma once

#include <ostream>
#include <string>

namespace common {
enum class DataLayout {
  UNDEFINED = 0,
  ANY = UNDEFINED,
  NHWC,
  NCHW,
  NCDHW,
  NDHWC,
  ONEDNN,
  SPARSE_COO,
  SPARSE_CSR,
  PSTRING_UNION,
  NUM_DATA_LAYOUTS,
  ALL_LAYOUT = UNDEFINED,
  kNHWC = NHWC,
  kNCHW = NCHW,
  kMKLDNN = ONEDNN,
  kAnyLayout = ANY,
  kNDHWC = NDHWC,
  kNCDHW = NCDHW,
};

inline std::string DataLayoutToString(const DataLayout& layout) {
  switch (layout) {
    case DataLayout::NHWC:
      return "NHWC";
    case DataLayout::NCHW:
      return "NCHW";
    case DataLayout::NCDHW:
      return "NCDHW";
    case DataLayout::NDHWC:
      return "NDHWC";
    case DataLayout::ANY:
      return "Undefined(AnyLayout)";
    default:
      return "Unsupported layout";
  }
}
inline std::ostream& operator<<(std::ostream& os, DataLayout l) { return os << DataLayoutToString(l); }
}  // namespace common

namespace phi {
using DataLayout = common::DataLayout;
}
namespace paddle {
using DataLayout = common::DataLayout;
namespace experimental {
using DataLayout = common::DataLayout;
}
}  // namespace paddle
