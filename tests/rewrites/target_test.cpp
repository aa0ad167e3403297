// Every operation resolves its target through one resolver (core/pattern.h, find_target): each
// target form (shorthand, full pattern, "#n", a cursor, a one-statement block) names the same
// thing in every operation that accepts that kind, and a target of the wrong kind is refused
// saying what was expected and what was found. Each accepted result is checked in the
// interpreter against the input.
#include <functional>

#include "rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// Two nests of the same names: a form that ignored "#1" would act on the first.
const char* kNests = R"(def f(N: size, A: f32[8, 8] @ DRAM, B: f32[8, 8] @ DRAM):
    for i in seq(0, 8):
        for j in seq(0, 8):
            A[i, j] = 1.0
    for i in seq(0, 8):
        for j in seq(0, 8):
            B[i, j] = A[i, j] * 2.0
)";

// Two allocations of the same name.
const char* kAllocs = R"(def g(A: f32[8] @ DRAM):
    for i in seq(0, 8):
        t: f32[4] @ DRAM
        for k in seq(0, 4):
            t[k] = A[i]
        A[i] = t[3]
    for i in seq(0, 8):
        t: f32[4] @ DRAM
        for k in seq(0, 4):
            t[k] = A[i] * 2.0
        A[i] = t[1] + t[2]
)";

using Op = std::function<Proc(const Proc&, const CursorLike&)>;
struct NamedOp {
  std::string name;
  Op run;
};

// Applies every op with every form; all forms must give the result of the first form, the
// result must compute what the input computes, and it must differ from the result on `other`
// (a target the "#n" in the forms rules out).
void expect_forms_agree(const Proc& p, const std::vector<NamedOp>& ops,
                        const std::vector<CursorLike>& forms, const CursorLike& other) {
  for (const NamedOp& op : ops) {
    SCOPED_TRACE(op.name);
    Proc first = op.run(p, forms.front());
    expect_equivalent(p, first);
    for (const CursorLike& form : forms) {
      SCOPED_TRACE(form.describe());
      EXPECT_EQ(to_string(op.run(p, form)), to_string(first));
    }
    EXPECT_NE(to_string(op.run(p, other)), to_string(first));
  }
}

TEST(TargetForms, LoopFormsNameTheSameLoopInEveryLoopOperation) {
  Proc p = parse_proc(kNests);
  std::vector<NamedOp> ops = {
      {"divide_loop",
       [](const Proc& q, const CursorLike& t) {
         return divide_loop(q, t, 4, {"io", "ii"}, {.perfect = true});
       }},
      {"cut_loop", [](const Proc& q, const CursorLike& t) { return cut_loop(q, t, "3"); }},
      {"shift_loop", [](const Proc& q, const CursorLike& t) { return shift_loop(q, t, "1"); }},
      {"parallelize_loop",
       [](const Proc& q, const CursorLike& t) { return parallelize_loop(q, t); }},
      {"unroll_loop", [](const Proc& q, const CursorLike& t) { return unroll_loop(q, t); }},
  };
  Cursor loop = p.find("for i in _: _ #1");
  expect_forms_agree(p, ops, {"i #1", "for i in _: _ #1", loop, loop.as_block(), "i #1 "}, "i");
}

TEST(TargetForms, LoopNestFormsNameTheSameNestInEveryNestOperation) {
  Proc p = parse_proc(kNests);
  std::vector<NamedOp> ops = {
      {"reorder_loops", [](const Proc& q, const CursorLike& t) { return reorder_loops(q, t); }},
      {"mult_loops", [](const Proc& q, const CursorLike& t) { return mult_loops(q, t, "k"); }},
      {"tile2d",
       [](const Proc& q, const CursorLike& t) {
         return tile2d(q, t, {4, 4}, {"io", "jo", "ii", "ji"});
       }},
  };
  Cursor nest = p.find("for i in _: _ #1");
  expect_forms_agree(p, ops, {"i j #1", "for i in _: _ #1", nest, "i #1", "i  j  # 1"}, "i j");
}

TEST(TargetForms, BlockFormsNameTheSameStatementsInEveryBlockOperation) {
  Proc p = parse_proc(kNests);
  std::vector<NamedOp> ops = {
      {"specialize",
       [](const Proc& q, const CursorLike& t) { return specialize(q, t, {"N > 2"}); }},
      {"add_loop", [](const Proc& q,
                      const CursorLike& t) { return add_loop(q, t, "r", "2", {.guard = true}); }},
  };
  Cursor loop = p.find("for i in _: _ #1");
  expect_forms_agree(p, ops, {"i #1", "for i in _: _ #1", loop, loop.as_block()}, "i");
}

TEST(TargetForms, GapFormsNameTheSameGapInEveryGapOperation) {
  Proc p = parse_proc(kNests);
  std::vector<NamedOp> ops = {
      {"insert_pass", [](const Proc& q, const CursorLike& t) { return insert_pass(q, t); }},
  };
  Cursor inner = p.find("for j in _: _ #0");
  expect_forms_agree(p, ops, {"j #0", "for j in _: _", inner, inner.after()}, "j #1");
}

