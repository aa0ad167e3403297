// Ports of the lift_if, lift_scope and stage_mem cases of Exo's tests/test_schedules.py. Each
// test names the Exo case it ports; the expected text is Exo's golden in our printer's layout,
// or, where we deliberately differ, our result with the reason.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kIfInIfInLoop = R"(def foo(n: size, x: R[n], i: index):
    for j in seq(0, n):
        if n > 20:
            if i < 10:
                x[j] = 1.0
)";

// ---- lift_if -----------------------------------------------------------------------------------

// test_lift_if_halfway: one lift moves the inner if above the outer one.
TEST(ExoScopesPort, LiftIfHalfway) {
  Proc foo = parse_proc(kIfInIfInLoop);
  Proc q = lift_if(foo, "if i < 10: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: index):
    for j in seq(0, n):
        if i < 10:
            if n > 20:
                x[j] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 25}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 12}, {"i", 11}});
}

// test_lift_if_in_else_branch_of_parent: the lifted if lives in the parent's else branch, so the
// parent is copied into both of its branches.
TEST(ExoScopesPort, LiftIfInElseBranchOfParent) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    if 10 < n:
        x[0] = 1.0
    else:
        if n < 20:
            x[0] = 2.0
        else:
            x[0] = 3.0
)");
  Proc q = lift_if(foo, "if n < 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    if n < 20:
        if 10 < n:
            x[0] = 1.0
        else:
            x[0] = 2.0
    else:
        if 10 < n:
            x[0] = 1.0
        else:
            x[0] = 3.0
)");
  expect_equivalent(foo, q, {{"n", 5}});
  expect_equivalent(foo, q, {{"n", 15}});
  expect_equivalent(foo, q, {{"n", 25}});
}

// test_lift_if_in_full_nest: both branches of the parent are ifs; the else one is lifted.
TEST(ExoScopesPort, LiftIfInFullNest) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    if 10 < n:
        if n < 15:
            x[0] = 1.0
        else:
            x[0] = 2.0
    else:
        if n < 20:
            x[0] = 3.0
        else:
            x[0] = 4.0
)");
  Proc q = lift_if(foo, "if n < 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM):
    if n < 20:
        if 10 < n:
            if n < 15:
                x[0] = 1.0
            else:
                x[0] = 2.0
        else:
            x[0] = 3.0
    else:
        if 10 < n:
            if n < 15:
                x[0] = 1.0
            else:
                x[0] = 2.0
        else:
            x[0] = 4.0
)");
  expect_equivalent(foo, q, {{"n", 5}});
  expect_equivalent(foo, q, {{"n", 12}});
  expect_equivalent(foo, q, {{"n", 17}});
  expect_equivalent(foo, q, {{"n", 25}});
}

// test_lift_if_middle: the outer if of the nest moves out of the loop.
TEST(ExoScopesPort, LiftIfMiddle) {
  Proc foo = parse_proc(kIfInIfInLoop);
  Proc q = lift_if(foo, "if n > 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: index):
    if n > 20:
        for j in seq(0, n):
            if i < 10:
                x[j] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 25}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 12}, {"i", 3}});
}

// test_lift_if_past_for: an if independent of the loop moves out of it.
TEST(ExoScopesPort, LiftIfPastFor) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n], i: index):
    for j in seq(0, n):
        if i < 10:
            x[j] = 1.0
)");
  Proc q = lift_if(foo, "if i < 10: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: index):
    if i < 10:
        for j in seq(0, n):
            x[j] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 4}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 7}, {"i", 12}});
}

// test_lift_if_past_if: two ifs without else swap.
TEST(ExoScopesPort, LiftIfPastIf) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n], i: index):
    assert i > 0
    if i < n:
        if i < 10:
            x[i] = 1.0
)");
  Proc q = lift_if(foo, "if i < 10: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: index):
    assert i > 0
    if i < 10:
        if i < n:
            x[i] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 5}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 15}, {"i", 12}});
}

