// Emission proves what it is handed (driver/lower.cpp, require_proved_input): a proc that
// `exocpp check` refuses, or whose par loop's iterations conflict, is refused with a located
// CodegenError naming the proc, whether it was parsed, renamed or scheduled, and before any
// file is written.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "tests/codegen/codegen_test_util.h"

namespace exocpp {
namespace {

using codegen_test::proc_of;

// The CodegenError emitting `procs` raises; a failure when none is raised.
CodegenError refusal(const std::vector<Proc>& procs) {
  try {
    compile_procs_to_c(procs, "lib");
  } catch (const CodegenError& e) {
    return e;
  }
  ADD_FAILURE() << "no CodegenError";
  return CodegenError({}, "");
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* kRacy = R"(
def racy(N: size, A: f32[N] @ DRAM, s: f32[1] @ DRAM):
    for i in par(0, N):
        s[0] += A[i]
)";

TEST(TrustUncheckedInput, ParLoopWhoseIterationsConflictIsRefused) {
  CodegenError e = refusal({proc_of(kRacy, "racy")});
  EXPECT_EQ(e.loc().line, 3) << e.what();
  EXPECT_TRUE(has(e.reason(), "proc 'racy' cannot be emitted: ")) << e.what();
  EXPECT_TRUE(has(e.reason(), "the iterations of par loop 'i' must be independent")) << e.what();
  EXPECT_TRUE(has(e.reason(), "(counterexample: ")) << e.what();
}

TEST(TrustUncheckedInput, ParLoopWithIndependentIterationsIsEmittedAsOpenMP) {
  Proc p = proc_of(R"(
def scale(N: size, A: f32[N] @ DRAM):
    for i in par(0, N):
        A[i] = A[i] * 2.0
)",
                   "scale");
  CSource c = compile_procs_to_c({p}, "lib");
  EXPECT_TRUE(has(c.source, "#pragma omp parallel for")) << c.source;
  EXPECT_EQ(compare_compiled_with_interpreter(p, {{"N", 9}}, 1), "");
}

const char* kOutOfBounds = R"(
def oob(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i + 1] = 0.0
)";

TEST(TrustUncheckedInput, OutOfBoundsWriteIsRefused) {
  CodegenError e = refusal({proc_of(kOutOfBounds, "oob")});
  EXPECT_EQ(e.loc().line, 4) << e.what();
  EXPECT_TRUE(has(e.reason(), "proc 'oob' cannot be emitted: ")) << e.what();
  EXPECT_TRUE(has(e.reason(), "(counterexample: ")) << e.what();
}

// The refusal keeps the checker's own error (what `exocpp check` reports) as its cause.
TEST(TrustUncheckedInput, OutOfBoundsRefusalNestsTheBoundsError) {
  try {
    compile_procs_to_c({proc_of(kOutOfBounds, "oob")}, "lib");
    ADD_FAILURE() << "no CodegenError";
  } catch (const CodegenError& e) {
    try {
      std::rethrow_if_nested(e);
      ADD_FAILURE() << "no nested cause";
    } catch (const checker::BoundsError& cause) {
      EXPECT_EQ(cause.loc().line, 4);
    }
  }
}

TEST(TrustUncheckedInput, CallThatViolatesTheCalleesAssertIsRefused) {
  const char* src = R"(
def fill4(n: size, x: f32[n] @ DRAM):
    assert n >= 4
    for i in seq(0, n):
        x[i] = 0.0

def caller(M: size, y: f32[M] @ DRAM):
    fill4(M, y)
)";
  CodegenError e = refusal({proc_of(src, "caller")});
  EXPECT_EQ(e.loc().line, 8) << e.what();
  EXPECT_TRUE(has(e.reason(), "proc 'caller' cannot be emitted: ")) << e.what();
  EXPECT_TRUE(has(e.reason(), "(counterexample: ")) << e.what();
}

// A callee pulled into the library is proved like the procs given.
TEST(TrustUncheckedInput, CalleeWithAnOutOfBoundsWriteIsRefused) {
  const char* src = R"(
def helper(x: f32[4] @ DRAM):
    for i in seq(0, 4):
        x[i + 1] = 0.0

def top(x: f32[4] @ DRAM):
    helper(x)
)";
  CodegenError e = refusal({proc_of(src, "top")});
  EXPECT_EQ(e.loc().line, 4) << e.what();
  EXPECT_TRUE(has(e.reason(), "proc 'helper' cannot be emitted: ")) << e.what();
}

// A renamed parsed proc is the result of an operation, yet nothing proved its par loop.
TEST(TrustUncheckedInput, RenamedParsedProcIsStillProved) {
  CodegenError e = refusal({rename(proc_of(kRacy, "racy"), "racy2")});
  EXPECT_EQ(e.loc().line, 3) << e.what();
  EXPECT_TRUE(has(e.reason(), "proc 'racy2' cannot be emitted: ")) << e.what();
}

