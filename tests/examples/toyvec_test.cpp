// TOYVEC (examples/toyvec), a made-up vector unit written as a user-level library: a kernel is
// scheduled onto its register file, configuration register and instructions with public
// operations only, every step is checked in the reference interpreter, and the emitted C (the
// instructions' templates) is compiled and compared with the interpreter.
#include "toyvec.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

using namespace exocpp;

namespace {

// y[i, :] += s * x[i, :], eight lanes per row.
const char* kScaledAcc =
    R"(def scaled_acc(n: size, s: f32[1] @ DRAM, x: f32[n, 8] @ DRAM, y: f32[n, 8] @ DRAM):
    for i in seq(0, n):
        for j in seq(0, 8):
            y[i, j] += s[0] * x[i, j]
)";

// The plain proc leaves ToyCfg.scale alone; the scheduled one sets it (Exo allows a config
// write whose value only the caller could see), so only the buffers are compared.
std::string compare_buffers(const Proc& plain, const Proc& scheduled,
                            const std::map<std::string, int64_t>& sizes) {
  CompareProcsOptions opts;
  opts.compare_configs = false;
  return compare_procs(plain, scheduled, sizes, 1, opts);
}

Proc parse(const char* src) {
  ParseOptions opts;
  opts.procs = toyvec::library().procs;
  opts.configs = toyvec::library().configs;
  return parse_module(src, opts).procs.back();
}

// The schedule a user of TOYVEC writes: y's row and x's row in registers, s in the scale
// register, then one instruction per vector operation.
Proc schedule_onto_toyvec(const Proc& plain, bool set_scale_instr = true) {
  Proc p = stage_mem(plain, "for j in _: _", "y[i, 0:8]", "y_reg");
  p = set_memory(p, "y_reg", toyvec::TOYREG());
  p = bind_expr(p, "x[_]", "x_reg");
  p = expand_dim(p, "x_reg", "8", "j");
  p = lift_alloc(p, "x_reg");
  p = fission(p, p.find("x_reg[_] = _").after());
  p = set_memory(p, "x_reg", toyvec::TOYREG());
  // s[0] into the scale register: bound where it is used, then written once before the loop,
  // which makes the write in every iteration redundant.
  p = bind_config(p, "s[_]", toyvec::config(), "scale");
  p = write_config(p, p.find("ToyCfg.scale = _").parent().before(), toyvec::config(), "scale",
                   "s[0]");
  p = delete_config(p, "ToyCfg.scale = _ #1");
  if (set_scale_instr) p = replace(p, "ToyCfg.scale = _", toyvec::instr("toy_set_scale"));
  p = replace_all(p, toyvec::instr("toy_vld"));
  p = replace_all(p, toyvec::instr("toy_vmacc"));
  p = replace_all(p, toyvec::instr("toy_vst"));
  return simplify(p);
}

}  // namespace

TEST(ToyVec, LibraryDeclaresItsMemoryConfigAndInstructions) {
  const Module& lib = toyvec::library();
  EXPECT_FALSE(toyvec::TOYREG().can_read());
  EXPECT_NE(find_memory("TOYREG"), nullptr);
  EXPECT_NE(toyvec::config()->field("scale"), nullptr);
  for (const char* name : {"toy_set_scale", "toy_vld", "toy_vmacc", "toy_vst"})
    EXPECT_TRUE(lib.proc(name).is_instr()) << name;
}

TEST(ToyVec, KernelScheduledOntoTheUnitComputesThePlainOne) {
  Proc plain = parse(kScaledAcc);
  Proc p = schedule_onto_toyvec(plain);
  std::string text = to_string(p);
  for (const char* call : {"toy_set_scale(", "toy_vld(", "toy_vmacc(", "toy_vst("})
    EXPECT_NE(text.find(call), std::string::npos) << call << " missing in\n" << text;
  EXPECT_EQ(compare_buffers(plain, p, {{"n", 3}}), "") << text;
}

TEST(ToyVec, EmittedCMatchesTheInterpreter) {
  Proc p = schedule_onto_toyvec(parse(kScaledAcc));
  EXPECT_EQ(compare_compiled_with_interpreter(p, {{"n", 5}}, 1), "");
}

TEST(ToyVec, PlainCodeMayNotReadTheRegisterFile) {
  Proc plain = parse(kScaledAcc);
  Proc p = stage_mem(plain, "for j in _: _", "y[i, 0:8]", "y_reg");
  p = set_memory(p, "y_reg", toyvec::TOYREG());
  // The staging loops still read and write y_reg element by element: TOYREG refuses that
  // when the proc is checked or emitted.
  EXPECT_THROW(typecheck(p), TypeError);
  EXPECT_THROW(compile_procs_to_c({p}, "scaled_acc"), CodegenError);
}

TEST(ToyVec, ReplaceRefusesADramBufferWhereTheUnitWantsARegister) {
  Proc p = parse(R"(def copy8(a: f32[8] @ DRAM, b: f32[8] @ DRAM):
    for i in seq(0, 8):
        b[i] = a[i]
)");
  EXPECT_THROW(replace(p, "for i in _: _", toyvec::instr("toy_vld")), SchedulingError);
}

// Two rows each set the scale register to the same value: the second write is redundant and
// delete_config removes it before the writes become instructions.
TEST(ToyVec, DeleteConfigRemovesARepeatedScaleWrite) {
  Proc plain = parse(R"(def two_rows(s: f32[1] @ DRAM, x: f32[2, 8] @ DRAM, y: f32[2, 8] @ DRAM):
    for i in seq(0, 2):
        for j in seq(0, 8):
            y[i, j] += s[0] * x[i, j]
)");
  Proc p = schedule_onto_toyvec(plain, /*set_scale_instr=*/false);
  p = unroll_loop(p, "for i in _: _");
  ASSERT_EQ(p.find_all("ToyCfg.scale = _").size(), 2u) << p;
  p = delete_config(p, "ToyCfg.scale = _ #1");
  p = replace(p, "ToyCfg.scale = _", toyvec::instr("toy_set_scale"));
  EXPECT_EQ(p.find_all("ToyCfg.scale = _").size(), 0u) << p;
  EXPECT_EQ(p.find_all("toy_set_scale(_)").size(), 1u) << p;
  EXPECT_EQ(compare_buffers(plain, p, {}), "") << p;
}

// Two different scales with a read of the register between the writes: the second write is not
// redundant.
TEST(ToyVec, DeleteConfigRefusesAWriteOfADifferentValue) {
  Proc p = parse(R"(def two_scales(s: f32[2] @ DRAM, x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    ToyCfg.scale = s[0]
    for j in seq(0, 8):
        y[j] += ToyCfg.scale * x[j]
    ToyCfg.scale = s[1]
    for j in seq(0, 8):
        y[j] += ToyCfg.scale * x[j]
)");
  try {
    delete_config(p, "ToyCfg.scale = _ #1");
    ADD_FAILURE() << "delete_config removed a write of a different value";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), "delete_config");
    EXPECT_NE(std::string(e.what()).find("already holds"), std::string::npos) << e.what();
  }
}
