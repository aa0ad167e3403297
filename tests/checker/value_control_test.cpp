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

TEST(DataInControl, AWindowOfAnIndexArgumentPassesIntoARangeThatHoldsIt) {
  const char* callee = R"(
def g(n: size, c: i32[4] @ DRAM in range(0, n), x: f32[n] @ DRAM, y: f32[4] @ DRAM):
    for j in seq(0, 4):
        y[j] = x[c[j]]
)";
  EXPECT_EQ(failure<CheckError>(std::string(callee) + R"(
def f(n: size, k: size, c: i32[4 * k] @ DRAM in range(0, n), x: f32[n] @ DRAM,
      y: f32[4 * k] @ DRAM):
    for jo in seq(0, k):
        g(n, c[4 * jo:4 * jo + 4], x, y[4 * jo:4 * jo + 4])
)"),
            "");
  std::string reason = failure<CheckError>(std::string(callee) + R"(
def f(n: size, k: size, c: i32[4 * k] @ DRAM in range(0, n + 1), x: f32[n + 1] @ DRAM,
      y: f32[4 * k] @ DRAM):
    for jo in seq(0, k):
        g(n, c[4 * jo:4 * jo + 4], x[0:n], y[4 * jo:4 * jo + 4])
)");
  EXPECT_NE(reason.find("may pass index values outside its range"), std::string::npos) << reason;
}

// The callee's reads through its index parameter are the caller's reads of its index
// argument (one unknown per element): the scatter below writes x[c[jo * 4 + j]] in each call,
// so two iterations of jo may write one element and the loop is not parallel.
TEST(DataInControl, ACalleesReadsOfAWindowedIndexArgumentAreTheCallersElements) {
  Proc p = parse_proc(R"(
def g(n: size, c: i32[4] @ DRAM in range(0, n), x: f32[n] @ DRAM):
    for j in seq(0, 4):
        x[c[j]] = 0.0

def f(n: size, k: size, c: i32[4 * k] @ DRAM in range(0, n), x: f32[n] @ DRAM):
    for jo in seq(0, k):
        g(n, c[4 * jo:4 * jo + 4], x)
)");
  Stmt l = loop(p, "jo");
  Answer par = loop_is_parallelizable(Context::at(p, l), l);
  ASSERT_TRUE(par.refuted()) << to_string(par);
  EXPECT_NE(par.counterexample.find("c["), std::string::npos) << par.counterexample;
}

}  // namespace
}  // namespace exocpp::checker::testing
