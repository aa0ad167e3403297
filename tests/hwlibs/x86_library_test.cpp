// The x86 library as a whole (hwlibs/x86/x86.h): handles convert to the procs and memories they
// name, every instruction is a well-formed @instr proc with its stride and mask-count asserts,
// the library parses once (also under concurrent first use) and prints back as it parses, and
// user .exo text can allocate in AVX512 and call the instructions.
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "hwlibs/x86/x86.h"
#include "x86_harness.h"

namespace exocpp {
namespace {

TEST(X86Library, EveryHandleNamesALibraryInstructionAndViceVersa) {
  std::set<std::string> handles, procs;
  for (const std::string& n : x86::instruction_names()) EXPECT_TRUE(handles.insert(n).second) << n;
  for (const Proc& p : x86::library().procs) EXPECT_TRUE(procs.insert(p.name()).second) << p.name();
  EXPECT_EQ(handles, procs);
}

TEST(X86Library, HandleConvertsToTheLibraryProc) {
  const Proc& p = x86::mm512_loadu_ps;
  EXPECT_EQ(p.name(), "mm512_loadu_ps");
  EXPECT_TRUE(p.same_as(x86::library().proc("mm512_loadu_ps")));
  const Proc& again = x86::mm512_loadu_ps;
  EXPECT_EQ(&p, &again);  // one proc, parsed once
}

TEST(X86Library, HandlePrintsItsProc) {
  std::ostringstream os;
  os << x86::mm512_setzero_ps;
  EXPECT_EQ(os.str(), to_string(x86::mm512_setzero_ps.get()));
  EXPECT_NE(os.str().find("_mm512_setzero_ps()"), std::string::npos) << os.str();
}

TEST(X86Library, MemoryHandlesConvertToRegisteredMemories) {
  const Memory& m512 = x86::AVX512;
  const Memory& m256 = x86::AVX2;
  EXPECT_EQ(m512.name(), "AVX512");
  EXPECT_EQ(m256.name(), "AVX2");
  EXPECT_EQ(find_memory("AVX512"), &m512);
  EXPECT_EQ(find_memory("AVX2"), &m256);
}

TEST(X86Library, ConcurrentFirstUseParsesOnce) {
  std::vector<const Module*> seen(8, nullptr);
  std::vector<const ProcNode*> procs(8, nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&, i] {
      seen[i] = &x86::library();
      procs[i] = x86::mm512_fmadd_ps.get().get();
    });
  for (std::thread& t : threads) t.join();
  for (size_t i = 1; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i], seen[0]);
    EXPECT_EQ(procs[i], procs[0]);
  }
}

TEST(X86Library, EveryProcIsAnInstructionWithAnIntrinsicTemplate) {
  for (const Proc& p : x86::library().procs) {
    ASSERT_TRUE(p.is_instr()) << p.name();
    // mm512_foo_ps uses _mm512_*; prefetch uses _mm_prefetch.
    std::string bank = p.name().substr(0, p.name().find('_'));
    const std::string &c = p->instr->c_instr, &global = p->instr->c_global;
    if (global == "#include <immintrin.h>") {
      EXPECT_NE(c.find("_" + bank + "_"), std::string::npos) << p.name();
      continue;
    }
    // Or a call of a helper its c_global defines with the bank's intrinsics (a fold of lanes
    // one by one, which one intrinsic expression cannot say).
    const std::string helper = c.substr(0, c.find('('));
    EXPECT_EQ(global.rfind("#include <immintrin.h>\n", 0), 0u) << p.name();
    EXPECT_NE(global.find("static inline void " + helper + "("), std::string::npos) << p.name();
    EXPECT_NE(global.find("_" + bank + "_"), std::string::npos) << p.name();
  }
}

// Every {hole} of a template names an argument ({x} or {x_data}): a typo would otherwise reach
// the C compiler as text.
TEST(X86Library, EveryTemplateHoleNamesAnArgument) {
  for (const Proc& p : x86::library().procs) {
    std::set<std::string> args;
    for (const FnArg& a : p.args()) {
      args.insert(a.name.name());
      args.insert(a.name.name() + "_data");
    }
    const std::string& t = p->instr->c_instr;
    for (size_t open = t.find('{'); open != std::string::npos; open = t.find('{', open + 1)) {
      size_t close = t.find('}', open);
      ASSERT_NE(close, std::string::npos) << p.name();
      EXPECT_TRUE(args.count(t.substr(open + 1, close - open - 1)))
          << p.name() << ": hole " << t.substr(open, close - open + 1);
    }
  }
}

