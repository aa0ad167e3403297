// stage_window (Exo's): a call's window argument staged into a new buffer around the call.
#include "rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kScaleRows = R"(def scale(x: [f32][16] @ DRAM):
    for j in seq(0, 16):
        x[j] = x[j] * 2.0

def f(n: size, A: f32[n, 16] @ DRAM):
    for i in seq(0, n):
        scale(A[i, 0:16])
)";

TEST(StageWindow, CopiesTheWindowInAndOutAroundTheCall) {
  Module m = parse_module(kScaleRows);
  Proc p = m.proc("f");
  Cursor win = p.find("scale(_)").args()[0];
  Proc q = stage_window(p, win, "row");
  const std::string text = to_string(q);
  EXPECT_NE(text.find("row: f32[16] @ DRAM"), std::string::npos) << q;
  EXPECT_NE(text.find("row[i0] = A[i, i0]"), std::string::npos) << q;  // the call reads it
  EXPECT_NE(text.find("scale(row[0:16])"), std::string::npos) << q;
  EXPECT_NE(text.find("A[i, i0] = row[i0]"), std::string::npos) << q;  // and writes it
  for (int64_t n : {1, 3}) expect_equivalent(p, q, {{"n", n}});
}

TEST(StageWindow, PutsTheBufferInTheMemoryNamed) {
  Module m = parse_module(kScaleRows);
  Proc p = m.proc("f");
  Proc q = stage_window(p, p.find("scale(_)").args()[0], "row", "DRAM_STATIC");
  EXPECT_NE(to_string(q).find("row: f32[16] @ DRAM_STATIC"), std::string::npos) << q;
}

TEST(StageWindow, RefusesAnExpressionThatIsNotAWindow) {
  Proc p = parse_proc(R"(def f(n: size, A: f32[n] @ DRAM):
    for i in seq(0, n):
        A[i] = 1.0
)");
  expect_refused([&] { stage_window(p, p.find("A[_] = _").rhs(), "t"); }, "stage_window",
                 ErrorCode::BadArgument, "target.wrong_kind", "window expression");
}

}  // namespace
