// The in-process C compiler (driver/c_jit.h): CompiledLibrary's default path when exocpp is built
// with LLVM 14 and libclang-cpp. Emitted kernels, plain and AVX2, run as the interpreter and the
// system compiler's build do; clang's diagnostics come back as errors. Skipped, saying so, in a
// build without the JIT.
#include "driver/c_jit.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <thread>
#include <vector>

#include "avx2_simple_math.h"
#include "hwlibs/x86/x86.h"

namespace exocpp {
namespace {

#define SKIP_WITHOUT_JIT()                                                              \
  if (!driver::c_jit_available())                                                       \
  GTEST_SKIP() << "built without the C JIT (LLVM 14 / libclang-cpp14-dev not found or " \
                  "EXOCPP_C_JIT=OFF)"

// Sets EXOCPP_C_COMPILER for one scope, restoring what was there.
class CompilerEnv {
 public:
  explicit CompilerEnv(const char* value) {
    if (const char* old = getenv("EXOCPP_C_COMPILER")) old_ = old, had_ = true;
    if (value)
      setenv("EXOCPP_C_COMPILER", value, 1);
    else
      unsetenv("EXOCPP_C_COMPILER");
  }
  ~CompilerEnv() {
    if (had_)
      setenv("EXOCPP_C_COMPILER", old_.c_str(), 1);
    else
      unsetenv("EXOCPP_C_COMPILER");
  }