// An operation proves the par loops it makes or changes, not one its input already held.
TEST(TrustUncheckedInput, ParLoopAnOperationLeftUnchangedIsStillProved) {
  Proc p = proc_of(R"(
def two(N: size, A: f32[8] @ DRAM, B: f32[N] @ DRAM, s: f32[1] @ DRAM):
    for j in seq(0, 8):
        A[j] = 0.0
    for i in par(0, N):
        s[0] += B[i]
)",
                   "two");
  p = divide_loop(p, "j", 4, {"jo", "ji"}, {.perfect = true});
  CodegenError e = refusal({p});
  EXPECT_EQ(e.loc().line, 5) << e.what();
  EXPECT_TRUE(has(e.reason(), "the iterations of par loop 'i' must be independent")) << e.what();
}

TEST(TrustUncheckedInput, CompiledLibraryRefusesAnUnprovedProc) {
  EXPECT_THROW(CompiledLibrary({proc_of(kRacy, "racy")}, "lib"), CodegenError);
}

TEST(TrustUncheckedInput, EmitCWritesNothingWhenItRefuses) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(::testing::TempDir()) / "trust_unchecked_emit";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "lib.c") << "old";
  EXPECT_THROW(emit_c({proc_of(kRacy, "racy")}, "lib", dir.string()), CodegenError);
  std::vector<std::string> names;
  for (const fs::directory_entry& f : fs::directory_iterator(dir))
    names.push_back(f.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"lib.c"});
  std::ifstream in(dir / "lib.c");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "old");
  fs::remove_all(dir);
}

// What the checker cannot decide is not refuted: an index read from a config (whose value it
// does not model) stays the caller's precondition, like an assert, and the proc is emitted.
// A condition on a config field the proc itself wrote is decided with the written value.
TEST(TrustUncheckedInput, OutOfBoundsUnderAConditionOnAWrittenConfigIsRefused) {
  Proc p = proc_of(R"(
config Cfg:
    n: index

def f(N: size, A: f32[N + 8] @ DRAM):
    Cfg.n = 2
    if N < Cfg.n:
        A[N + 9] = 1.0
)",
                   "f");
  CodegenError e = refusal({p});
  EXPECT_TRUE(has(e.reason(), "out of bounds")) << e.what();
}

// A loop bound on a config field the proc wrote is decided with the written value.
TEST(TrustUncheckedInput, OutOfBoundsInALoopOverAWrittenConfigIsRefused) {
  Proc p = proc_of(R"(
config Cfg:
    n: index

def g(x: [f32][8] @ DRAM):
    x[0] = 1.0

def f(N: size, A: f32[N + 8] @ DRAM):
    Cfg.n = 3
    for i in seq(0, Cfg.n):
        g(A[i:i + 8])
)",
                   "f");
  CodegenError e = refusal({p});
  EXPECT_TRUE(has(e.reason(), "out of bounds")) << e.what();
}

// (C.b holds what the caller left there: nothing in the proc says what)
TEST(TrustUncheckedInput, AccessTheCheckerCannotDecideIsEmitted) {
  Proc p = proc_of(R"(
config C:
    b: index

def f(x: f32[4] @ DRAM):
    x[C.b] = 1.0
)",
                   "f");
  EXPECT_NO_THROW(compile_procs_to_c({p}, "lib"));
}

// An index read from a config field the proc wrote is decided with the written value (the soak
// found C emitted for `Cfg.n = N + 9; H[Cfg.n] = 0.5`, made by bind_config).
TEST(TrustUncheckedInput, OutOfBoundsAtAnIndexFromAWrittenConfigIsRefused) {
  Proc p = proc_of(R"(
config C:
    b: index

def f(N: size, x: f32[N + 8] @ DRAM):
    C.b = N + 9
    x[C.b] = 1.0
)",
                   "f");
  CodegenError e = refusal({p});
  EXPECT_TRUE(has(e.reason(), "out of bounds")) << e.what();
}

TEST(TrustUncheckedInput, AccessAtAnIndexFromAWrittenConfigInBoundsIsEmitted) {
  Proc p = proc_of(R"(
config C:
    b: index

def f(x: f32[4] @ DRAM):
    C.b = 2
    x[C.b] = 1.0
)",
                   "f");
  EXPECT_EQ(compare_compiled_with_interpreter(p, {}, 1), "");
}

// A par loop is emitted only when its iterations are proved independent: one the checker cannot
// decide is refused.
TEST(TrustUncheckedInput, ParLoopTheCheckerCannotDecideIsRefused) {
  CodegenError e = refusal({proc_of(R"(
config C:
    k: index

def f(N: size, x: f32[N + 8] @ DRAM):
    for i in par(0, N):
        x[i + C.k] = 1.0
)",
                                    "f")});
  EXPECT_EQ(e.loc().line, 6) << e.what();
  EXPECT_TRUE(has(e.reason(),
                  "the iterations of par loop 'i' must be independent: could not "
                  "prove it: "))
      << e.what();
}

// Call arguments may alias in emitted C as in the interpreter (no `restrict`): a call passing
// one buffer twice, which scheduling assumes apart, is no emission error.
TEST(TrustUncheckedInput, AliasedCallArgumentsAreEmitted) {
  Proc p = proc_of(R"(
def add_into(n: size, dst: f32[n] @ DRAM, src: f32[n] @ DRAM):
    for i in seq(0, n):
        dst[i] += src[i]

def twice(n: size, y: f32[n] @ DRAM):
    add_into(n, y, y)
)",
                   "twice");
  EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", 5}}, 1), "");
}

}  // namespace
}  // namespace exocpp
