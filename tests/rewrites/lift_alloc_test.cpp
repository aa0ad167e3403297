// lift_alloc and sink_alloc: golden results, refusals with their messages, forwarding and
// interpreter equivalence.
#include "rewrite_test_util.h"
#include "rewrites/buffers.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// t is fully overwritten before it is read in every iteration: liftable.
const char* kTmp = R"(def f(N: size, A: f32[N, 4] @ DRAM, B: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 4):
            t: f32[4] @ DRAM
            for k in seq(0, 4):
                t[k] = A[i, k] * 2.0
            B[i, j] = t[j]
)";

// s carries a value from one iteration to the next: not liftable.
const char* kCarry = R"(def g(N: size, A: f32[N] @ DRAM):
    s: f32 @ DRAM
    s = 0.0
    for i in seq(0, N):
        s += A[i]
        A[i] = s
)";

const char* kSinkOk = R"(def h(N: size, A: f32[N] @ DRAM):
    t: f32 @ DRAM
    for i in seq(0, N):
        t = A[i]
        A[i] = t * t
)";

TEST(LiftAlloc, LiftsOutOfOneLoop) {
  Proc p = parse_proc(kTmp);
  Cursor t = p.body_cursor()[0].body()[0].body()[0];
  Proc q = lift_alloc(p, t);
  expect_golden("LiftAlloc_One", to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

// Each iteration of j writes t[k] just before reading it in the same iteration of k: no value
// crosses iterations of j, so t may serve them all (Exo's x86 matmul, lift_alloc n_lifts=2).
TEST(LiftAlloc, LiftsPastAWriteThatPrecedesItsReadInAnInnerLoop) {
  Proc p = parse_proc(R"(def f(N: size, M: size, x: f32[N] @ DRAM, y: f32[N, M, 4] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            t: f32[4] @ DRAM
            for k in seq(0, 4):
                t[k] = x[i] * 3.0
                y[i, j, k] += t[k]
)");
  Proc q = lift_alloc(p, p.body_cursor()[0].body()[0].body()[0], {.n_lifts = 2});
  expect_golden("LiftAlloc_InnerKill", to_string(q));
  for (int64_t n : {1, 3})
    for (int64_t m : {1, 2}) expect_equivalent(p, q, {{"N", n}, {"M", m}});
}

// A scalar fully overwritten at the top of each iteration, inside an if.
const char* kTwo = R"(def f(N: size, A: f32[N] @ DRAM):
    if N > 2:
        for i in seq(0, N):
            t: f32 @ DRAM
            t = A[i]
            A[i] = t * 2.0
)";

TEST(LiftAlloc, LiftsOutOfALoopAndAnIfWithNLifts) {
  Proc p = parse_proc(kTwo);
  Cursor t = p.body_cursor()[0].body()[0].body()[0];
  Proc q = lift_alloc(p, t, {.n_lifts = 2});
  expect_golden("LiftAlloc_Two", to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
}

TEST(LiftAlloc, LiftsOutOfAnIf) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        if i < 2:
            t: f32 @ DRAM
            t = A[i]
            A[i] = t + t
)");
  Proc q = lift_alloc(p, p.body_cursor()[0].body()[0].body()[0]);
  expect_golden("LiftAlloc_If", to_string(q));
  expect_equivalent(p, q, {{"N", 4}});
}

TEST(LiftAlloc, RefusesWhenAnIterationReadsAnEarlierOnesValue) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32[2] @ DRAM
        t[0] = A[i]
        if i > 0:
            A[i] = t[1]
        t[1] = t[0]
)");
  expect_refused([&] { lift_alloc(p, p.body_cursor()[0].body()[0]); }, "lift_alloc",
                 "can serve every iteration");
}

// A double buffer: each iteration writes, then reads, half i % 2 of t; that index names no
// iterator of the writing loops, so the write covers what the read reads.
const char* kDoubleBuffer = R"(def f(N: size, A: f32[N, 4] @ DRAM, x: f32[4] @ DRAM):
    for i in seq(0, N):
        t: f32[2, 4] @ DRAM
        for j in seq(0, 4):
            t[i % 2, j] = A[i, j]
        for j in seq(0, 4):
            x[j] += t[READ, j]
)";

std::string double_buffer(const std::string& read) {
  std::string s = kDoubleBuffer;
  return s.replace(s.find("READ"), 4, read);
}

TEST(LiftAlloc, LiftsADoubleBufferEachIterationWritesBeforeReading) {
  Proc p = parse_proc(double_buffer("i % 2"));
  Proc q = lift_alloc(p, "t");
  expect_equivalent(p, q);
}

TEST(LiftAlloc, RefusesADoubleBufferReadOfThePreviousIterationsHalf) {
  Proc p = parse_proc(double_buffer("(i + 1) % 2"));
  expect_refused([&] { lift_alloc(p, "t"); }, "lift_alloc", "may be read by a later one");
}