TEST(TargetForms, AllocFormsNameTheSameAllocationInEveryBufferOperation) {
  Proc p = parse_proc(kAllocs);
  std::vector<NamedOp> ops = {
      {"divide_dim", [](const Proc& q, const CursorLike& t) { return divide_dim(q, t, 0, 2); }},
      {"lift_alloc", [](const Proc& q, const CursorLike& t) { return lift_alloc(q, t); }},
      {"expand_dim", [](const Proc& q, const CursorLike& t) { return expand_dim(q, t, "8", "i"); }},
      {"set_memory",
       [](const Proc& q, const CursorLike& t) { return set_memory(q, t, "DRAM_STACK"); }},
  };
  Cursor alloc = p.find("t: _ #1");
  expect_forms_agree(p, ops, {"t #1", "t: _ #1", "t: f32[_] #1", alloc, alloc.as_block()}, "t");
}

TEST(TargetForms, ExprFormsNameTheSameExpressionInEveryExpressionOperation) {
  Proc p = parse_proc(kAllocs);
  std::vector<NamedOp> ops = {
      {"bind_expr", [](const Proc& q, const CursorLike& t) { return bind_expr(q, t, "y"); }},
      {"commute_expr", [](const Proc& q, const CursorLike& t) { return commute_expr(q, {t}); }},
  };
  Cursor e = p.find("_ * _ #0");
  expect_forms_agree(p, ops, {"_ * _", "A[_] * 2.0", "A[i] * _ #0", e}, "t[1] + t[2]");
}

// ---- The wrong kind --------------------------------------------------------------------------

TEST(TargetForms, ALoopOperationRefusesAnExpression) {
  Proc p = parse_proc(kNests);
  expect_refused(
      [&] {
        divide_loop(p, "A[_] * _", 2, {"io", "ii"});
      },
      "divide_loop", ErrorCode::BadArgument, "target.wrong_kind",
      "expected a loop, but 'A[_] * _' is an expression 'A[i, j] * 2.0'");
}

TEST(TargetForms, ALoopOperationRefusesALoopPair) {
  Proc p = parse_proc(kNests);
  expect_refused([&] { unroll_loop(p, "i j"); }, "unroll_loop", ErrorCode::BadArgument,
                 "target.wrong_kind", "expected a loop, but 'i j' names a nest of two loops");
}

TEST(TargetForms, ALoopOperationRefusesAnAssignment) {
  Proc p = parse_proc(kNests);
  expect_refused([&] { unroll_loop(p, "A[_] = _"); }, "unroll_loop", ErrorCode::BadArgument,
                 "target.wrong_kind",
                 "expected a loop, but 'A[_] = _' is an assignment 'A[i, j] = 1.0'");
}

TEST(TargetForms, ANestOperationRefusesALoopWithoutAnInnerLoop) {
  Proc p = parse_proc(kNests);
  expect_refused([&] { reorder_loops(p, "j"); }, "reorder_loops", ErrorCode::BadArgument,
                 "target.wrong_kind",
                 "expected a nest of two loops (a loop whose body is exactly one loop), but the "
                 "body of loop j ('j') is not one loop");
}

TEST(TargetForms, ANestPatternNamesItsCountInTheRefusal) {
  Proc p = parse_proc(kNests);
  expect_refused([&] { reorder_loops(p, "i j #2"); }, "reorder_loops", ErrorCode::NotFound,
                 "target.count",
                 "pattern 'i j #2' asks for match #2 (counting from 0), but there are only 2 loop "
                 "over i whose only statement is a loop over j");
}

TEST(TargetForms, ABlockOperationRefusesAnExpression) {
  Proc p = parse_proc(kNests);
  expect_refused([&] { specialize(p, "A[_]", {"N > 2"}); }, "specialize", ErrorCode::BadArgument,
                 "target.wrong_kind",
                 "expected a block of statements, but 'A[_]' is an expression");
}

TEST(TargetForms, AGapOperationRefusesAnExpression) {
  Proc p = parse_proc(kNests);
  expect_refused([&] { insert_pass(p, "A[_] #0"); }, "insert_pass", ErrorCode::BadArgument,
                 "target.wrong_kind",
                 "expected a gap between statements, but 'A[_] #0' is an expression");
}

TEST(TargetForms, AnAllocOperationRefusesALoop) {
  Proc p = parse_proc(kAllocs);
  expect_refused([&] { lift_alloc(p, "for k in _: _"); }, "lift_alloc", ErrorCode::BadArgument,
                 "target.wrong_kind",
                 "expected an allocation or argument, but 'for k in _: _' is a loop 'for k in "
                 "seq(0, 4): ...'");
}

TEST(TargetForms, AnExprOperationRefusesAStatement) {
  Proc p = parse_proc(kAllocs);
  expect_refused([&] { bind_expr(p, "t[_] = _", "y"); }, "bind_expr", ErrorCode::BadArgument,
                 "target.wrong_kind",
                 "expected an expression, but 't[_] = _' is an assignment 't[k] = A[i]'");
}

TEST(TargetForms, ACursorOfTheWrongKindIsRefusedLikeAPattern) {
  Proc p = parse_proc(kNests);
  Cursor e = p.find("A[_] * _");
  expect_refused([&] { unroll_loop(p, e); }, "unroll_loop", ErrorCode::BadArgument,
                 "target.wrong_kind",
                 "expected a loop, but cursor 'A[i, j] * 2.0' is an expression");
}

TEST(TargetForms, ACountBeyondTheMatchesIsRefusedWithTheCount) {
  Proc p = parse_proc(kNests);
  expect_refused([&] { unroll_loop(p, "i #5"); }, "unroll_loop", ErrorCode::NotFound,
                 "target.count",
                 "asks for match #5 (counting from 0), but 'for i in _: _' has only 2 matches");
}

}  // namespace
