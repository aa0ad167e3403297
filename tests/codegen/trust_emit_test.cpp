// Emitted C compiles for every accepted proc, or codegen refuses with a located error: names that
// clash with C keywords or with the headers' macros are renamed, static allocations that would
// be shared are refused, windows that are only written are emitted, and two different
// definitions under one name are never merged.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include "tests/codegen/codegen_test_util.h"

namespace exocpp {
namespace {

using codegen_test::compile_object;
using codegen_test::proc_of;

std::string builds(const CSource& c) {
  for (const std::string cc : {"gcc", "clang"}) {
    std::string r = compile_object(c, "lib", cc, "-std=c99 -Wall -Wextra -Werror -O1");
    if (!r.empty()) return cc + ": " + r + "\n" + c.source;
  }
  return "";
}

std::string check_seeds(const Proc& p, const std::map<std::string, int64_t>& sizes = {}) {
  for (uint64_t s = 1; s <= 1; ++s)
    if (std::string r = compare_compiled_with_interpreter(p, sizes, s); !r.empty()) return r;
  return "";
}

// ---- names ---------------------------------------------------------------------------------

TEST(TrustNames, HeaderMacrosAndIdentifiersAsArgumentNamesAreRenamed) {
  // redteam 22: EOF, errno, stdin and NULL are macros or objects of the included headers.
  Proc p = proc_of(
      "def f(errno: size, stdin: f32[4] @ DRAM, NULL: f32[4] @ DRAM, EOF: f32[4] @ DRAM):\n"
      "    for k in seq(0, 4):\n"
      "        stdin[k] = NULL[k] + EOF[k]\n",
      "f");
  CSource c = compile_procs_to_c({p}, "lib");
  c.source = "#include <stdio.h>\n#include <errno.h>\n#include <stdlib.h>\n" + c.source;
  EXPECT_EQ(builds(c), "");
  EXPECT_EQ(check_seeds(p), "");
}

TEST(TrustNames, EveryClashingNameCompiles) {
  const std::vector<std::string> names = {"int",
                                          "double",
                                          "restrict",
                                          "static",
                                          "inline",
                                          "bool",
                                          "true",
                                          "false",
                                          "assert",
                                          "INT32_MAX",
                                          "INT8_MIN",
                                          "UINT16_MAX",
                                          "SIZE_MAX",
                                          "int32_t",
                                          "size_t",
                                          "INFINITY",
                                          "NAN",
                                          "HUGE_VAL",
                                          "stdout",
                                          "stderr",
                                          "EXIT_SUCCESS",
                                          "RAND_MAX",
                                          "CHAR_BIT",
                                          "INT_MAX",
                                          "FLT_MAX",
                                          "M_PI",
                                          "isnan",
                                          "signbit",
                                          "fmod",
                                          "malloc",
                                          "free",
                                          "sqrt",
                                          "sinf",
                                          "exo_add_i32",
                                          "exo_f2u32",
                                          "_x",
                                          "__y",
                                          "_Z",
                                          "class",
                                          "new",
                                          "this",
                                          "template",
                                          "ctxt",
                                          "ctx",
                                          "args",
                                          "EDOM",
                                          "omp_get_thread_num",
                                          "main",
                                          "alignas",
                                          "static_assert",
                                          "offsetof"};
  // One library of four procs per name (one compile for all): the name as a size argument, a
  // buffer argument, a scalar allocation and a loop iterator.
  std::string src;
  std::vector<std::string> kept;
  for (const std::string& n : names) {
    std::string k = std::to_string(kept.size());
    std::string procs = "def f" + k + "(" + n +
                        ": size, x: i32[4] @ DRAM, y: i32[4] @ DRAM):\n"
                        "    for i in seq(0, 4):\n"
                        "        y[i] = x[i] + 1\n"
                        "    for j in seq(0, " +
                        n +
                        "):\n"
                        "        pass\n"
                        "\n"
                        "def g" +
                        k + "(" + n +
                        ": i32[4] @ DRAM, y: i32[4] @ DRAM):\n"
                        "    for i in seq(0, 4):\n"
                        "        y[i] = " +
                        n +
                        "[i] - 1\n"
                        "\n"
                        "def h" +
                        k +
                        "(x: i32[4] @ DRAM, y: i32[4] @ DRAM):\n"
                        "    for i in seq(0, 4):\n"
                        "        " +
                        n +
                        ": i32 @ DRAM\n"
                        "        " +
                        n +
                        " = x[i] * 2\n"
                        "        y[i] = " +
                        n +
                        " + x[i]\n"
                        "\n"
                        "def k" +
                        k +
                        "(x: i32[4] @ DRAM, y: i32[4] @ DRAM):\n"
                        "    for " +
                        n +
                        " in seq(0, 4):\n"
                        "        y[" +
                        n + "] = x[" + n + "] * 3\n\n";
    try {
      parse_module(procs);
    } catch (const ParseError&) {
      continue;  // the front end refuses the name: nothing reaches C
    }
    kept.push_back(n);
    src += procs;
  }
  EXPECT_GT(kept.size(), 40u);
  Module m = parse_module(src);
  CSource c = compile_procs_to_c(m.procs, "lib");
  c.source =
      "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n#include <assert.h>\n"
      "#include <limits.h>\n#include <float.h>\n#include <stddef.h>\n#include <errno.h>\n" +
      c.source;
  EXPECT_EQ(builds(c), "");
  CompiledLibrary lib(m.procs, "lib");
  for (size_t i = 0; i < kept.size(); ++i)
    for (const char* q : {"g", "h", "k"}) {
      Proc p = m.proc(q + std::to_string(i));
      std::vector<ArgValue> a = {Buffer::from_values(ScalarKind::I32, {4}, {1, -2, 3, 2147483647}),
                                 Buffer(ScalarKind::I32, {4}, 0)};
      std::vector<ArgValue> b = deep_copy(a);
      interpret(p, a);
      lib.call(p.name(), b);
      EXPECT_EQ(compare_args(p, a, b), "") << kept[i] << " in " << q;
    }
}

TEST(TrustNames, AProcNamedLikeAHeaderMacroIsACodegenError) {
  for (const std::string n :
       {"EOF", "errno", "INT32_MAX", "int32_t", "_start", "exo_add_i32", "isnan", "stdin"}) {
    Proc p = proc_of("def " + n + "(x: f32[4] @ DRAM):\n    x[0] = 1.0\n", n);
    try {
      compile_procs_to_c({p}, "lib");
      ADD_FAILURE() << n << " accepted";
    } catch (const CodegenError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot be a C function name"), std::string::npos)
          << e.what();
    }
  }
}

TEST(TrustNames, AConfigFieldNamedLikeAMacroIsACodegenError) {
  Module m = parse_module(
      "config Cfg:\n    errno: f32\n\ndef f(x: f32[4] @ DRAM):\n    Cfg.errno = 2.0\n    x[0] = "
      "Cfg.errno\n");
  try {
    compile_procs_to_c({m.proc("f")}, "lib");
    FAIL() << "accepted";
  } catch (const CodegenError& e) {
    EXPECT_NE(std::string(e.what()).find("config Cfg: the name 'errno' cannot be used in C"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find(":1:"), std::string::npos) << e.what();
  }
}

// ---- static allocations ---------------------------------------------------------------------

TEST(TrustStaticAlloc, SizeDependentStaticShapeIsALocatedError) {
  // redteam 24
  const std::string src =
      "def f(N: size, x: f32[N] @ DRAM):\n"
      "    t: f32[N] @ DRAM_STATIC\n"
      "    for i in seq(0, N):\n"
      "        t[i] = x[i]\n"
      "    for i in seq(0, N):\n"
      "        x[i] = t[i] + 1.0\n";
  try {
    parse_module(src);
    FAIL() << "accepted";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("static storage, so its shape must be constant"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find(":2:"), std::string::npos) << e.what();
  }
}

TEST(TrustStaticAlloc, ConstantStaticShapeStillCompiles) {
  Proc p = proc_of(
      "def f(x: f32[8] @ DRAM):\n"
      "    t: f32[2, 4] @ DRAM_STATIC\n"
      "    for i in seq(0, 8):\n"
      "        t[i / 4, i % 4] = x[i]\n"
      "    for i in seq(0, 8):\n"
      "        x[i] = t[i / 4, i % 4] * 2.0\n",
      "f");
  EXPECT_EQ(check_seeds(p), "");
}

TEST(TrustStaticAlloc, StaticAllocationInsideAParLoopIsACodegenError) {
  // redteam 15_par_static_alloc_direct
  Proc p = proc_of(
      "def f(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):\n"
      "    for i in par(0, N):\n"
      "        t: f32[64] @ DRAM_STATIC\n"
      "        for k in seq(0, 64):\n"
      "            t[k] = x[i]\n"
      "        y[i] = t[3]\n",
      "f");
  try {
    compile_procs_to_c({p}, "lib");
    FAIL() << "accepted";
  } catch (const CodegenError& e) {
    EXPECT_NE(std::string(e.what()).find("shared by all its threads"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find(":3:"), std::string::npos) << e.what();
  }
}

TEST(TrustStaticAlloc, StaticAllocationInACalleeOfAParLoopIsACodegenError) {
  Module m = parse_module(
      "def g(x: f32[4] @ DRAM):\n"
      "    t: f32[4] @ DRAM_STATIC\n"
      "    for k in seq(0, 4):\n"
      "        t[k] = x[k]\n"
      "    for k in seq(0, 4):\n"
      "        x[k] = t[3 - k]\n"
      "\n"
      "def f(N: size, x: f32[N, 4] @ DRAM):\n"
      "    for i in par(0, N):\n"
      "        g(x[i, 0:4])\n");
  try {
    compile_procs_to_c({m.proc("f")}, "lib");
    FAIL() << "accepted";
  } catch (const CodegenError& e) {
    EXPECT_NE(std::string(e.what()).find("in proc 'g'"), std::string::npos) << e.what();
  }
}

TEST(TrustStaticAlloc, StaticScalarAndStackArraysInParLoopsStillCompile) {
  Proc p = proc_of(
      "def f(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):\n"
      "    for i in par(0, N):\n"
      "        s: f32 @ DRAM_STATIC\n"
      "        t: f32[4] @ DRAM_STACK\n"
      "        s = x[i]\n"
      "        for k in seq(0, 4):\n"
      "            t[k] = s\n"
      "        y[i] = t[2]\n",
      "f");
  EXPECT_EQ(check_seeds(p, {{"N", 5}}), "");
}

// ---- window statements ----------------------------------------------------------------------

TEST(TrustWindows, WriteOnlyWindowStatementCompiles) {
  // redteam 26
  Proc p = proc_of(
      "def k(A: f32[4] @ DRAM, B: f32[4] @ DRAM):\n"
      "    w = A[0:4]\n"
      "    w[0] = B[0]\n",
      "k");
  EXPECT_EQ(builds(compile_procs_to_c({p}, "lib")), "");
  EXPECT_EQ(check_seeds(p), "");
}

TEST(TrustWindows, WindowStatementsOfEveryRankAndUseCompile) {
  const std::vector<std::pair<std::string, std::string>> bodies = {
      {"w = A[1, 0:4, 0:2]\n    w[2, 1] = B[0]\n", "write-only rank 2"},
      {"w = A[0:2, 1, 0:2]\n    w[1, 1] += B[1]\n", "reduce-only"},
      {"w = A[0:2, 0:4, 0:2]\n    w[1, 3, 1] = B[2]\n    B[3] = w[0, 0, 0]\n",
       "rank 3 read and write"},
      {"w = A[0:2, 0:4, 1]\n    v = w[1, 0:4]\n    v[2] = B[0]\n", "window of a window, written"},
      {"w = A[0:2, 0:4, 1]\n    pass\n", "unused"},
      {"w = A[0, 0, 0:2]\n    B[0] = w[1]\n", "read-only"},
  };
  for (const auto& [body, what] : bodies) {
    for (const std::string mem : {"DRAM", "DRAM_STACK", "DRAM_STATIC"}) {
      Proc p = proc_of(
          "def k(A: f32[2, 4, 2] @ DRAM, B: f32[4] @ DRAM):\n"
          "    t: f32[2, 4, 2] @ " +
              mem +
              "\n"
              "    for i in seq(0, 2):\n"
              "        for j in seq(0, 4):\n"
              "            for l in seq(0, 2):\n"
              "                t[i, j, l] = A[i, j, l]\n"
              "    " +
              body +
              "    for i in seq(0, 2):\n"
              "        for j in seq(0, 4):\n"
              "            for l in seq(0, 2):\n"
              "                A[i, j, l] += t[i, j, l]\n",
          "k");
      EXPECT_EQ(builds(compile_procs_to_c({p}, "lib")), "") << what << " " << mem;
      EXPECT_EQ(check_seeds(p), "") << what << " " << mem;
    }
  }
}

// ---- one name, two definitions --------------------------------------------------------------

TEST(TrustNames, TwoDifferentConfigsWithOneNameAreACodegenError) {
  // redteam 28
  Module m1 = parse_module(
      "config C:\n    a: f32\n\ndef g(x: f32[4] @ DRAM):\n    C.a = 2.0\n    x[0] = C.a\n");
  ParseOptions po;
  po.procs = {m1.proc("g")};
  Module m2 = parse_module(
      "config C:\n    b: index\n\ndef f(x: f32[4] @ DRAM):\n    C.b = 1\n    g(x)\n    x[C.b] = "
      "3.0\n",
      po);
  try {
    compile_procs_to_c({m2.proc("f")}, "lib");
    FAIL() << "accepted";
  } catch (const CodegenError& e) {
    std::string w = e.what();
    EXPECT_NE(w.find("two different configs are named 'C'"), std::string::npos) << w;
    EXPECT_NE(w.find("defined at <string>:1:"), std::string::npos) << w;
  }
}

TEST(TrustNames, OneConfigUsedByTwoProcsIsOneState) {
  Module m = parse_module(
      "config C:\n    a: f32\n\ndef g(x: f32[4] @ DRAM):\n    C.a = 2.0\n\n"
      "def f(x: f32[4] @ DRAM):\n    g(x)\n    x[0] = C.a\n");
  EXPECT_EQ(check_seeds(m.proc("f")), "");
}

TEST(TrustNames, TwoDifferentProcsWithOneNameAreACodegenErrorNamingBoth) {
  Module m1 = parse_module(
      "def g(x: f32[4] @ DRAM):\n    x[0] = 1.0\n\ndef f(x: f32[4] @ DRAM):\n    g(x)\n");
  Module m2 = parse_module(
      "def g(x: f32[4] @ DRAM):\n    x[1] = 5.0\n\ndef h(x: f32[4] @ DRAM):\n    g(x)\n");
  try {
    compile_procs_to_c({m1.proc("f"), m2.proc("h")}, "lib");
    FAIL() << "accepted";
  } catch (const CodegenError& e) {
    std::string w = e.what();
    EXPECT_NE(w.find("two different procs are named 'g'"), std::string::npos) << w;
    EXPECT_NE(w.find("defined at <string>:1:1 and at <string>:1:1"), std::string::npos) << w;
  }
}

// A schedule that builds one kernel twice (once per caller) makes two proc objects with one
// name and one definition: C gets the function once.
TEST(TrustNames, TwoCopiesOfOneDefinitionAreEmittedOnce) {
  const std::string g = "def g(x: f32[4] @ DRAM):\n    x[0] = 1.0\n\n";
  Module m1 = parse_module(g + "def f(x: f32[4] @ DRAM):\n    g(x)\n");
  Module m2 = parse_module(g + "def h(x: f32[4] @ DRAM):\n    g(x)\n");
  CSource c = compile_procs_to_c({m1.proc("f"), m2.proc("h")}, "lib");
  size_t first = c.source.find("void g(");
  ASSERT_NE(first, std::string::npos) << c.source;
  EXPECT_EQ(c.source.find("void g(", first + 1), std::string::npos) << c.source;
  // h writes x through its copy of g: x stays non-const in h's signature too.
  EXPECT_EQ(c.header.find("const float *x"), std::string::npos) << c.header;
}

// Same text is not enough: the two copies of `g` call different procs named `leaf`.
TEST(TrustNames, SameTextCallingDifferentCalleesIsStillACodegenError) {
  Module m1 = parse_module(
      "def leaf(x: f32[4] @ DRAM):\n    x[0] = 1.0\n\ndef g(x: f32[4] @ DRAM):\n    leaf(x)\n"
      "\ndef f(x: f32[4] @ DRAM):\n    g(x)\n");
  Module m2 = parse_module(
      "def leaf(x: f32[4] @ DRAM):\n    x[0] = 2.0\n\ndef g(x: f32[4] @ DRAM):\n    leaf(x)\n"
      "\ndef h(x: f32[4] @ DRAM):\n    g(x)\n");
  try {
    compile_procs_to_c({m1.proc("f"), m2.proc("h")}, "lib");
    FAIL() << "accepted";
  } catch (const CodegenError& e) {
    EXPECT_NE(std::string(e.what()).find("two different procs are named"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace exocpp
