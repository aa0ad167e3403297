// The checker on value-dependent control (docs/checker.md, "Data in control"): reads through
// index arguments are in bounds by their declared range, a range too wide is refused with the
// data value it assumed, and a call passes index values only into a range that holds them.
#include "tests/checker/checker_test_util.h"

namespace exocpp::checker::testing {
namespace {

template <class E>
std::string failure(const std::string& src, std::string* cex = nullptr) {
  Proc p = parse_proc(src);
  try {
    check_proc(p);
  } catch (const E& e) {
    if (cex) *cex = e.counterexample();
    return e.reason();
  }
  return "";
}

TEST(DataInControl, IndirectReadsAndDataBoundsAreInBounds) {
  EXPECT_EQ(failure<BoundsError>(R"(
def spmv(m: size, n: size, nnz: size,
         rowptr: i32[m + 1] @ DRAM in range(0, nnz + 1),
         col: i32[nnz] @ DRAM in range(0, n), val: f32[nnz] @ DRAM,
         x: f32[n] @ DRAM, y: f32[m] @ DRAM):
    for i in seq(0, m):
        for j in seq(rowptr[i], rowptr[i + 1]):
            y[i] += val[j] * x[col[j]]
)"),
            "");
}

TEST(DataInControl, ARangeTooWideIsRefusedNamingTheValue) {
  std::string cex;
  std::string reason = failure<BoundsError>(R"(
def gather(n: size, k: size, col: i32[k] @ DRAM in range(0, n + 1), x: f32[n] @ DRAM,
           y: f32[k] @ DRAM):
    for j in seq(0, k):
        y[j] = x[col[j]]
)",
                                            &cex);
  EXPECT_NE(reason.find("the read `x[col[j]]` is out of bounds"), std::string::npos) << reason;
  EXPECT_NE(cex.find(", col["), std::string::npos) << cex;  // the element, by its index value
}

TEST(DataInControl, ADataBoundReachingPastTheBufferIsRefused) {
  std::string reason = failure<BoundsError>(R"(
def rows(m: size, nnz: size, rowptr: i32[m + 1] @ DRAM in range(0, nnz + 2),
         val: f32[nnz] @ DRAM, y: f32[m] @ DRAM):
    for i in seq(0, m):
        for j in seq(rowptr[i], rowptr[i + 1]):
            y[i] += val[j]
)");
  EXPECT_NE(reason.find("the read `val[j]` is out of bounds"), std::string::npos) << reason;
}

TEST(DataInControl, ACallPassesIndexValuesOnlyIntoARangeThatHoldsThem) {
  std::string reason = failure<CheckError>(R"(
def g(n: size, c: i32[4] @ DRAM in range(0, n), x: f32[n] @ DRAM):
    for j in seq(0, 4):
        x[c[j]] = 0.0

def f(n: size, c: i32[4] @ DRAM in range(0, n), x: f32[n] @ DRAM):
    assert n > 2
    g(n - 1, c, x[0:n - 1])
)");
  EXPECT_NE(reason.find("may pass index values outside its range"), std::string::npos) << reason;
}

}  // namespace
}  // namespace exocpp::checker::testing