// test_lift_if_past_if_then_for: two lifts, past the if and then past the loop.
TEST(ExoScopesPort, LiftIfPastIfThenFor) {
  Proc foo = parse_proc(kIfInIfInLoop);
  Proc q = lift_if(foo, "if i < 10: _", 2);
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: index):
    if i < 10:
        for j in seq(0, n):
            if n > 20:
                x[j] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 25}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 12}, {"i", 11}});
}

// test_lift_if_with_else_past_if: the lifted if's else branch gets its own copy of the parent.
TEST(ExoScopesPort, LiftIfWithElsePastIf) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n], i: size):
    assert n > 10
    if i < 10:
        if n > 20:
            x[i] = 1.0
        else:
            x[i] = 2.0
)");
  Proc q = lift_if(foo, "if n > 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: size):
    assert n > 10
    if n > 20:
        if i < 10:
            x[i] = 1.0
    else:
        if i < 10:
            x[i] = 2.0
)");
  expect_equivalent(foo, q, {{"n", 25}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 15}, {"i", 12}});
}

// test_lift_if_with_else_past_if_with_else: both ifs have an else; the parent's else branch is
// copied into both branches of the lifted if.
TEST(ExoScopesPort, LiftIfWithElsePastIfWithElse) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n], i: size):
    assert n > 10
    assert i < n
    if i < 10:
        if n > 20:
            x[i] = 1.0
        else:
            x[i] = 2.0
    else:
        x[i] = 3.0
)");
  Proc q = lift_if(foo, "if n > 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n] @ DRAM, i: size):
    assert n > 10
    assert i < n
    if n > 20:
        if i < 10:
            x[i] = 1.0
        else:
            x[i] = 3.0
    else:
        if i < 10:
            x[i] = 2.0
        else:
            x[i] = 3.0
)");
  expect_equivalent(foo, q, {{"n", 25}, {"i", 3}});
  expect_equivalent(foo, q, {{"n", 25}, {"i", 22}});
  expect_equivalent(foo, q, {{"n", 15}, {"i", 12}});
}

// test_lift_if_with_pass_body
TEST(ExoScopesPort, LiftIfWithPassBody) {
  Proc foo = parse_proc(R"(def foo(n: size):
    if 10 < n:
        if n < 20:
            pass
)");
  Proc q = lift_if(foo, "if n < 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    if n < 20:
        if 10 < n:
            pass
)");
  expect_equivalent(foo, q, {{"n", 5}});
  expect_equivalent(foo, q, {{"n", 15}});
}

// test_lift_if_with_pass_body_and_else
TEST(ExoScopesPort, LiftIfWithPassBodyAndElse) {
  Proc foo = parse_proc(R"(def foo(n: size):
    if 10 < n:
        if n < 20:
            pass
        else:
            pass
)");
  Proc q = lift_if(foo, "if n < 20: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size):
    if n < 20:
        if 10 < n:
            pass
    else:
        if 10 < n:
            pass
)");
  expect_equivalent(foo, q, {{"n", 15}});
  expect_equivalent(foo, q, {{"n", 25}});
}

// test_lift_if_dependency_error: Exo says "if statement depends on iteration variable".
TEST(ExoScopesPort, LiftIfDependencyError) {
  Proc foo = parse_proc(R"(def foo(m: size, x: R[m]):
    for i in seq(0, m):
        if i < 10:
            x[i] = 2.0
)");
  expect_refused([&] { lift_if(foo, "if i < 10: _"); }, "lift_if",
                 "the condition 'i < 10' depends on the loop variable i");
}

// test_lift_if_second_statement_in_else_error: Exo says "expected if statement to be directly
// nested in parent".
TEST(ExoScopesPort, LiftIfSecondStatementInElseError) {
  Proc foo = parse_proc(R"(def foo(m: size, x: R[m]):
    for i in seq(0, m):
        if m > 12:
            pass
        else:
            x[0] = 1.0
            if i < 10:
                x[i] = 2.0
)");
  expect_refused([&] { lift_if(foo, "if i < 10: _"); }, "lift_if",
                 "to be the only statement of its enclosing 'if m > 12: ...', which holds 2");
}

