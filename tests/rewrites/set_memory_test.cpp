// Tests of set_memory: an allocation's or argument's memory changes; a memory plain code may
// not touch is refused while plain code reads or writes the buffer.
#include "rewrites/rewrite_test_util.h"

namespace exocpp::testing {
namespace {

// A register file only instructions may access.
class TestRegs : public Memory {
 public:
  std::string name() const override { return "TEST_REGS"; }
  bool can_read() const override { return false; }
};
void register_test_regs() { register_memory(std::make_shared<TestRegs>()); }

const char* kLib = R"(
@instr("load({dst_data}, {src_data});")
def load(dst: [f32][4] @ TEST_REGS, src: [f32][4] @ DRAM):
    for i in seq(0, 4):
        dst[i] = src[i]

@instr("store({dst_data}, {src_data});")
def store(dst: [f32][4] @ DRAM, src: [f32][4] @ TEST_REGS):
    for i in seq(0, 4):
        dst[i] = src[i]
)";

TEST(SetMemory, AllocationToStaticDram) {
  Proc p = parse_proc(R"(
def foo(x: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    for i in seq(0, 4):
        t[i] = x[i]
    for i in seq(0, 4):
        x[i] = t[i] * 2.0
)");
  Proc q = set_memory(p, "t", DRAM_STATIC());
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(SetMemory, ByRegisteredName) {
  Proc p = parse_proc(R"(
def foo(x: f32[4] @ DRAM):
    x[0] = 1.0
)");
  Proc q = set_memory(p, "x", "DRAM_STACK");
  EXPECT_EQ(q.args()[0].mem, "DRAM_STACK");
  expect_equivalent(p, q);
}

TEST(SetMemory, UnreadableMemoryUsedOnlyByInstructionsIsAccepted) {
  register_test_regs();
  Proc p = parse_proc(std::string(kLib) + R"(
def foo(x: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    load(t[0:4], x[0:4])
    store(x[0:4], t[0:4])
)");
  Proc q = set_memory(p, "t", "TEST_REGS");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

// Mid-schedule the copy loop may still be plain code (replace comes next); the finished proc's
// type check and codegen refuse the plain access, naming it.
TEST(SetMemory, UnreadableMemoryReadByPlainCodeIsRefusedWhenChecked) {
  register_test_regs();
  Proc p = parse_proc(R"(
def foo(x: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    for i in seq(0, 4):
        t[i] = x[i]
)");
  Proc q = set_memory(p, "t", "TEST_REGS");
  try {
    typecheck(q);
    ADD_FAILURE() << "typecheck accepted plain code writing a TEST_REGS buffer";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write 't'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(compile_procs_to_c({q}, "foo"), CodegenError);
}

TEST(SetMemory, UnknownMemoryNameListsRegistered) {
  Proc p = parse_proc(R"(
def foo(x: f32[4] @ DRAM):
    x[0] = 1.0
)");
  expect_refused([&] { set_memory(p, "x", "NOPE"); }, "set_memory", ErrorCode::BadArgument,
                 "arg.undefined", "unknown memory 'NOPE' (registered memories: ");
}

TEST(SetMemory, ControlArgumentIsRefused) {
  Proc p = parse_proc(R"(
def foo(n: size, x: f32[n] @ DRAM):
    x[0] = 1.0
)");
  expect_refused([&] { set_memory(p, "n", "DRAM"); }, "set_memory", ErrorCode::BadArgument,
                 "target.wrong_kind", "control argument");
}

TEST(SetMemory, ForwardsCursors) {
  Proc p = parse_proc(R"(
def foo(x: f32[4] @ DRAM):
    t: f32[4] @ DRAM
    t[0] = x[0]
)");
  Cursor w = p.body_cursor()[1];
  Proc q = set_memory(p, "t", DRAM_STATIC());
  EXPECT_EQ(q.forward(w).to_string(), "t[0] = x[0]");
}

// A memory name that is not registered is the user's mistake: BadArgument arg.undefined.
TEST(SetMemory, AnUnknownMemoryIsABadArgumentArgUndefined) {
  Proc p = parse_proc(R"(
def foo(x: f32[4] @ DRAM):
    x[0] = 1.0
)");
  expect_refused([&] { set_memory(p, "x", "NOPE"); }, "set_memory", ErrorCode::BadArgument,
                 "arg.undefined");
}

}  // namespace
}  // namespace exocpp::testing
