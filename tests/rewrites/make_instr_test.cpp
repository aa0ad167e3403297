// make_instr: a proc -> an @instr proc with a C template.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include "rewrite_test_util.h"
#include "rewrites/fixtures.h"
#include "rewrites/subprocs.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kSrc = R"(def load4(n: size, dst: [f32][4] @ DRAM, src: [f32][4] @ DRAM):
    for i in seq(0, 4):
        dst[i] = src[i]
)";

TEST(MakeInstr, TheProcBecomesAnInstruction) {
  Proc p = parse_proc(kSrc);
  Proc q =
      make_instr(p, "{dst_data} = _mm_loadu_ps(&{src_data}[0]); // {n}", "#include <immintrin.h>");
  ASSERT_TRUE(q.is_instr());
  EXPECT_EQ(q->instr->c_global, "#include <immintrin.h>");
  expect_golden(to_string(q));
  expect_equivalent(p, q);
}

TEST(MakeInstr, TheInstructionStaysEquivalentToItsProc) {
  Proc p = parse_proc(kSrc);
  Proc q = make_instr(p, "{dst_data}[0] = 0;");
  EXPECT_TRUE(procs_equivalent(p, q));
}

TEST(MakeInstr, PrintedInstructionParsesBack) {
  Proc q = make_instr(parse_proc(kSrc), "f(\"{dst_data}\");\nfor (;;) { break; }");
  Module m = parse_module(to_string(q));
  EXPECT_EQ(m.procs.back()->instr->c_instr, q->instr->c_instr);
}

TEST(MakeInstr, BracesAroundCAreNotHoles) {
  const std::string t = "for (int k = 0; k < 4; k++) {\n    {dst_data}[k] = { 0 }.x;\n}";
  Proc q = make_instr(parse_proc(kSrc), t);
  EXPECT_EQ(q->instr->c_instr, t);
}

TEST(MakeInstr, RefusesAHoleNamingNoArgument) {
  Proc p = parse_proc(kSrc);
  expect_refused(
      [&] { make_instr(p, "{out_data} = 0;"); }, "make_instr", ErrorCode::BadArgument,
      "arg.invalid",
      "the template hole {out_data} names no argument of 'load4' (arguments: n, dst, src");
}

TEST(MakeInstr, RefusesTheDataPointerOfAControlArgument) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { make_instr(p, "{n_data}"); }, "make_instr", ErrorCode::BadArgument,
                 "arg.invalid", "'n', which is a control value");
}

TEST(MakeInstr, RefusesAHoleNamingNoArgumentAmongOtherHoles) {
  Proc p = parse_proc(kSrc);
  expect_refused([&] { make_instr(p, "{dst_data} = {src_data} + {n} + {m};"); }, "make_instr",
                 ErrorCode::BadArgument, "arg.invalid", "the template hole {m} names no argument");
}

TEST(MakeInstr, ForwardsEveryCursorToItself) {
  Proc p = parse_proc(kSrc);
  Cursor assign = p.find("dst[_] = _");
  Proc q = make_instr(p, "{dst_data}[0] = 0;");
  EXPECT_EQ(q.forward(assign).loc(), assign.loc());
  EXPECT_EQ(q.forward(assign).to_string(), "dst[i] = src[i]");
}

}  // namespace

namespace {

// Trust (emitted C): the operation refuses what codegen could not emit.
TEST(MakeInstr, BadTemplatesAreRefusedWithTheParsersReason) {
  Proc p = proc_of("def ins(n: size, x: [f32][4] @ DRAM):\n    x[0] = 1.0\n", "ins");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{nonexistent} {x_data}", "the template hole {nonexistent} names no argument of 'ins'"},
      {"{x_data} = 0; {", "is never closed"},
      {"{x_data} = 0; }", "an unmatched '}'"},
      {"{n_data} = 0;", "which is a control value"},
  };
  for (const auto& [tmpl, phrase] : cases) {
    try {
      make_instr(p, tmpl);
      ADD_FAILURE() << tmpl << " accepted";
    } catch (const SchedulingError& e) {
      EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("make_instr"), std::string::npos) << e.what();
    }
  }
}

// Trust (emitted C): the operation refuses what codegen could not emit.
TEST(MakeInstr, GoodTemplateIsAcceptedAndEquivalent) {
  Proc p = proc_of("def ins(n: size, x: [f32][4] @ DRAM):\n    x[0] = 1.0\n", "ins");
  Proc q = make_instr(p, "{ (&{x_data})[0] = 1.0f; (void){n}; }");
  EXPECT_TRUE(q.is_instr());
  for (int64_t n : {1, 4}) EXPECT_EQ(compare_procs(p, q, {{"n", n}}), "");
}

}  // namespace