// test_lift_if_second_statement_in_for_error
TEST(ExoScopesPort, LiftIfSecondStatementInForError) {
  Proc foo = parse_proc(R"(def foo(m: size, x: R[m]):
    for i in seq(0, m):
        x[0] = 1.0
        if m > 12:
            pass
)");
  expect_refused([&] { lift_if(foo, "if m > 12: _"); }, "lift_if",
                 "to be the only statement of its enclosing 'for i in seq(0, m): ...', which "
                 "holds 2");
}

// test_lift_if_second_statement_in_then_error
TEST(ExoScopesPort, LiftIfSecondStatementInThenError) {
  Proc foo = parse_proc(R"(def foo(m: size, x: R[m]):
    for i in seq(0, m):
        if m > 12:
            x[0] = 1.0
            if i < 10:
                x[i] = 2.0
)");
  expect_refused([&] { lift_if(foo, "if i < 10: _"); }, "lift_if",
                 "to be the only statement of its enclosing 'if m > 12: ...', which holds 2");
}

// test_lift_if_too_high_error: Exo says "Cannot lift scope of top-level statement".
TEST(ExoScopesPort, LiftIfTooHighError) {
  Proc foo = parse_proc(R"(def foo(m: size, x: R[m], j: size):
    for i in seq(0, m):
        if j < 10:
            x[i] = 2.0
)");
  expect_refused([&] { lift_if(foo, "if j < 10: _", 2); }, "lift_if",
                 "the statement is at the top level of the proc");
}

// ---- lift_scope --------------------------------------------------------------------------------

// test_lift_scope: a loop moves out of an if without else.
TEST(ExoScopesPort, LiftScope) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n, n]):
    for j in seq(0, n):
        if j < 10:
            for i in seq(0, n):
                x[i, j] = 1.0
)");
  Proc q = lift_scope(foo, "for i in _: _");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: R[n, n] @ DRAM):
    for j in seq(0, n):
        for i in seq(0, n):
            if j < 10:
                x[i, j] = 1.0
)");
  expect_equivalent(foo, q, {{"n", 4}});
  expect_equivalent(foo, q, {{"n", 13}});
}

// test_lift_scope_lift_for_when_outer_if_has_noelse_error: Exo says "cannot lift for loop when
// if has an orelse clause".
TEST(ExoScopesPort, LiftScopeLiftForWhenOuterIfHasElseError) {
  Proc foo = parse_proc(R"(def foo(n: size, x: R[n]):
    if n < 10:
        for i in seq(0, n):
            x[i] = 1.0
    else:
        pass
)");
  expect_refused([&] { lift_scope(foo, "for i in _: _"); }, "lift_scope",
                 "cannot lift a loop out of an if that has an else branch");
}

// ---- stage_mem ---------------------------------------------------------------------------------

// test_stage_mem_assign
TEST(ExoScopesPort, StageMemAssign) {
  Proc foo = parse_proc(R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        result = x[i] + x[i]
)");
  Proc q = simplify(stage_mem(foo, "result = _ #1", "x[i]", "tile"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        tile: f32 @ DRAM
        tile = x[i]
        result = tile + tile
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 6}});
}

// test_stage_mem_assign2: a block of two statements.
TEST(ExoScopesPort, StageMemAssign2) {
  Proc foo = parse_proc(R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        result = x[i]
        result = x[i]
)");
  Proc q = simplify(stage_mem(foo, foo.find("result = _ #1").expand(0, 1), "x[i]", "tile"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        tile: f32 @ DRAM
        tile = x[i]
        result = tile
        result = tile
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 6}});
}

// test_stage_mem_reduce
TEST(ExoScopesPort, StageMemReduce) {
  Proc foo = parse_proc(R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        result += x[i] + x[i]
)");
  Proc q = simplify(stage_mem(foo, "result += _", "x[i]", "tile"));
  EXPECT_EQ(to_string(q), R"(def foo(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        tile: f32 @ DRAM
        tile = x[i]
        result += tile + tile
)");
  expect_equivalent(foo, q, {{"n", 1}});
  expect_equivalent(foo, q, {{"n", 6}});
}

