// paddle_on_torch: the export and helper macros of Paddle's headers (nothing is exported from a library here).
#pragma once

#ifndef PADDLE_API
#define PADDLE_API
#endif
#ifndef TEST_API
#define TEST_API
#endif
#ifndef UNUSED
#define UNUSED __attribute__((unused))
#endif
#define DISABLE_COPY_AND_ASSIGN(classname)         \
 private:                                          \
  classname(const classname&) = delete;            \
  classname(classname&&) = delete;                 \
  classname& operator=(const classname&) = delete; \
  classname& operator=(classname&&) = delete
