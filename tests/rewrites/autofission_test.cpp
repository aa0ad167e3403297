// Tests of autofission: a loop made unnecessary is removed, a needed one stays (golden +
// equivalence), refusals keep fission's reasons under autofission's name.
#include "config_test_lib.h"
#include "rewrite_test_util.h"
#include "rewrites/fixtures.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

TEST(Autofission, RemovesALoopTheFirstHalfNoLongerNeeds) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        x = 2.0
        A[i] = 1.0
)");
  Proc q = autofission(p, p.body_cursor()[0].body()[0].after());
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(Autofission, KeepsLoopsThatAreNeeded) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        B[i] = 2.0
)");
  Proc q = autofission(p, p.body_cursor()[0].body()[0].after());
  EXPECT_EQ(to_string(q), to_string(fission(p, p.body_cursor()[0].body()[0].after())));
  expect_equivalent(p, q);
}

TEST(Autofission, RefusesWhatFissionRefuses) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
        B[i] = 2.0
)");
  expect_refused([&] { autofission(p, p.body_cursor()[0].body()[0].after(), {.n_lifts = 2}); },
                 "autofission", ErrorCode::NotProved, "stmt.no_enclosing_scope",
                 "n_lifts is too large");
}

}  // namespace

namespace {

TEST(Autofission, ForwardsCursorsIntoTheSecondLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N] @ DRAM, x: f32 @ DRAM):
    for i in seq(0, N):
        x = 2.0
        A[i] = 1.0
)");
  Cursor second = p.body_cursor()[0].body()[1];
  Proc q = autofission(p, p.body_cursor()[0].body()[0].after());
  Cursor fwd = q.forward(second);
  ASSERT_TRUE(fwd.is_valid());
  EXPECT_EQ(fwd.to_string(), "A[i] = 1.0");
  EXPECT_EQ(fwd.parent().stmt().kind(), StmtKind::For);
}

}  // namespace