// test_stage_mem_accum2: a 2-D window of a 3-D buffer, read and written back.
TEST(ExoScopesPort, StageMemAccum2) {
  Proc accum = parse_proc(R"(def accum(out: R[4, 16, 16], w: R[16], im: R[16]):
    for k in seq(0, 4):
        for i in seq(0, 16):
            for j in seq(0, 16):
                out[k, i, j] += w[j] * im[i]
)");
  Proc q = simplify(stage_mem(accum, "for i in _:_", "out[k, 0:16, 0:16]", "o"));
  EXPECT_EQ(to_string(q),
            R"(def accum(out: R[4, 16, 16] @ DRAM, w: R[16] @ DRAM, im: R[16] @ DRAM):
    for k in seq(0, 4):
        o: R[16, 16] @ DRAM
        for i0 in seq(0, 16):
            for i1 in seq(0, 16):
                o[i0, i1] = out[k, i0, i1]
        for i in seq(0, 16):
            for j in seq(0, 16):
                o[i, j] += w[j] * im[i]
        for i0 in seq(0, 16):
            for i1 in seq(0, 16):
                out[k, i0, i1] = o[i0, i1]
)");
  expect_equivalent(accum, q);
}

// test_stage_mem_twice: B staged once by bind_expr/expand_dim/autolift_alloc/autofission, then
// again by stage_mem. Exo's golden orders the index terms `4 * i + ii` (and `B1: R[4, 4]` has no
// memory); exocpp's simplify writes every index in Exo's normal form, `ii + 4 * i`
// (docs/exo-differences.md, "Printing"), the same sums. The long statement stays on one line.
TEST(ExoScopesPort, StageMemTwice) {
  Proc sqmat = parse_proc(R"(def sqmat(n: size, A: R[n, n], B: R[n, n]):
    assert n % 4 == 0
    for i in seq(0, n / 4):
        for j in seq(0, n / 4):
            for k in seq(0, n / 4):
                for ii in seq(0, 4):
                    for jj in seq(0, 4):
                        for kk in seq(0, 4):
                            A[4 * i + ii, 4 * j + jj] += (B[4 * i + ii, 4 * k + kk] * B[4 * k + kk, 4 * j + jj])
)");
  Proc p = bind_expr(sqmat, "B[4*i+ii,4*k+kk]", "B1");
  p = expand_dim(p, "B1 : _", "4", "kk");
  p = expand_dim(p, "B1 : _", "4", "ii");
  p = autolift_alloc(p, "B1 : _", {.n_lifts = 3});
  p = autofission(p, p.find("B1[_] = _").after(), {.n_lifts = 3});
  Proc q = simplify(stage_mem(p, "for ii in _: _ #1", "B[4*k:4*k+4, 4*j:4*j+4]", "B2"));
  EXPECT_EQ(to_string(q), R"(def sqmat(n: size, A: R[n, n] @ DRAM, B: R[n, n] @ DRAM):
    assert n % 4 == 0
    for i in seq(0, n / 4):
        for j in seq(0, n / 4):
            for k in seq(0, n / 4):
                B1: R[4, 4] @ DRAM
                for ii in seq(0, 4):
                    for kk in seq(0, 4):
                        B1[ii, kk] = B[ii + 4 * i, kk + 4 * k]
                B2: R[4, 4] @ DRAM
                for i0 in seq(0, 4):
                    for i1 in seq(0, 4):
                        B2[i0, i1] = B[i0 + 4 * k, i1 + 4 * j]
                for ii in seq(0, 4):
                    for jj in seq(0, 4):
                        for kk in seq(0, 4):
                            A[ii + 4 * i, jj + 4 * j] += B1[ii, kk] * B2[kk, jj]
)");
  expect_equivalent(sqmat, q, {{"n", 4}});
  expect_equivalent(sqmat, q, {{"n", 8}});
}