 private:
  std::string old_;
  bool had_ = false;
};

// A JIT build leaves no shared object next to the source.
bool built_shared_object(const CompiledLibrary& lib, const std::string& lib_name) {
  return std::filesystem::exists(std::filesystem::path(lib.source_path()).parent_path() /
                                 ("lib" + lib_name + ".so"));
}

Proc saxpy() {
  return parse_module(R"(
def saxpy(n: size, a: f32, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        y[i] = a * x[i] + y[i]
)")
      .proc("saxpy");
}

TEST(CJit, CompilesAnEmittedKernelThatAgreesWithTheInterpreter) {
  SKIP_WITHOUT_JIT();
  CompilerEnv env(nullptr);
  Proc p = saxpy();
  {
    CompiledLibrary lib({p}, "jit_saxpy");
    EXPECT_FALSE(built_shared_object(lib, "jit_saxpy"));
    auto args = random_args(p, {{"n", 37}}, 3, {.real_as = ScalarKind::F32});
    auto expected = deep_copy(args);
    interpret(p, expected, {.real_as = ScalarKind::F32});
    lib.call("saxpy", args);
    EXPECT_EQ(compare_args(p, expected, args), "");
    EXPECT_THROW(lib.symbol("no_such_symbol"), CodegenError);
  }
  for (int64_t n : {1, 8, 100}) EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 7), "");
}

TEST(CJit, SystemCompilerIsUsedWhenTheEnvironmentSaysSo) {
  CompilerEnv env("system");
  CompiledLibrary lib({saxpy()}, "sys_saxpy");
  EXPECT_TRUE(built_shared_object(lib, "sys_saxpy"));
}

TEST(CJit, SystemCompilerIsUsedWhenTheOptionsSaySo) {
  CompilerEnv env(nullptr);
  Proc p = saxpy();
  CompileOptions system;
  system.in_process = false;
  CompiledLibrary lib({p}, "opt_saxpy", system);
  EXPECT_TRUE(built_shared_object(lib, "opt_saxpy"));
  EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", 13}}, 2, system), "");
}

TEST(CJit, SyntaxErrorIsClangsDiagnostic) {
  SKIP_WITHOUT_JIT();
  driver::CJitResult r = driver::jit_compile_c("int f( { return 1; }\n", "bad.c", {"-O2"});
  ASSERT_EQ(r.module, nullptr);
  EXPECT_NE(r.error.find("bad.c:1:"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("error:"), std::string::npos) << r.error;
}

TEST(CJit, WerrorWarningIsAnError) {
  SKIP_WITHOUT_JIT();
  driver::CJitResult r =
      driver::jit_compile_c("int f(void) { int unused; return 1; }\n", "w.c", {"-Wall", "-Werror"});
  ASSERT_EQ(r.module, nullptr);
  EXPECT_NE(r.error.find("unused"), std::string::npos) << r.error;
}

TEST(CJit, UnknownFlagAndUndefinedSymbolAreErrors) {
  SKIP_WITHOUT_JIT();
  driver::CJitResult flag =
      driver::jit_compile_c("int f(void) { return 1; }\n", "f.c", {"-fno-such-flag-at-all"});
  ASSERT_EQ(flag.module, nullptr);
  EXPECT_NE(flag.error.find("no-such-flag"), std::string::npos) << flag.error;
  driver::CJitResult undef = driver::jit_compile_c(
      "int exocpp_undefined_g(void);\nint f(void) { return exocpp_undefined_g(); }\n", "u.c", {});
  ASSERT_EQ(undef.module, nullptr);
  EXPECT_NE(undef.error.find("exocpp_undefined_g"), std::string::npos) << undef.error;
}

TEST(CJit, LibmAndLibcResolveAgainstTheProcess) {
  SKIP_WITHOUT_JIT();
  driver::CJitResult r = driver::jit_compile_c(R"(#include <math.h>
#include <stdlib.h>
#include <string.h>
float f(float x) {
  float* p = malloc(sizeof(float));
  memcpy(p, &x, sizeof x);
  float y = expf(*p) + sqrtf(*p);
  free(p);
  return y;
}
)",
                                               "m.c", {"-O2"});
  ASSERT_NE(r.module, nullptr) << r.error;
  auto f = reinterpret_cast<float (*)(float)>(r.module->lookup("f"));
  ASSERT_NE(f, nullptr);
  volatile float x = 2.0f;
  EXPECT_EQ(f(x), std::exp(2.0f) + std::sqrt(2.0f));
}

// x = x * y * y, eight lanes at a time in AVX2 registers (x86_schedule_test's first schedule).
Proc avx2_math() {
  x86::register_memories();
  Proc plain = parse_module(R"(
def simple_math(n: size, x: f32[n] @ DRAM, y: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = x[i] * y[i] * y[i]
)")
                   .proc("simple_math");
  return testing::schedule_avx2_simple_math(plain);
}

TEST(CJit, Avx2KernelAgreesWithTheInterpreterAndTheSystemCompiler) {
  SKIP_WITHOUT_JIT();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
    GTEST_SKIP() << "this CPU has no AVX2/FMA, so the AVX2 kernel cannot run";
  Proc p = avx2_math();
  CompileOptions avx2{"cc", {"-O2", "-mavx2", "-mfma", "-Wall", "-Werror"}};
  ASSERT_NE(CompiledLibrary({p}, "jit_avx2", avx2).source().source.find("immintrin.h"),
            std::string::npos);
  std::vector<ArgValue> by_jit, by_system;
  for (int64_t n : {1, 8, 21, 64}) {
    {
      CompilerEnv env(nullptr);
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 5, avx2), "") << "n = " << n;
      by_jit = random_args(p, {{"n", n}}, 9, {.real_as = ScalarKind::F32});
      CompiledLibrary lib({p}, "jit_avx2", avx2);
      EXPECT_FALSE(built_shared_object(lib, "jit_avx2"));
      lib.call("simple_math", by_jit);
    }
    {
      CompilerEnv env("system");
      EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", n}}, 5, avx2), "") << "n = " << n;
      by_system = random_args(p, {{"n", n}}, 9, {.real_as = ScalarKind::F32});
      CompiledLibrary lib({p}, "sys_avx2", avx2);
      EXPECT_TRUE(built_shared_object(lib, "sys_avx2"));
      lib.call("simple_math", by_system);
    }
    EXPECT_EQ(compare_args(p, by_system, by_jit), "") << "n = " << n;
  }
}

// Schedule search compiles candidates side by side: each CompiledLibrary has its own clang
// instance, LLVM context and LLJIT, so libraries compiled on several threads at once all work.
TEST(CJit, LibrariesCompileOnSeveralThreadsAtOnce) {
  SKIP_WITHOUT_JIT();
  CompilerEnv env(nullptr);
  Proc p = saxpy();
  constexpr int kThreads = 4;
  std::vector<std::vector<ArgValue>> inputs, expected;
  for (int t = 0; t < kThreads; ++t) {
    inputs.push_back(random_args(p, {{"n", 16 + t}}, 40 + t, {.real_as = ScalarKind::F32}));
    expected.push_back(deep_copy(inputs.back()));
    interpret(p, expected.back(), {.real_as = ScalarKind::F32});
  }
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      try {
        for (int round = 0; round < 3; ++round) {
          std::vector<ArgValue> args = deep_copy(inputs[t]);
          CompiledLibrary lib({p}, "jit_thread_" + std::to_string(t), {"cc", {"-O1"}});
          lib.call("saxpy", args);
          if (std::string diff = compare_args(p, expected[t], args); !diff.empty())
            errors[t] = diff;
        }
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[t], "") << "thread " << t;
}

}  // namespace
}  // namespace exocpp
