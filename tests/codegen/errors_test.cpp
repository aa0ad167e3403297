// CodegenError cases: each names the statement at fault (file:line:col) and says what to do.
#include <filesystem>

#include "codegen_test_util.h"

namespace exocpp::codegen_test {
namespace {

// A register file only instructions may touch: not readable, not addressable, and its
// allocations need a last dimension of 4.
class TestRegMemory : public Memory {
 public:
  std::string name() const override { return "TEST_REG"; }
  bool can_read() const override { return false; }
  bool addressable() const override { return false; }
  std::string alloc(const std::string& n, const std::string&, const std::vector<std::string>& shape,
                    const SrcInfo& where) const override {
    if (shape.empty() || shape.back() != "4")
      throw CodegenError(where, "TEST_REG buffers need a last dimension of 4");
    return "vec4 " + n + "[1];";
  }
  std::string free(const std::string&, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    return "";
  }
};

class CodegenErrors : public ::testing::Test {
 protected:
  void SetUp() override { register_memory(std::make_shared<TestRegMemory>()); }
};

// The CodegenError emitting `src`'s proc `name` raises ("" reason when none is raised). The
// source is not type-checked: codegen must stand on its own against IR no checker has seen.
CodegenError emit_error(const std::string& src, const std::string& name) {
  ParseOptions unchecked;
  unchecked.typecheck = false;
  try {
    compile_procs_to_c({parse_module(src, unchecked).proc(name)}, "lib");
  } catch (const CodegenError& e) {
    return e;
  }
  ADD_FAILURE() << "no CodegenError";
  return CodegenError({}, "");
}

TEST_F(CodegenErrors, PlainCodeReadingARegisterMemory) {
  const char* src = R"(
def bad(x: f32[4] @ DRAM):
    r: f32[4] @ TEST_REG
    for i in seq(0, 4):
        x[i] = r[i]
)";
  CodegenError e = emit_error(src, "bad");
  EXPECT_EQ(e.loc().line, 5);
  EXPECT_NE(e.reason().find("'r' lives in memory TEST_REG, which plain code cannot read or write"),
            std::string::npos)
      << e.what();
  EXPECT_NE(std::string(e.what()).find("x[i] = r[i]"), std::string::npos) << e.what();
}

TEST_F(CodegenErrors, WindowOfAnUnaddressableMemory) {
  const char* src = R"(
def take(v: [f32][4] @ TEST_REG):
    pass

def bad():
    r: f32[2, 4] @ TEST_REG
    take(r[1, 0:4])
)";
  CodegenError e = emit_error(src, "bad");
  EXPECT_EQ(e.loc().line, 7);
  EXPECT_NE(e.reason().find("cannot be addressed through a window"), std::string::npos) << e.what();
}

TEST_F(CodegenErrors, MemoryRefusesTheShape) {
  const char* src = R"(
def bad():
    r: f32[3] @ TEST_REG
    pass
)";
  CodegenError e = emit_error(src, "bad");
  EXPECT_EQ(e.loc().line, 3);
  EXPECT_EQ(e.reason(), "TEST_REG buffers need a last dimension of 4");
}

TEST_F(CodegenErrors, TwoProcsWithOneName) {
  Module a = parse_module(
      "def leaf(x: f32[1] @ DRAM):\n    x[0] = 1.0\n\ndef top_a(x: f32[1] @ DRAM):\n    leaf(x)\n");
  Module b = parse_module(
      "def leaf(x: f32[1] @ DRAM):\n    x[0] = 2.0\n\ndef top_b(x: f32[1] @ DRAM):\n    leaf(x)\n");
  try {
    compile_procs_to_c({a.proc("top_a"), b.proc("top_b")}, "lib");
    FAIL() << "no CodegenError";
  } catch (const CodegenError& e) {
    EXPECT_NE(e.reason().find("two different procs are named 'leaf'"), std::string::npos)
        << e.what();
  }
}

TEST_F(CodegenErrors, LibraryNameMustBeAnIdentifier) {
  Proc p = proc_of("def f(x: f32[1] @ DRAM):\n    x[0] = 1.0\n", "f");
  EXPECT_THROW(compile_procs_to_c({p}, "my-lib"), CodegenError);
}

TEST_F(CodegenErrors, CompilerFailureKeepsTheSource) {
  const char* src = R"(
@instr("this is not C;")
def broken(x: f32[1] @ DRAM):
    x[0] = 1.0

def f(x: f32[1] @ DRAM):
    broken(x)
)";
  try {
    CompiledLibrary lib({proc_of(src, "f")}, "broken_lib");
    FAIL() << "no CodegenError";
  } catch (const CodegenError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("the C compiler failed"), std::string::npos) << msg;
    EXPECT_NE(msg.find("this is not C"), std::string::npos) << "the compiler's output\n" << msg;
    size_t at = msg.find(" on "), end = msg.find(" (kept");
    ASSERT_NE(end, std::string::npos) << msg;
    std::filesystem::path kept = msg.substr(at + 4, end - at - 4);
    EXPECT_TRUE(std::filesystem::exists(kept)) << kept;
    std::filesystem::remove_all(kept.parent_path());
  }
}

// A tensor parameter is a plain pointer: a column (stride 4) cannot stand for it.
TEST_F(CodegenErrors, StridedWindowGivenForATensorParameter) {
  const char* src = R"(
def g(x: f32[4] @ DRAM):
    x[0] = 1.0
def f(A: f32[4, 4] @ DRAM):
    g(A[0:4, 1])
)";
  CodegenError e = emit_error(src, "f");
  EXPECT_EQ(e.loc().line, 5);
  EXPECT_NE(e.reason().find(
                "the window `A[0:4, 1]` given for the tensor parameter 'x' of 'g' may be strided"),
            std::string::npos)
      << e.what();
}

// A dense block of rows may stand for a tensor parameter: the callee gets a pointer to its
// first element, and the compiled call computes what the interpreter does.
TEST(CodegenWindows, DenseWindowGivenForATensorParameterRuns) {
  EXPECT_EQ(check(R"(
def g(x: f32[2, 4] @ DRAM):
    for i in seq(0, 2):
        for j in seq(0, 4):
            x[i, j] = x[i, j] * 2.0 + 1.0
def f(n: size, A: f32[n, 4] @ DRAM):
    assert n >= 3
    g(A[1:3, 0:4])
)",
                  "f", {{"n", 5}}),
            "");
}

}  // namespace
}  // namespace exocpp::codegen_test