// test_stage_mem_recursive: the staged window is written and then read inside the block. Exo's
// printer breaks the long statements; ours keeps each on one line.
TEST(ExoScopesPort, StageMemRecursive) {
  Proc recursive = parse_proc(R"(def recursive(n: size, y: R[n] @ DRAM, x: R[n] @ DRAM):
    assert n > 2
    assert (-2 + n) % 4 == 0
    for io in seq(0, (-2 + n) / 4):
        y[2 + 4 * io] = y[1 + 4 * io] + y[4 * io] + x[4 * io]
        y[3 + 4 * io] = (y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io])
        y[4 + 4 * io] = (y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io]) + x[2 + 4 * io])
        y[5 + 4 * io] = (y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io]) + x[2 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io]) + x[3 + 4 * io])
)");
  Proc q = simplify(
      stage_mem(recursive, recursive.find_loop("io").body(), "y[2+4*io : 6+4*io]", "y_tmp"));
  EXPECT_EQ(to_string(q), R"(def recursive(n: size, y: R[n] @ DRAM, x: R[n] @ DRAM):
    assert n > 2
    assert (-2 + n) % 4 == 0
    for io in seq(0, (-2 + n) / 4):
        y_tmp: R[4] @ DRAM
        for i0 in seq(0, 4):
            y_tmp[i0] = y[2 + i0 + 4 * io]
        y_tmp[0] = y[1 + 4 * io] + y[4 * io] + x[4 * io]
        y_tmp[1] = y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io]
        y_tmp[2] = y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io]) + x[2 + 4 * io]
        y_tmp[3] = y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io]) + x[2 + 4 * io] + (y[1 + 4 * io] + y[4 * io] + x[4 * io] + y[1 + 4 * io] + x[1 + 4 * io]) + x[3 + 4 * io]
        for i0 in seq(0, 4):
            y[2 + i0 + 4 * io] = y_tmp[i0]
)");
  expect_equivalent(recursive, q, {{"n", 6}});
  expect_equivalent(recursive, q, {{"n", 14}});
}

// test_stage_mem_asum
TEST(ExoScopesPort, StageMemAsum) {
  Proc asum = parse_proc(R"(def asum(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        result += select(0.0, x[i], x[i], -x[i])
)");
  Proc q = simplify(stage_mem(asum, "result += _", "x[i]", "tile"));
  EXPECT_EQ(to_string(q), R"(def asum(n: size, x: [f32][n] @ DRAM, result: f32 @ DRAM):
    result = 0.0
    for i in seq(0, n):
        tile: f32 @ DRAM
        tile = x[i]
        result += select(0.0, tile, tile, -tile)
)");
  expect_equivalent(asum, q, {{"n", 1}});
  expect_equivalent(asum, q, {{"n", 6}});
}

// test_stage_mem_should_fail: Exo says "Buffer has accesses" (outside the window).
TEST(ExoScopesPort, StageMemShouldFail) {
  Proc foo = parse_proc(R"(def foo(x: i8[10, 10, 10]):
    for i in seq(0, 10):
        x[i, i, i] = 1.0
)");
  expect_refused([&] { stage_mem(foo, foo.find_loop("i"), "x[0:10, 0:2, 0:10]", "x_tmp"); },
                 "stage_mem", "does not cover every access of x in the block");
}

// test_stage_mem_should_fail2: a point window in the middle dimension.
TEST(ExoScopesPort, StageMemShouldFail2) {
  Proc foo = parse_proc(R"(def foo(x: i8[10, 10, 10]):
    y: i8
    for i in seq(0, 10):
        y = x[i, i, i]
)");
  expect_refused([&] { stage_mem(foo, foo.find_loop("i"), "x[0:10, 0, 0:10]", "x_tmp"); },
                 "stage_mem", "does not cover every access of x in the block");
}