TEST(LiftAlloc, RefusesAShapeDependingOnTheLoopVariable) {
  // The parser refuses such shapes, so the allocation t: f32[i + 1] is built by hand.
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        t: f32[1] @ DRAM
        t[0] = A[i]
        A[i] = t[0]
)");
  const ForNode* loop = p.body()[0].as<ForNode>();
  const AllocNode* t = loop->body[0].as<AllocNode>();
  Expr i1 = BinOpNode::make(BinOpKind::Add, ReadNode::make(loop->iter, {}, Type(ScalarKind::Index)),
                            ConstNode::make_int(1));
  Stmt bad = AllocNode::make(t->name, Type(t->type.base, {i1}), t->mem);
  Proc q =
      derive_proc(p, replace_stmts(p.body(), {{0, BlockField::Body}}, 0, 1, {bad}), fwd_identity());
  expect_refused([&] { lift_alloc(q, q.body_cursor()[0].body()[0]); }, "lift_alloc",
                 "depends on i");
}

TEST(LiftAlloc, RefusesMoreLiftsThanEnclosingScopes) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { lift_alloc(p, p.body_cursor()[0].body()[0].body()[0], {.n_lifts = 3}); },
                 "lift_alloc", "only 2 loops or ifs enclose it");
}

TEST(LiftAlloc, RefusesAParLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in par(0, N):
        t: f32 @ DRAM
        t = A[i]
        A[i] = t + t
)");
  expect_refused([&] { lift_alloc(p, p.body_cursor()[0].body()[0]); }, "lift_alloc", "par loop");
}

TEST(LiftAlloc, RefusesAStatementThatIsNotAnAllocation) {
  Proc p = parse_proc(kTmp);
  expect_refused([&] { lift_alloc(p, p.body_cursor()[0].body()[0].body()[1]); }, "lift_alloc",
                 "expected an allocation");
}

TEST(LiftAlloc, ForwardsTheAllocationAndItsLoop) {
  Proc p = parse_proc(kTwo);
  Cursor t = p.body_cursor()[0].body()[0].body()[0];
  Cursor assign = p.body_cursor()[0].body()[0].body()[1];
  Proc q = lift_alloc(p, t, {.n_lifts = 2});
  EXPECT_EQ(q.forward(t).loc(), q.body_cursor()[0].loc());
  EXPECT_EQ(q.forward(assign).loc(), q.body_cursor()[1].body()[0].body()[0].loc());
  EXPECT_EQ(q.forward(p.body_cursor()[0]).loc(), q.body_cursor()[1].loc());
}

TEST(SinkAlloc, SinksIntoTheFollowingLoop) {
  Proc p = parse_proc(kSinkOk);
  Proc q = sink_alloc(p, p.body_cursor()[0]);
  expect_golden("SinkAlloc_Loop", to_string(q));
  expect_equivalent(p, q, {{"N", 4}});
}

TEST(SinkAlloc, SinksIntoBothBranchesOfAnIf) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    t: f32 @ DRAM
    if N > 2:
        t = A[0]
        A[1] = t
    else:
        t = A[1]
        A[0] = t
)");
  Proc q = sink_alloc(p, p.body_cursor()[0]);
  expect_golden("SinkAlloc_If", to_string(q));
  expect_equivalent(p, q, {{"N", 3}});
  expect_equivalent(p, q, {{"N", 2}});
}

TEST(SinkAlloc, RefusesAValueCarriedAcrossIterations) {
  Proc p = parse_proc(kCarry);
  Proc q = parse_proc(R"(def g(N: size, A: f32[N] @ DRAM):
    s: f32 @ DRAM
    for i in seq(0, N):
        if i == 0:
            s = 0.0
        s += A[i]
        A[i] = s
)");
  expect_refused([&] { sink_alloc(q, q.body_cursor()[0]); }, "sink_alloc",
                 "written by an earlier one");
  (void)p;
}

TEST(SinkAlloc, RefusesWhenUsedAfterTheLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    t: f32 @ DRAM
    for i in seq(0, N):
        t = A[i]
    A[0] = t
)");
  expect_refused([&] { sink_alloc(p, p.body_cursor()[0]); }, "sink_alloc",
                 "is used after the loop");
}

TEST(SinkAlloc, RefusesWhenNoLoopOrIfFollows) {
  Proc p = parse_proc(kCarry);
  expect_refused([&] { sink_alloc(p, p.body_cursor()[0]); }, "sink_alloc",
                 "must be a loop or an if");
}

TEST(SinkAlloc, ForwardsTheAllocationIntoTheLoop) {
  Proc p = parse_proc(kSinkOk);
  Cursor t = p.body_cursor()[0];
  Cursor assign = p.body_cursor()[1].body()[0];
  Proc q = sink_alloc(p, t);
  EXPECT_EQ(q.forward(t).loc(), q.body_cursor()[0].body()[0].loc());
  EXPECT_EQ(q.forward(assign).loc(), q.body_cursor()[0].body()[1].loc());
}

TEST(LiftAlloc, SinkThenLiftRestoresTheProc) {
  Proc p = parse_proc(kSinkOk);
  Proc q = lift_alloc(sink_alloc(p, p.body_cursor()[0]), p.body_cursor()[0]);
  EXPECT_EQ(to_string(q), to_string(p));
}

// Lifting out of a par loop would make its iterations share the buffer: NotProved
// alloc.shared_by_parallel.
TEST(LiftAlloc, LiftingOutOfAParLoopIsNotProvedAllocSharedByParallel) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM):
    for i in par(0, N):
        t: f32 @ DRAM
        t = A[i]
        A[i] = t + t
)");
  expect_refused([&] { lift_alloc(p, p.body_cursor()[0].body()[0]); }, "lift_alloc",
                 ErrorCode::NotProved, "alloc.shared_by_parallel");
}

}  // namespace
