// paddle_on_torch: Paddle's error macros for custom operators (PD_CHECK, PD_THROW) and the enforce family
// (PADDLE_ENFORCE_*, PADDLE_THROW with common::errors::*).  A failed check throws; the op runner reports it to
// Python with the exception type Paddle gives (PD_CHECK / PD_THROW: OSError; errors::InvalidArgument:
// ValueError, ...).
#pragma once

#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace common {

namespace detail {
// vectors print as [a, b, c] in messages (shapes, for one)
template <typename T>
std::ostream& operator<<(std::ostream& os, const std::vector<T>& v) {
  os << '[';
  for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  return os << ']';
}

template <typename... Args>
std::string Concat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

// printf-like formatting as Paddle's enforce messages use it: each %-directive takes the next argument, printed
// with operator<< (so %d, %s, %ld, %f all print the value as it is); "%%" is a percent sign.
inline void FormatInto(std::ostringstream& os, const char* fmt) { os << fmt; }

template <typename T, typename... Rest>
void FormatInto(std::ostringstream& os, const char* fmt, const T& first, const Rest&... rest) {
  for (const char* p = fmt; *p; ++p) {
    if (*p == '%' && p[1] == '%') {
      os << '%';
      ++p;
    } else if (*p == '%') {
      const char* q = p + 1;
      while (*q && !((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z'))) ++q;   // flags, width, precision
      while (*q == 'l' || *q == 'h' || *q == 'z' || *q == 'j') ++q;                  // length modifiers
      os << first;
      FormatInto(os, *q ? q + 1 : q, rest...);
      return;
    } else {
      os << *p;
    }
  }
}

template <typename... Args>
std::string Format(const char* fmt, const Args&... args) {
  std::ostringstream os;
  FormatInto(os, fmt, args...);
  return os.str();
}
inline std::string Format(const std::string& msg) { return msg; }
}  // namespace detail

// What PD_CHECK / PD_THROW throw: the message and where it was raised ("<message>\n  [<file>:<line>]").
struct PD_Exception : public std::exception {
 public:
  PD_Exception(const std::string& msg, const char* file, int line, const char* default_msg)
      : what_((msg.empty() ? std::string(default_msg) : msg) + "\n  [" + file + ":" + std::to_string(line) + "]") {}
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  std::string what_;
};

// Builds a message from any streamable values, as PD_CHECK's and PD_THROW's extra arguments.
class ErrorMessage {
 public:
  template <typename... Args>
  explicit ErrorMessage(const Args&... args) : msg_(detail::Concat(args...)) {}
  std::string to_string() const { return msg_; }

 private:
  std::string msg_;
};

// The enforce family: an error with Paddle's error class, which decides the Python exception type.
struct EnforceNotMet : public std::exception {
  EnforceNotMet(std::string python_type, std::string msg) : python_type_(std::move(python_type)), what_(std::move(msg)) {}
  const char* what() const noexcept override { return what_.c_str(); }
  const std::string& python_type() const { return python_type_; }

 private:
  std::string python_type_;
  std::string what_;
};

struct ErrorSummary {
  std::string python_type;
  std::string message;
};

namespace errors {
#define POT_DEFINE_PADDLE_ERROR(NAME, PYTYPE)                                                 \
  template <typename... Args>                                                               \
  ::common::ErrorSummary NAME(const char* fmt, const Args&... args) {                       \
    return {PYTYPE, std::string("(" #NAME ") ") + ::common::detail::Format(fmt, args...)};   \
  }                                                                                          \
  inline ::common::ErrorSummary NAME(const std::string& msg) { return {PYTYPE, "(" #NAME ") " + msg}; }
POT_DEFINE_PADDLE_ERROR(InvalidArgument, "ValueError")
POT_DEFINE_PADDLE_ERROR(NotFound, "RuntimeError")
POT_DEFINE_PADDLE_ERROR(OutOfRange, "IndexError")
POT_DEFINE_PADDLE_ERROR(AlreadyExists, "RuntimeError")
POT_DEFINE_PADDLE_ERROR(ResourceExhausted, "MemoryError")
POT_DEFINE_PADDLE_ERROR(PreconditionNotMet, "RuntimeError")
POT_DEFINE_PADDLE_ERROR(PermissionDenied, "RuntimeError")
POT_DEFINE_PADDLE_ERROR(ExecutionTimeout, "RuntimeError")
POT_DEFINE_PADDLE_ERROR(Unimplemented, "NotImplementedError")
POT_DEFINE_PADDLE_ERROR(Unavailable, "RuntimeError")
POT_DEFINE_PADDLE_ERROR(Fatal, "SystemError")
POT_DEFINE_PADDLE_ERROR(External, "OSError")
POT_DEFINE_PADDLE_ERROR(InvalidType, "TypeError")
#undef POT_DEFINE_PADDLE_ERROR
}  // namespace errors

[[noreturn]] inline void ThrowEnforce(const ErrorSummary& e, const char* file, int line) {
  throw EnforceNotMet(e.python_type, e.message + "\n  [" + file + ":" + std::to_string(line) + "]");
}
}  // namespace common

namespace phi {
namespace errors = ::common::errors;
}
namespace paddle {
namespace platform {
namespace errors = ::common::errors;
}
}  // namespace paddle

#if defined(__GNUC__) || defined(__clang__)
#define PD_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
#define PD_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#else
#define PD_UNLIKELY(expr) (expr)
#define PD_LIKELY(expr) (expr)
#endif

#define PD_CHECK(COND, ...)                                                                        \
  do {                                                                                             \
    if (PD_UNLIKELY(!(COND))) {                                                                    \
      throw ::common::PD_Exception(::common::ErrorMessage(__VA_ARGS__).to_string(), __FILE__, __LINE__, \
                                   "Expected " #COND ", but it's not satisfied.");                \
    }                                                                                              \
  } while (0)

#define PD_THROW(...)                                                                              \
  do {                                                                                             \
    throw ::common::PD_Exception(::common::ErrorMessage(__VA_ARGS__).to_string(), __FILE__, __LINE__, \
                                 "An error occurred.");                                            \
  } while (0)

#define PADDLE_THROW(ERR) ::common::ThrowEnforce((ERR), __FILE__, __LINE__)
#define PADDLE_ENFORCE(COND, ERR)                         \
  do {                                                    \
    if (PD_UNLIKELY(!(COND))) PADDLE_THROW(ERR);          \
  } while (0)
#define POT_ENFORCE_CMP(A, B, OP, ERR)                                                                       \
  do {                                                                                                       \
    if (PD_UNLIKELY(!((A)OP(B)))) {                                                                          \
      auto __summary__ = (ERR);                                                                              \
      __summary__.message += ::common::detail::Concat("\n  [Hint: Expected " #A " " #OP " " #B ", but received ", \
                                                      (A), " vs ", (B), ".]");                               \
      PADDLE_THROW(__summary__);                                                                             \
    }                                                                                                        \
  } while (0)
#define PADDLE_ENFORCE_EQ(A, B, ERR) POT_ENFORCE_CMP(A, B, ==, ERR)
#define PADDLE_ENFORCE_NE(A, B, ERR) POT_ENFORCE_CMP(A, B, !=, ERR)
#define PADDLE_ENFORCE_GT(A, B, ERR) POT_ENFORCE_CMP(A, B, >, ERR)
#define PADDLE_ENFORCE_GE(A, B, ERR) POT_ENFORCE_CMP(A, B, >=, ERR)
#define PADDLE_ENFORCE_LT(A, B, ERR) POT_ENFORCE_CMP(A, B, <, ERR)
#define PADDLE_ENFORCE_LE(A, B, ERR) POT_ENFORCE_CMP(A, B, <=, ERR)
#define PADDLE_ENFORCE_NOT_NULL(P, ERR) PADDLE_ENFORCE((P) != nullptr, ERR)