// Vector arguments are contiguous (stride 1, and a byte matrix of a dot product dense row by
// row), masked counts fit a register; operands have the instruction's element type, but for a
// dot product's unsigned and signed bytes and a conversion's source.
TEST(X86Library, EveryVectorArgumentAssertsUnitStrideAndEveryCountItsBound) {
  for (const Proc& p : x86::library().procs) {
    std::set<std::string> preds;
    for (const Expr& e : p.preds()) preds.insert(to_string(e));
    const x86_test::InstrMeaning m = x86_test::meaning_of(p.name());
    for (const FnArg& a : p.args()) {
      const std::string& n = a.name.name();
      if (a.type.is_control()) {
        if (m.op == "argmax_update" && n == "base") continue;  // the first lane's index
        if (m.op == "i32gather" && n == "n") continue;         // the extent src and idx share
        EXPECT_TRUE(preds.count(n + " <= " + std::to_string(m.width))) << p.name() << ": " << n;
        continue;
      }
      const bool dot_bytes = m.op == "dpbusd" && (n == "a" || n == "b");
      const bool dot_bf16 = m.op == "dpbf16" && (n == "a" || n == "b");
      // A fold's result and a broadcast's scalar source are scalar variables.
      // A gather's indices: an index parameter, a tensor of one register's i32 lanes (dense by
      // its type: a window passed for it is proved dense at the call).
      if (m.op == "i32gather" && n == "idx") {
        EXPECT_TRUE(a.range.has_value()) << p.name() << ": " << n;
        EXPECT_FALSE(a.type.window) << p.name() << ": " << n;
        EXPECT_EQ(a.type.base, ScalarKind::I32) << p.name() << ": " << n;
        EXPECT_EQ(to_string(a.type.shape[0]), std::to_string(m.width)) << p.name() << ": " << n;
        continue;
      }
      const bool scalar = (m.op == "reduce_argmax" && (n == "best" || n == "idx")) ||
                          (m.op == "reduce_add" && n == "dst") ||
                          (p.name().find("set1_scalar") != std::string::npos && n == "src");
      ASSERT_EQ(a.type.rank(), scalar                                ? 0
                               : n == "b" && (dot_bytes || dot_bf16) ? 2
                                                                     : 1)
          << p.name() << ": " << n;
      const bool dst = n == "dst" || n == "C" || n == "out";
      // An argmax's indices are i32 lanes beside its values.
      const bool index_lanes =
          (m.op == "reduce_argmax" && (n == "idx" || n == "vi")) ||
          ((m.op == "argmax_update" || m.op == "argmax_merge") && (n == "at" || n == "vi"));
      EXPECT_EQ(a.type.base, dot_bf16      ? ScalarKind::BF16
                             : index_lanes ? ScalarKind::I32
                             : !dot_bytes  ? (dst ? m.elem : m.src_elem)
                             : n == "a"    ? ScalarKind::UI8
                                           : ScalarKind::I8)
          << p.name() << ": " << n;
      if (scalar) continue;
      if (a.type.rank() == 2) {
        EXPECT_TRUE(preds.count("stride(" + n + ", 1) == 1")) << p.name() << ": " << n;
        EXPECT_TRUE(preds.count("stride(" + n + ", 0) == " + to_string(a.type.shape[1])))
            << p.name() << ": " << n;
        continue;
      }
      if (to_string(a.type.shape[0]) == "1") continue;  // one element: no stride to assert
      EXPECT_TRUE(preds.count("stride(" + n + ", 0) == 1")) << p.name() << ": " << n;
    }
  }
}

TEST(X86Library, RegisterArgumentsAreFullRegisters) {
  for (const Proc& p : x86::library().procs) {
    const x86_test::InstrMeaning m = x86_test::meaning_of(p.name());
    for (const FnArg& a : p.args()) {
      if (a.mem != "AVX512" && a.mem != "AVX2") continue;
      // The 8 i32 indices of an f64 argmax's lanes fill half a register: an AVX2 one.
      const bool f64_indices = m.elem == ScalarKind::F64 && a.type.base == ScalarKind::I32;
      EXPECT_EQ(a.mem, p.name().rfind("mm512_", 0) == 0 && !f64_indices ? "AVX512" : "AVX2")
          << p.name();
      EXPECT_EQ(to_string(a.type.shape[0]), std::to_string(m.width)) << p.name();
    }
  }
}

TEST(X86Library, PrintsBackAsItParses) {
  std::string once = to_string(x86::library());
  ParseOptions opts;
  std::string twice = to_string(parse_module(once, opts, "printed.exo"));
  EXPECT_EQ(once, twice);
}

TEST(X86Library, UserTextAllocatesInAVX512AndCallsInstructions) {
  x86::register_memories();
  ParseOptions opts;
  opts.procs = x86::library().procs;
  Proc p = parse_module(R"(
def scale(x: f32[16] @ DRAM, y: f32[16] @ DRAM, a: f32[1] @ DRAM):
    r: f32[16] @ AVX512
    s: f32[16] @ AVX512
    mm512_loadu_ps(r, x)
    mm512_set1_ps(s, a)
    mm512_mul_ps(r, r, s)
    mm512_storeu_ps(y, r)
)",
                        opts)
               .proc("scale");
  std::vector<ArgValue> args = random_args(p, {}, 3);
  std::vector<ArgValue> expected = deep_copy(args);
  interpret(p, args);
  Buffer &x = std::get<Buffer>(expected[0]), &y = std::get<Buffer>(expected[1]);
  double a = std::get<Buffer>(expected[2]).get({0});
  for (int64_t i = 0; i < 16; ++i) y.set({i}, x.get({i}) * a);
  EXPECT_EQ(compare_args(p, args, expected), "");
}

TEST(X86Library, PlainCodeMayNotReadARegister) {
  x86::register_memories();
  try {
    parse_module(R"(
def peek(x: f32[16] @ DRAM):
    r: f32[16] @ AVX512
    x[0] = r[0]
)");
    FAIL() << "expected a TypeError";
  } catch (const TypeError& e) {
    EXPECT_EQ(e.reason(),
              "cannot read 'r' in proc 'peek': it lives in memory AVX512, which only instructions "
              "(@instr procs) may access; call an instruction or stage the data in DRAM");
    EXPECT_EQ(e.loc().line, 4);
  }
}

}  // namespace
}  // namespace exocpp
