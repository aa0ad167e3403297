// Every name an operation introduces goes through one validator (rw::check_new_name):
// names every operation accepts.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "rewrites/fixtures.h"
#include "rewrites/rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// Trust (new names): every introduced name goes through rw::check_new_name.
// Good names still work, and the result prints and parses back.
TEST(NewNames, ValidNamesAreAccepted) {
  Proc p = parse_proc(kNamesSrc);
  Proc q = divide_loop(p, "i", 2, {"_io", "ii2"}, {.tail = Tail::Guard});
  for (int64_t n : {1, 2, 5}) expect_equivalent(p, q, {{"N", n}});
  Proc r = rename(p, "f_2");
  expect_equivalent(p, r, {{"N", 3}});
}

}  // namespace
