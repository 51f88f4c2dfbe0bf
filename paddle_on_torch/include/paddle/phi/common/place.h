// paddle_on_torch: Paddle's Place (where a tensor lives), mapped onto torch devices: CPU <-> cpu, GPU <-> cuda,
// CUSTOM <-> torch's PrivateUse1 backend (the custom devices of paddle.device), GPUPINNED <-> pinned cpu memory.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "paddle/common/exception.h"

namespace paddle {
enum class PlaceType;
}

namespace phi {

enum class AllocationType : int8_t {
  UNDEFINED = 0,
  CPU = 1,
  GPU = 2,
  CUDA = GPU,
  GPUPINNED = 3,
  XPU = 4,
  XPUPINNED = 5,
  IPU = 7,
  CUSTOM = 9,
};

inline const char* AllocationTypeStr(AllocationType type) {
  switch (type) {
    case AllocationType::CPU:
      return "cpu";
    case AllocationType::GPU:
      return "gpu";
    case AllocationType::GPUPINNED:
      return "gpu_pinned";
    case AllocationType::XPU:
      return "xpu";
    case AllocationType::XPUPINNED:
      return "xpu_pinned";
    case AllocationType::IPU:
      return "ipu";
    case AllocationType::CUSTOM:
      return "custom";
    default:
      return "undefined";
  }
}

inline std::ostream& operator<<(std::ostream& os, AllocationType type) { return os << AllocationTypeStr(type); }

class Place {
 public:
  Place() = default;
  explicit Place(AllocationType type, int8_t id, const std::string& dev_type = "")
      : device(id), alloc_type_(type), device_type_(dev_type) {}
  explicit Place(AllocationType type, const std::string& dev_type = "")
      : device(0), alloc_type_(type), device_type_(dev_type) {}
  Place(paddle::PlaceType type);  // NOLINT: the pre-2.3 place enum converts implicitly, as in Paddle

  void Reset(AllocationType type, int8_t device_id = 0, const std::string& dev_type = "") noexcept {
    alloc_type_ = type;
    device = device_id;
    if (!dev_type.empty()) device_type_ = dev_type;
  }

  AllocationType GetType() const { return alloc_type_; }
  int8_t GetDeviceId() const { return device; }
  std::string GetDeviceType() const { return device_type_; }

  std::string DebugString() const {
    std::string s = "Place(";
    if (alloc_type_ == AllocationType::CUSTOM) {
      s += device_type_ + ":" + std::to_string(device);
    } else {
      s += AllocationTypeStr(alloc_type_);
      if (alloc_type_ == AllocationType::GPU || alloc_type_ == AllocationType::XPU ||
          alloc_type_ == AllocationType::IPU) {
        s += ":" + std::to_string(device);
      }
    }
    return s + ")";
  }

  struct Hash {
    uint32_t operator()(const Place& place) const {
      uint32_t h = static_cast<uint32_t>(place.alloc_type_) << 16;
      if (place.alloc_type_ != AllocationType::CPU) h |= static_cast<uint8_t>(place.device);
      for (char c : place.device_type_) h = h * 31u + static_cast<uint8_t>(c);
      return h;
    }
  };
  uint32_t HashValue() const { return Hash()(*this); }

  bool operator==(const Place& rhs) const {
    if (alloc_type_ != rhs.alloc_type_) return false;
    if (alloc_type_ == AllocationType::CPU || alloc_type_ == AllocationType::GPUPINNED ||
        alloc_type_ == AllocationType::UNDEFINED) {
      return true;
    }
    return device == rhs.device && device_type_ == rhs.device_type_;
  }
  bool operator!=(const Place& rhs) const { return !(*this == rhs); }
  bool operator<(const Place& rhs) const { return HashValue() < rhs.HashValue(); }

 public:
  int8_t device{0};