// test_stage_mem_should_fail3: Exo says "Cannot stage" a buffer the block does not access.
TEST(ExoScopesPort, StageMemShouldFail3) {
  Proc foo = parse_proc(R"(def foo(x: i8[10, 10, 10], y: i8[10]):
    for i in seq(0, 10):
        x[i, i, i] = 0.0
)");
  expect_refused([&] { stage_mem(foo, foo.find_loop("i"), "y[0:10]", "y_tmp"); }, "stage_mem",
                 "'y' is not accessed in the block, nothing to stage");
}

// test_stage_mem_should_fail4: Exo says "Existing WindowExpr"; the block reads A through a window
// bound inside it.
TEST(ExoScopesPort, StageMemShouldFail4) {
  Proc foo = parse_proc(R"(def foo(N: size, A: i8[N, N]):
    sum_: i8
    for i in seq(0, N):
        for jo in seq(0, N / 4):
            for ji in seq(0, 4):
                A[i, 4 * jo + ji] = 0.0
                y = A[i : i + 1, 4 * jo + ji]
                sum_ += y[0]
)");
  expect_refused([&] { stage_mem(foo, "for ji in _:_", "A[i, 4*jo:4*jo+4]", "tile"); }, "stage_mem",
                 "the block accesses 'A' through the window 'y'");
}

// test_stage_mem_should_fail5: a window statement reaching outside the staged window.
TEST(ExoScopesPort, StageMemShouldFail5) {
  Proc foo = parse_proc(R"(def foo(N: size, A: i8[N, N]):
    for i in seq(0, N):
        for jo in seq(0, N / 4):
            for ji in seq(0, 4):
                A[i, 4 * jo + ji] = 0.0
                y = A[i : i + 4, 4 * jo + ji]
)");
  expect_refused([&] { stage_mem(foo, "for ji in _:_", "A[i-1:i+1, 4*jo:4*jo+4]", "tile"); },
                 "stage_mem", "does not cover every access of A in the block");
}

const char* kAxpy = R"(def axpy(n: size, x: f32[n], y: f32[n]):
    for i in seq(0, n):
        y[i] += x[i]
)";

// test_stage_mem_out_of_bound_block: the window may reach past x's end; the load is guarded.
TEST(ExoScopesPort, StageMemOutOfBoundBlock) {
  Proc axpy = parse_proc(kAxpy);
  Proc p = divide_loop(axpy, axpy.find_loop("i"), 5, {"io", "ii"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("io").body(), "x[5*io:5*io+5]", "xReg"));
  EXPECT_EQ(to_string(q), R"(def axpy(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for io in seq(0, (4 + n) / 5):
        xReg: f32[5] @ DRAM
        for i0 in seq(0, 5):
            if i0 + 5 * io < n:
                xReg[i0] = x[i0 + 5 * io]
        for ii in seq(0, 5):
            if ii + 5 * io < n:
                y[ii + 5 * io] += xReg[ii]
)");
  expect_equivalent(axpy, q, {{"n", 5}});
  expect_equivalent(axpy, q, {{"n", 12}});
}

// test_stage_mem_out_of_bound_point: a point window under the block's guard.
TEST(ExoScopesPort, StageMemOutOfBoundPoint) {
  Proc foo = parse_proc(R"(def foo(n: size, m: size, x: f32[n], y: f32[n]):
    assert m >= n
    for i in seq(0, m):
        if i < n:
            y[i] = x[i]
)");
  Proc q = stage_mem(foo, foo.find_loop("i").body(), "x[i]", "tmp");
  EXPECT_EQ(to_string(q), R"(def foo(n: size, m: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    assert m >= n
    for i in seq(0, m):
        tmp: f32 @ DRAM
        if i < n:
            tmp = x[i]
        if i < n:
            y[i] = tmp
)");
  expect_equivalent(foo, q, {{"n", 3}, {"m", 3}});
  expect_equivalent(foo, q, {{"n", 3}, {"m", 7}});
}

const char* kMemcpy = R"(def memcpy(n: size, x: f32[n], y: f32[n]):
    for i in seq(0, n):
        x[i] = y[i]
)";

