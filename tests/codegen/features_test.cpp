// Codegen of configs (the <lib>_Context struct behind ctxt), externs, par loops (OpenMP) and
// statically allocated buffers, each compared with the interpreter.
#include "codegen_test_util.h"

namespace exocpp::codegen_test {
namespace {

const char* kConfigSrc = R"(
config Scale:
    factor: f32
    rows: index
    on: bool

def set_scale(f: f32 @ DRAM):
    Scale.factor = f
    Scale.rows = 2
    Scale.on = True

def scaled(N: size, f: f32 @ DRAM, x: f32[N] @ DRAM):
    set_scale(f)
    for i in seq(0, N):
        if Scale.on and i < Scale.rows:
            x[i] = Scale.factor * x[i]
)";

TEST(CodegenFeatures, ConfigsLiveInTheContextStruct) {
  CSource c = compile_procs_to_c({proc_of(kConfigSrc, "scaled")}, "lib");
  EXPECT_NE(c.header.find("struct lib_Context {"), std::string::npos) << c.header;
  EXPECT_NE(
      c.header.find(
          "        float factor;\n        int_fast32_t rows;\n        bool on;\n    } Scale;"),
      std::string::npos)
      << c.header;
  EXPECT_NE(c.source.find("ctx->Scale.factor = *f;"), std::string::npos) << c.source;
}

TEST(CodegenFeatures, ConfigWritesAndReadsMatchTheInterpreter) {
  EXPECT_EQ(check(kConfigSrc, "scaled"), "");
}

TEST(CodegenFeatures, BuiltinExterns) {
  const char* src = R"(
def ext(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    for i in seq(0, N):
        y[i] = select(x[i], 0.0, -x[i], x[i])
        y[i] += relu(x[i]) + abs(x[i]) + fmaxf(x[i], 1.0)
)";
  EXPECT_EQ(check(src, "ext"), "");
}

TEST(CodegenFeatures, MathExternsWithinRounding) {
  const char* src = R"(
def trig(N: size, x: f64[N] @ DRAM, y: f64[N] @ DRAM):
    for i in seq(0, N):
        y[i] = sin(x[i]) * cos(x[i]) + sqrt(x[i] * x[i] + 1.0) + sigmoid(x[i])
)";
  EXPECT_EQ(check(src, "trig"), "");
}

// A user extern with its own C (registered like a library would).
class Twice : public ExternFn {
 public:
  std::string name() const override { return "twice_test"; }
  int arity() const override { return 1; }
  double interpret(const std::vector<double>& a) const override { return 2 * a[0]; }
  std::string compile(const std::vector<std::string>& a, ScalarKind) const override {
    return "twice_test(" + a[0] + ")";
  }
  std::string c_global(ScalarKind) const override {
    return "static inline float twice_test(float v) {\n    return 2 * v;\n}";
  }
};

TEST(CodegenFeatures, UserExternBringsItsGlobal) {
  register_extern(std::make_shared<Twice>());
  const char* src = R"(
def tw(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    for i in seq(0, N):
        y[i] = twice_test(x[i]) + twice_test(y[i])
)";
  CSource c = compile_procs_to_c({proc_of(src, "tw")}, "lib");
  EXPECT_NE(c.source.find("static inline float twice_test"), std::string::npos) << c.source;
  EXPECT_EQ(check(src, "tw"), "");
}

TEST(CodegenFeatures, ParLoopsBecomeOpenMp) {
  const char* src = R"(
def par_nest(N: size, M: size, A: i32[N, M] @ DRAM):
    for i in par(0, N):
        for j in seq(0, M):
            A[i, j] = A[i, j] * 2 + 1
)";
  CSource c = compile_procs_to_c({proc_of(src, "par_nest")}, "lib");
  EXPECT_NE(c.source.find("#pragma omp parallel for"), std::string::npos) << c.source;
  EXPECT_EQ(check(src, "par_nest", {{"N", 64}, {"M", 16}}), "");
}

TEST(CodegenFeatures, StaticBufferKeepsNoStateBetweenUses) {
  const char* src = R"(
def stat(N: size, x: f32[N] @ DRAM):
    tmp: f32[4] @ DRAM_STATIC
    for k in seq(0, 4):
        tmp[k] = 1.0
    for i in seq(0, N):
        x[i] += tmp[i % 4]
)";
  CSource c = compile_procs_to_c({proc_of(src, "stat")}, "lib");
  EXPECT_NE(c.source.find("static float tmp[4];"), std::string::npos) << c.source;
  EXPECT_EQ(check(src, "stat"), "");
}

}  // namespace
}  // namespace exocpp::codegen_test