 private:
  AllocationType alloc_type_{AllocationType::UNDEFINED};
  std::string device_type_;
};

class CPUPlace : public Place {
 public:
  CPUPlace() : Place(AllocationType::CPU) {}
  CPUPlace(const Place&) : Place(AllocationType::CPU) {}  // NOLINT
};

class GPUPlace : public Place {
 public:
  GPUPlace() : Place(AllocationType::GPU, 0) {}
  explicit GPUPlace(int device_id) : Place(AllocationType::GPU, static_cast<int8_t>(device_id)) {}
  GPUPlace(const Place& place) : Place(AllocationType::GPU, place.GetDeviceId()) {}  // NOLINT
};

class GPUPinnedPlace : public Place {
 public:
  GPUPinnedPlace() : Place(AllocationType::GPUPINNED) {}
  GPUPinnedPlace(const Place&) : Place(AllocationType::GPUPINNED) {}  // NOLINT
};

class XPUPlace : public Place {
 public:
  XPUPlace() : Place(AllocationType::XPU, 0) {}
  explicit XPUPlace(int device_id) : Place(AllocationType::XPU, static_cast<int8_t>(device_id)) {}
  XPUPlace(const Place& place) : Place(AllocationType::XPU, place.GetDeviceId()) {}  // NOLINT
};

class CustomPlace : public Place {
 public:
  CustomPlace() : Place(AllocationType::CUSTOM, 0, "") {}
  explicit CustomPlace(const std::string dev_type) : Place(AllocationType::CUSTOM, 0, dev_type) {}
  CustomPlace(const std::string dev_type, int device_id)
      : Place(AllocationType::CUSTOM, static_cast<int8_t>(device_id), dev_type) {}
  CustomPlace(const Place& place) {  // NOLINT
    if (place.GetType() == AllocationType::CUSTOM) {
      Reset(AllocationType::CUSTOM, place.GetDeviceId(), place.GetDeviceType());
    }
  }
};

inline std::ostream& operator<<(std::ostream& os, const Place& p) { return os << p.DebugString(); }

inline bool is_cpu_place(const Place& p) { return p.GetType() == AllocationType::CPU; }
inline bool is_gpu_place(const Place& p) { return p.GetType() == AllocationType::GPU; }
inline bool is_xpu_place(const Place& p) { return p.GetType() == AllocationType::XPU; }
inline bool is_ipu_place(const Place& p) { return p.GetType() == AllocationType::IPU; }
inline bool is_cuda_pinned_place(const Place& p) { return p.GetType() == AllocationType::GPUPINNED; }
inline bool is_xpu_pinned_place(const Place& p) { return p.GetType() == AllocationType::XPUPINNED; }
inline bool is_pinned_place(const Place& p) { return is_cuda_pinned_place(p) || is_xpu_pinned_place(p); }
inline bool is_custom_place(const Place& p) { return p.GetType() == AllocationType::CUSTOM; }
inline bool is_accelerat_place(const Place& p) { return is_gpu_place(p) || is_xpu_place(p) || is_custom_place(p); }
inline bool places_are_same_class(const Place& a, const Place& b) { return a.GetType() == b.GetType(); }
inline bool is_same_place(const Place& a, const Place& b) { return a == b; }
using PlaceList = std::vector<Place>;
}  // namespace phi

namespace paddle {
namespace experimental {
using AllocationType = phi::AllocationType;
using GPUPinnedPlace = phi::GPUPinnedPlace;
using XPUPlace = phi::XPUPlace;
}  // namespace experimental
using AllocationType = phi::AllocationType;
using Place = phi::Place;
using CPUPlace = phi::CPUPlace;
using GPUPlace = phi::GPUPlace;

// The place enum of Paddle's 2.0-2.2 custom operators, still accepted (`x.place() == paddle::PlaceType::kCPU`)
enum class PlaceType {
  kUNK = static_cast<int>(phi::AllocationType::UNDEFINED),
  kCPU = static_cast<int>(phi::AllocationType::CPU),
  kGPU = static_cast<int>(phi::AllocationType::GPU),
};

inline bool operator==(const Place& place, PlaceType type) {
  return static_cast<int>(place.GetType()) == static_cast<int>(type);
}
inline bool operator==(PlaceType type, const Place& place) { return place == type; }

inline GPUPlace DefaultGPUPlace();  // defined in tensor.h (needs torch's current device)
inline phi::CustomPlace DefaultCustomPlace();
}  // namespace paddle

inline phi::Place::Place(paddle::PlaceType type)
    : device(0),
      alloc_type_(static_cast<AllocationType>(static_cast<int>(type))) {}