const char* kMemcpy2D = R"(def memcpy_2D(m: size, n: size, x: f32[m, n], y: f32[m, n]):
    for i in seq(0, m):
        for j in seq(0, n):
            x[i, j] = y[i, j]
)";

// test_stage_mem_out_of_bounds_load_1D (Exo's get_1D_memcpy_tiled, then stage_mem).
TEST(ExoScopesPort, StageMemOutOfBoundsLoad1D) {
  Proc memcpy = parse_proc(kMemcpy);
  Proc p = divide_loop(memcpy, memcpy.find_loop("i"), 4, {"io", "ii"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("ii"), "y[4 * io:4 * io + 4]", "yReg"));
  EXPECT_EQ(to_string(q), R"(def memcpy(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for io in seq(0, (3 + n) / 4):
        yReg: f32[4] @ DRAM
        for i0 in seq(0, 4):
            if i0 + 4 * io < n:
                yReg[i0] = y[i0 + 4 * io]
        for ii in seq(0, 4):
            if ii + 4 * io < n:
                x[ii + 4 * io] = yReg[ii]
)");
  expect_equivalent(memcpy, q, {{"n", 4}});
  expect_equivalent(memcpy, q, {{"n", 7}});
}

// test_stage_mem_out_of_bounds_load_2D_one_cond (Exo's get_2D_mempcpy_1D_tiled).
TEST(ExoScopesPort, StageMemOutOfBoundsLoad2DOneCond) {
  Proc memcpy = parse_proc(kMemcpy2D);
  Proc p = divide_loop(memcpy, memcpy.find_loop("j"), 4, {"jo", "ji"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("ji"), "y[i, 4 * jo:4 * jo + 4]", "yReg"));
  EXPECT_EQ(to_string(q),
            R"(def memcpy_2D(m: size, n: size, x: f32[m, n] @ DRAM, y: f32[m, n] @ DRAM):
    for i in seq(0, m):
        for jo in seq(0, (3 + n) / 4):
            yReg: f32[4] @ DRAM
            for i0 in seq(0, 4):
                if i0 + 4 * jo < n:
                    yReg[i0] = y[i, i0 + 4 * jo]
            for ji in seq(0, 4):
                if ji + 4 * jo < n:
                    x[i, ji + 4 * jo] = yReg[ji]
)");
  expect_equivalent(memcpy, q, {{"m", 2}, {"n", 4}});
  expect_equivalent(memcpy, q, {{"m", 3}, {"n", 7}});
}

// test_stage_mem_out_of_bounds_load_2D_two_conds (Exo's get_2D_mempcpy_2D_tiled: both loops
// divided with guards, the j loops lifted out of the i guard and loop).
TEST(ExoScopesPort, StageMemOutOfBoundsLoad2DTwoConds) {
  Proc memcpy = parse_proc(kMemcpy2D);
  Cursor i_loop = memcpy.find_loop("i");
  Cursor j_loop = memcpy.find_loop("j");
  Proc p = divide_loop(memcpy, j_loop, 4, {"jo", "ji"}, {.tail = Tail::Guard});
  p = divide_loop(p, i_loop, 7, {"io", "ii"}, {.tail = Tail::Guard});
  p = lift_scope(p, j_loop);
  p = lift_scope(p, j_loop);
  Proc q =
      simplify(stage_mem(p, p.find_loop("ii"), "y[7 * io: 7 * io + 7, 4 * jo:4 * jo + 4]", "yReg"));
  EXPECT_EQ(to_string(q),
            R"(def memcpy_2D(m: size, n: size, x: f32[m, n] @ DRAM, y: f32[m, n] @ DRAM):
    for io in seq(0, (6 + m) / 7):
        for jo in seq(0, (3 + n) / 4):
            yReg: f32[7, 4] @ DRAM
            for i0 in seq(0, 7):
                for i1 in seq(0, 4):
                    if i0 + 7 * io < m and i1 + 4 * jo < n:
                        yReg[i0, i1] = y[i0 + 7 * io, i1 + 4 * jo]
            for ii in seq(0, 7):
                if ii + 7 * io < m:
                    for ji in seq(0, 4):
                        if ji + 4 * jo < n:
                            x[ii + 7 * io, ji + 4 * jo] = yReg[ii, ji]
)");
  expect_equivalent(memcpy, q, {{"m", 7}, {"n", 4}});
  expect_equivalent(memcpy, q, {{"m", 9}, {"n", 6}});
}