namespace {

// A scratchpad memory standing in for Exo's GEMM_SCRATCH (test_ld): plain code may touch it, so
// the interpreter can compare the schedule with the original. Its own name: the memory registry
// is global, and exo_schedules_port_util.h registers a GEMM_SCRATCH plain code may not touch.
class ScratchMemory : public Memory {
 public:
  std::string name() const override { return "GEMM_SCRATCH_RW"; }
};

// Exo tests/test_config.py::test_config_fission: a loop-invariant config write is fissioned out of
// both loops, and the loops left around it alone are removed.
TEST(Autofission, ConfigWriteFissionedOutOfTwoLoops) {
  Module m = parse_module(std::string(kConfigLoad) + R"(
def foo(scale: f32 @ DRAM, n: size, m: size, A: f32[n, m] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, m):
            ConfigLoad.scale = scale
            tmp: f32 @ DRAM
            tmp = A[i, j]
            tmp = tmp * ConfigLoad.scale
)");
  Proc foo = m.proc("foo");
  Proc q = autofission(foo, foo.find("ConfigLoad.scale = _").after(), {.n_lifts = 2});
  EXPECT_EQ(printed(q),
            R"(def foo(scale: f32 @ DRAM, n: size, m: size, A: f32[n, m] @ DRAM):
    ConfigLoad.scale = scale
    for i in seq(0, n):
        for j in seq(0, m):
            tmp: f32 @ DRAM
            tmp = A[i, j]
            tmp = tmp * ConfigLoad.scale
)");
  expect_equivalent(foo, q);
}

// Exo tests/test_config.py::test_ld: a load with a scale, rewritten into a config instruction
// followed by a move-in instruction that reads the config. Exo's ld_i8 is itself an @instr; here it
// is a plain proc (its template plays no part in the schedule).
TEST(Autofission, GemminiLoadBecomesConfigAndMoveIn) {
  register_memory(std::make_shared<ScratchMemory>());
  Module lib = parse_module(std::string(kConfigLoad) + R"(
@instr("gemmini_extended3_config_ld({src_stride}, {scale}[0], 0, 0);")
def config_ld_i8(scale: f32 @ DRAM, src_stride: stride):
    ConfigLoad.scale = scale
    ConfigLoad.src_stride = src_stride

@instr("gemmini_extended_mvin({src_data}, ((uint64_t) {dst_data}), {m}, {n});")
def do_ld_i8(n: size, m: size, src: i8[n, m] @ DRAM, dst: i8[n, 16] @ GEMM_SCRATCH_RW):
    assert n <= 16
    assert m <= 16
    assert stride(src, 1) == 1
    assert stride(dst, 0) == 16
    assert stride(dst, 1) == 1
    assert stride(src, 0) == ConfigLoad.src_stride
    for i in seq(0, n):
        for j in seq(0, m):
            tmp: f32 @ DRAM
            tmp = src[i, j]
            tmp = tmp * ConfigLoad.scale
            dst[i, j] = tmp

def ld_i8(n: size, m: size, scale: f32 @ DRAM, src: i8[n, m] @ DRAM, dst: i8[n, 16] @ GEMM_SCRATCH_RW):
    assert n <= 16
    assert m <= 16
    assert stride(src, 1) == 1
    assert stride(dst, 0) == 16
    assert stride(dst, 1) == 1
    for i in seq(0, n):
        for j in seq(0, m):
            tmp: f32 @ DRAM
            tmp = src[i, j]
            tmp = tmp * scale
            dst[i, j] = tmp
)");
  const Config cfg = lib.config("ConfigLoad");
  Proc orig = lib.proc("ld_i8");
  Proc p = bind_config(orig, "scale", cfg, "scale");
  p = reorder_stmts(p, "tmp = src[_] ; ConfigLoad.scale = _");
  p = reorder_stmts(p, "tmp : _ ; ConfigLoad.scale = _");
  // Deliberate difference: Exo's autofission stops quietly at the top of the proc when
  // n_lifts exceeds the loops around the gap (Exo's test asks for 3 with two loops); exocpp
  // refuses that (docs/scheduling/loops.md), so the port asks for the 2 lifts there are.
  expect_refused([&] { autofission(p, p.find("ConfigLoad.scale = _").after(), {.n_lifts = 3}); },
                 "autofission", ErrorCode::NotProved, "stmt.no_enclosing_scope",
                 "n_lifts is too large");
  p = autofission(p, p.find("ConfigLoad.scale = _").after(), {.n_lifts = 2});
  const Proc unconfigured = p;
  p = write_config(p, p.find("ConfigLoad.scale = _").after(), cfg, "src_stride", "stride(src, 0)");
  expect_equivalent(orig, p, {}, ignoring_final_configs());
  // The move-in's assert on ConfigLoad.src_stride is proved from the write just made; the
  // same replace before that write is refused (the caller's value is unknown).
  expect_refused([&] { replace(unconfigured, "for i in _: _", lib.proc("do_ld_i8")); }, "replace",
                 ErrorCode::NotProved, "checker.refuted",
                 "stride(src, 0) == ConfigLoad.src_stride");
  p = replace(p, "for i in _: _", lib.proc("do_ld_i8"));
  p = replace(p, "ConfigLoad.scale = _ ; ConfigLoad.src_stride = _", lib.proc("config_ld_i8"));
  EXPECT_EQ(printed(p),
            R"(def ld_i8(n: size, m: size, scale: f32 @ DRAM, src: i8[n, m] @ DRAM,
          dst: i8[n, 16] @ GEMM_SCRATCH_RW):
    assert n <= 16
    assert m <= 16
    assert stride(src, 1) == 1
    assert stride(dst, 0) == 16
    assert stride(dst, 1) == 1
    config_ld_i8(scale, stride(src, 0))
    do_ld_i8(n, m, src, dst)
)");
  expect_equivalent(orig, p, {}, ignoring_final_configs());
}

}  // namespace
