// Every name an operation introduces goes through one validator (rw::check_new_name,
// rw::check_new_proc_name): keywords, non-names, empty names and names of procs or configs the
// proc refers to are refused with a SchedulingError naming the operation and the name.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "rewrites/rewrite_test_util.h"

namespace exocpp::testing {
namespace {

const char* kSrc = R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)";

const char* kTwoLoops = R"(
def g(N: size, A: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 8):
            A[i, j] = 1.0
)";

// Each bad name, with a phrase its refusal must contain.
struct BadName {
  std::string name, phrase;
};
const std::vector<BadName> kBadNames = {
    {"for", "keyword"},    {"if", "keyword"},          {"True", "keyword"},
    {"def", "keyword"},    {"and", "keyword"},         {"a b", "not a name"},
    {"c\n", "not a name"}, {"", "cannot be empty"},    {"1abc", "not a name"},
    {"x-y", "not a name"}, {"\xc3\xa9", "not a name"}, {"a.b", "not a name"},
};

// Runs `op` with every bad name; each must be refused by `op_name`, naming the name.
void expect_all_refused(const std::string& op_name,
                        const std::function<void(const std::string&)>& op) {
  for (const BadName& b : kBadNames) {
    SCOPED_TRACE("name '" + b.name + "'");
    expect_refused([&] { op(b.name); }, op_name, b.phrase);
  }
}

// Two allocations share a name (unroll_loop's copies keep theirs). Lifting the second out of
// the loop would put the first between it and its uses: printed and parsed back, those uses
// would read the first. Found by the soak (seed 765805452, through expand_dim afterwards).
TEST(TrustNames, LiftAllocRefusesToHideItsUsesBehindAnotherOfTheSameName) {
  Proc p = parse_proc(R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        for k in seq(0, 2):
            t: f32 @ DRAM
            t = A[i]
            A[i] = t + 1.0
)");
  p = unroll_loop(p, "k");
  expect_refused([&] { lift_alloc(p, "t #1"); }, "lift_alloc", "hides it");
}

TEST(TrustNames, DivideLoopRefusesBadNames) {
  Proc p = parse_proc(kSrc);
  expect_all_refused("divide_loop", [&](const std::string& n) {
    divide_loop(p, "i", 2, {n, "ii"});
  });
  expect_all_refused("divide_loop", [&](const std::string& n) {
    divide_loop(p, "i", 2, {"io", n});
  });
}

TEST(TrustNames, DivideLoopRefusalQuotesTheName) {
  Proc p = parse_proc(kSrc);
  expect_refused(
      [&] {
        divide_loop(p, "i", 2, {"for", "a b"});
      },
      "divide_loop", "'for' is not a valid new name");
}

TEST(TrustNames, StageMemRefusesBadNames) {
  Proc p = parse_proc(kSrc);
  expect_all_refused("stage_mem",
                     [&](const std::string& n) { stage_mem(p, p.find_loop("i"), "A[0:N]", n); });
}

TEST(TrustNames, BindExprRefusesBadNames) {
  Proc p = parse_proc(kSrc);
  expect_all_refused("bind_expr",
                     [&](const std::string& n) { bind_expr(p, p.find("A[_] = _").rhs(), n); });
}

TEST(TrustNames, AddLoopRefusesBadNames) {
  Proc p = parse_proc(kSrc);
  expect_all_refused("add_loop", [&](const std::string& n) {
    add_loop(p, p.find("A[_] = _"), n, "2", {.guard = true});
  });
}

TEST(TrustNames, MultLoopsRefusesBadNames) {
  Proc p = parse_proc(kTwoLoops);
  expect_all_refused("mult_loops", [&](const std::string& n) { mult_loops(p, "i", n); });
}

TEST(TrustNames, DivideWithRecomputeRefusesBadNames) {
  Proc p = parse_proc(kTwoLoops);
  expect_all_refused("divide_with_recompute", [&](const std::string& n) {
    divide_with_recompute(p, "j", "2", 4, {n, "ji"});
  });
}

TEST(TrustNames, Tile2dRefusesBadNames) {
  Proc p = parse_proc(kTwoLoops);
  expect_all_refused("divide_loop", [&](const std::string& n) {
    try {
      tile2d(p, "i j", {2, 2}, {n, "jo", "ii", "ji"});
    } catch (const SchedulingError& e) {
      // tile2d runs divide_loop: the refusal names the primitive that refused.
      throw SchedulingError("divide_loop", e, e.reason());
    }
  });
}

TEST(TrustNames, RenameRefusesBadNames) {
  Proc p = parse_proc(kSrc);
  for (const BadName& b : kBadNames) {
    SCOPED_TRACE("name '" + b.name + "'");
    expect_refused([&] { rename(p, b.name); }, "rename", "not a valid proc name");
  }
}