// test_stage_mem_out_of_bounds_store_1D: the block only writes the window, under a guard. exocpp
// loads the window first (docs/exo-differences.md, "stage_mem loads a window the block only
// writes"): the store copies the whole window back, so the load keeps what the block leaves
// unwritten. Exo's golden has no load.
TEST(ExoScopesPort, StageMemOutOfBoundsStore1D) {
  Proc memcpy = parse_proc(kMemcpy);
  Proc p = divide_loop(memcpy, memcpy.find_loop("i"), 4, {"io", "ii"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("ii"), "x[4 * io:4 * io + 4]", "xReg"));
  EXPECT_EQ(to_string(q), R"(def memcpy(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for io in seq(0, (3 + n) / 4):
        xReg: f32[4] @ DRAM
        for i0 in seq(0, 4):
            if i0 + 4 * io < n:
                xReg[i0] = x[i0 + 4 * io]
        for ii in seq(0, 4):
            if ii + 4 * io < n:
                xReg[ii] = y[ii + 4 * io]
        for i0 in seq(0, 4):
            if i0 + 4 * io < n:
                x[i0 + 4 * io] = xReg[i0]
)");
  expect_equivalent(memcpy, q, {{"n", 4}});
  expect_equivalent(memcpy, q, {{"n", 7}});
}

// test_stage_mem_out_of_bounds_reduction: load and store both guarded.
TEST(ExoScopesPort, StageMemOutOfBoundsReduction) {
  Proc axpy = parse_proc(kAxpy);
  Proc p = divide_loop(axpy, axpy.find_loop("i"), 5, {"io", "ii"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("ii"), "y[5*io:5*io+5]", "yReg"));
  EXPECT_EQ(to_string(q), R"(def axpy(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for io in seq(0, (4 + n) / 5):
        yReg: f32[5] @ DRAM
        for i0 in seq(0, 5):
            if i0 + 5 * io < n:
                yReg[i0] = y[i0 + 5 * io]
        for ii in seq(0, 5):
            if ii + 5 * io < n:
                yReg[ii] += x[ii + 5 * io]
        for i0 in seq(0, 5):
            if i0 + 5 * io < n:
                y[i0 + 5 * io] = yReg[i0]
)");
  expect_equivalent(axpy, q, {{"n", 5}});
  expect_equivalent(axpy, q, {{"n", 12}});
}

// test_stage_mem_out_of_bound_reduction_accum: zero-initialised, accumulated back under a guard.
TEST(ExoScopesPort, StageMemOutOfBoundReductionAccum) {
  Proc axpy = parse_proc(kAxpy);
  Proc p = divide_loop(axpy, axpy.find_loop("i"), 5, {"io", "ii"}, {.tail = Tail::Guard});
  Proc q = simplify(stage_mem(p, p.find_loop("ii"), "y[5*io:5*io+5]", "yReg", {.accum = true}));
  EXPECT_EQ(to_string(q), R"(def axpy(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for io in seq(0, (4 + n) / 5):
        yReg: f32[5] @ DRAM
        for i0 in seq(0, 5):
            yReg[i0] = 0.0
        for ii in seq(0, 5):
            if ii + 5 * io < n:
                yReg[ii] += x[ii + 5 * io]
        for i0 in seq(0, 5):
            if i0 + 5 * io < n:
                y[i0 + 5 * io] += yReg[i0]
)");
  expect_equivalent(axpy, q, {{"n", 5}});
  expect_equivalent(axpy, q, {{"n", 12}});
}

}  // namespace
