// Helpers shared by the surface-syntax type checker tests (typecheck_test.cpp,
// typecheck_calls_test.cpp): parse a module and expect it to pass, or to fail with one exact
// TypeError at one exact line:col.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/errors.h"
#include "core/memory.h"
#include "core/parser.h"

namespace exocpp::typecheck_test {

// A memory only instructions may touch (like a vector register file).
class RegsMemory : public Memory {
 public:
  std::string name() const override { return "TC_REGS"; }
  bool can_read() const override { return false; }
};

inline Module parse(const std::string& src) {
  static bool registered = (register_memory(std::make_shared<RegsMemory>()), true);
  (void)registered;
  return parse_module(src, {}, "<tc>");
}

inline void expect_ok(const std::string& src) {
  try {
    parse(src);
  } catch (const Error& e) {
    ADD_FAILURE() << "unexpected error: " << e.what() << "\nin:\n" << src;
  }
}

inline void expect_type_error(const std::string& src, const std::string& reason, int line,
                              int col) {
  try {
    parse(src);
    ADD_FAILURE() << "expected TypeError: " << reason << "\nin:\n" << src;
  } catch (const TypeError& e) {
    EXPECT_EQ(e.reason(), reason) << src;
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_EQ(e.loc().col, col) << e.what();
  } catch (const Error& e) {
    ADD_FAILURE() << "expected TypeError, got: " << e.what();
  }
}

}  // namespace exocpp::typecheck_test