TEST(TrustNames, ExtractSubprocRefusesBadNames) {
  Proc p = parse_proc(kSrc);
  for (const BadName& b : kBadNames) {
    SCOPED_TRACE("name '" + b.name + "'");
    expect_refused([&] { extract_subproc(p, p.find_loop("i"), b.name); }, "extract_subproc",
                   b.phrase);
  }
}

TEST(TrustNames, ExtractSubprocRefusesTheCallersName) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { extract_subproc(p, p.find_loop("i"), "f"); }, "extract_subproc",
                 "proc 'f' itself");
}

const char* kCaller = R"(
def leaf(A: f32[4] @ DRAM):
    A[0] = 1.0

def mid(A: f32[4] @ DRAM):
    leaf(A)

def top(A: f32[4] @ DRAM):
    mid(A)
    A[1] = 2.0
)";

TEST(TrustNames, ExtractSubprocRefusesTheNameOfACallee) {
  Proc p = parse_module(kCaller).proc("top");
  expect_refused([&] { extract_subproc(p, p.find("A[_] = _"), "mid"); }, "extract_subproc",
                 "calls another proc");
  // ... also one called through another proc.
  expect_refused([&] { extract_subproc(p, p.find("A[_] = _"), "leaf"); }, "extract_subproc",
                 "calls another proc");
}

TEST(TrustNames, RenameRefusesTheNameOfACallee) {
  Proc p = parse_module(kCaller).proc("top");
  expect_refused([&] { rename(p, "leaf"); }, "rename", "calls another proc");
}

TEST(TrustNames, RenameToItsOwnNameIsAllowed) {
  Proc p = parse_module(kCaller).proc("top");
  EXPECT_EQ(rename(p, "top").name(), "top");
}

TEST(TrustNames, NewVariableNamedLikeACalleeIsRefused) {
  Proc p = parse_module(kCaller).proc("top");
  expect_refused([&] { bind_expr(p, p.find("A[_] = _").rhs(), "leaf"); }, "bind_expr",
                 "calls a proc of that name");
}

TEST(TrustNames, NewVariableNamedLikeAConfigIsRefused) {
  Proc p = parse_module(R"(
config Cfg:
    scale: f32

def h(A: f32[4] @ DRAM):
    for i in seq(0, 4):
        A[i] = Cfg.scale
)")
               .proc("h");
  expect_refused(
      [&] {
        divide_loop(p, "i", 2, {"Cfg", "ii"});
      },
      "divide_loop", "uses a config of that name");
}

TEST(TrustNames, NameVisibleAtTheTargetIsRefused) {
  Proc p = parse_proc(kTwoLoops);
  expect_refused([&] { add_loop(p, p.find("A[_] = _"), "j", "2", {.guard = true}); }, "add_loop",
                 "already used");
  expect_refused([&] { add_loop(p, p.find("A[_] = _"), "i", "2", {.guard = true}); }, "add_loop",
                 "already used");
  expect_refused([&] { stage_mem(p, p.find_loop("j"), "A[i, 0:8]", "N"); }, "stage_mem",
                 "already used");
}

TEST(TrustNames, ReplaceByAProcOfTheCallersNameIsRefused) {
  Proc g = parse_proc(R"(
def g(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)");
  expect_refused([&] { replace(g, g.body_cursor(), g); }, "replace", "same name as the caller");
}

TEST(TrustNames, InsertingACallOfAProcOfTheCallersNameIsRefused) {
  Module m = parse_module(R"(
def nop(N: size):
    pass

def f(N: size, A: f32[N] @ DRAM):
    pass
    for i in seq(0, N):
        A[i] = 1.0
)");
  Proc f = m.proc("f");
  Proc other = rename(m.proc("nop"), "f");
  expect_refused([&] { insert_noop_call(f, f.body_cursor()[0].after(), other, {"N"}); },
                 "insert_noop_call", "same name as the caller");
  Proc ok = insert_noop_call(f, f.body_cursor()[0].after(), m.proc("nop"), {"N"});
  for (int64_t n : {1, 3}) expect_equivalent(f, ok, {{"N", n}});
}

// Good names still work, and the result prints and parses back.
TEST(TrustNames, ValidNamesAreAccepted) {
  Proc p = parse_proc(kSrc);
  Proc q = divide_loop(p, "i", 2, {"_io", "ii2"}, {.tail = Tail::Guard});
  for (int64_t n : {1, 2, 5}) expect_equivalent(p, q, {{"N", n}});
  Proc r = rename(p, "f_2");
  expect_equivalent(p, r, {{"N", 3}});
}

}  // namespace
}  // namespace exocpp::testing
