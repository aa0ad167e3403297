// Type checker tests on IR built by hand with make(): the checker must hold for IR that no
// parser produced (rewrites build IR this way), including IR the parser would never build.
#include <gtest/gtest.h>

#include <memory>

#include "core/errors.h"
#include "core/ir.h"
#include "core/memory.h"
#include "core/typecheck.h"

namespace exocpp {
namespace {

// Locations in a pretend source file: line l, column c.
SrcInfo at(int l, int c) {
  static auto file = std::make_shared<SourceFile>(SourceFile{"<ir>", ""});
  return SrcInfo{file, l, c};
}

Proc make_proc(const std::string& name, std::vector<FnArg> args, Block body,
               std::vector<Expr> preds = {}, std::optional<InstrInfo> instr = std::nullopt) {
  auto p = std::make_shared<ProcNode>();
  p->name = name;
  p->args = std::move(args);
  p->preds = std::move(preds);
  p->body = std::move(body);
  p->instr = std::move(instr);
  p->srcinfo = at(1, 1);
  return Proc(p);
}

Expr rd(const Sym& s, ScalarKind t, std::vector<Expr> idx = {}, SrcInfo loc = {}) {
  return ReadNode::make(s, std::move(idx), Type(t), std::move(loc));
}
Expr lit(int64_t v, SrcInfo loc = {}) { return ConstNode::make_int(v, std::move(loc)); }

// Runs typecheck(p) and checks it throws a TypeError with this reason at line:col.
void expect_type_error(const Proc& p, const std::string& reason, int line, int col) {
  try {
    typecheck(p);
    ADD_FAILURE() << "expected TypeError: " << reason;
  } catch (const TypeError& e) {
    EXPECT_EQ(e.reason(), reason);
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_EQ(e.loc().col, col) << e.what();
  }
}

// def copy(N: size, A: f32[N] @ DRAM, B: f32[N] @ DRAM):
//     for i in seq(0, N):
//         B[i] = A[i]
struct Copy {
  Sym N{"N"}, A{"A"}, B{"B"}, i{"i"};
  std::vector<FnArg> args() const {
    return {FnArg{N, Type(ScalarKind::Size), "", at(1, 10)},
            FnArg{A, Type(ScalarKind::F32, {rd(N, ScalarKind::Size)}), "DRAM", at(1, 19)},
            FnArg{B, Type(ScalarKind::F32, {rd(N, ScalarKind::Size)}), "DRAM", at(1, 35)}};
  }
  Proc proc(Expr rhs) const {
    Stmt body = AssignNode::make(B, ScalarKind::F32, {rd(i, ScalarKind::Index)}, rhs, at(3, 9));
    Stmt loop = ForNode::make(i, lit(0), rd(N, ScalarKind::Size), {body}, LoopMode::Seq, at(2, 5));
    return make_proc("copy", args(), {loop});
  }
};

TEST(TypecheckIR, WellTypedCopyPasses) {
  Copy c;
  EXPECT_NO_THROW(typecheck(c.proc(rd(c.A, ScalarKind::F32, {rd(c.i, ScalarKind::Index)}))));
}

TEST(TypecheckIR, IndexWithDataValueIsRejected) {
  Copy c;
  Sym x("x");
  // B[i] = A[x] where x: f32 is a second argument.
  Proc p0 = c.proc(rd(c.A, ScalarKind::F32, {rd(x, ScalarKind::F32, {}, at(3, 18))}, at(3, 16)));
  auto args = p0.args();
  args.push_back(FnArg{x, Type(ScalarKind::F32), "DRAM", at(1, 50)});
  Proc p = make_proc("copy", args, p0.body());
  expect_type_error(p, "index of 'A' must be a control value (int, index or size), but 'x' is "
                       "data of type f32", 3, 18);
}

TEST(TypecheckIR, ReadOutsideItsScopeIsRejected) {
  Copy c;
  // A loop variable read after its loop: only a hand-built (or mis-rewritten) IR can do this.
  Proc p0 = c.proc(rd(c.A, ScalarKind::F32, {rd(c.i, ScalarKind::Index)}));
  Block body = p0.body();
  body.push_back(AssignNode::make(c.B, ScalarKind::F32, {rd(c.i, ScalarKind::Index, {}, at(4, 7))},
                                  lit(0), at(4, 5)));
  expect_type_error(make_proc("copy", c.args(), body),
                    "'i' is not defined here (it is used outside the scope of its declaration)",
                    4, 7);
}

TEST(TypecheckIR, WrongIndexCountIsRejected) {
  Copy c;
  Expr bad = rd(c.A, ScalarKind::F32, {rd(c.i, ScalarKind::Index), lit(0)}, at(3, 16));
  expect_type_error(c.proc(bad), "wrong number of indices for 'A': it has rank 1, got 2 indices",
                    3, 16);
}

TEST(TypecheckIR, InconsistentReadTypeIsRejected) {
  Copy c;
  Expr bad = rd(c.A, ScalarKind::F64, {rd(c.i, ScalarKind::Index)}, at(3, 16));
  expect_type_error(c.proc(bad),
                    "this read of 'A' has type f64 but 'A' is an argument of type f32[N] "
                    "(inconsistent IR)",
                    3, 16);
}

TEST(TypecheckIR, NonPositiveConstantDimensionIsRejected) {
  Sym A("A");
  Proc p = make_proc("f", {FnArg{A, Type(ScalarKind::F32, {BinOpNode::make(BinOpKind::Sub, lit(4), lit(4), at(1, 13))}), "DRAM",
                                 at(1, 7)}},
                     {PassNode::make(at(2, 5))});
  expect_type_error(p, "dimension 0 of 'A' must be positive, got 0", 1, 13);
}

// A memory only instructions may touch, registered for these tests.
class RegsMemory : public Memory {
 public:
  std::string name() const override { return "TC_IR_REGS"; }
  bool can_read() const override { return false; }
};

Proc store_to_regs(std::optional<InstrInfo> instr) {
  Sym r("r");
  static bool registered = (register_memory(std::make_shared<RegsMemory>()), true);
  (void)registered;
  return make_proc("st", {FnArg{r, Type(ScalarKind::F32), "TC_IR_REGS", at(1, 8)}},
                   {AssignNode::make(r, ScalarKind::F32, {}, lit(1), at(2, 5))}, {},
                   std::move(instr));
}

TEST(TypecheckIR, WriteToInstructionOnlyMemoryInPlainProcIsRejected) {
  expect_type_error(store_to_regs(std::nullopt),
                    "cannot write 'r' in proc 'st': it lives in memory TC_IR_REGS, which only "
                    "instructions (@instr procs) may access; call an instruction or stage the "
                    "data in DRAM",
                    2, 5);
}

TEST(TypecheckIR, WriteToInstructionOnlyMemoryInInstrPasses) {
  EXPECT_NO_THROW(typecheck(store_to_regs(InstrInfo{"st({r_data});", ""})));
}

TEST(TypecheckIR, UnknownMemoryIsRejected) {
  Sym A("A");
  Proc p = make_proc("f", {FnArg{A, Type(ScalarKind::F32, {lit(4)}), "NO_SUCH_MEM", at(1, 7)}},
                     {PassNode::make(at(2, 5))});
  try {
    typecheck(p);
    ADD_FAILURE() << "expected TypeError";
  } catch (const TypeError& e) {
    EXPECT_EQ(e.reason().rfind("unknown memory 'NO_SUCH_MEM' for 'A' (registered memories: ", 0),
              0u)
        << e.reason();
    EXPECT_NE(e.reason().find("DRAM"), std::string::npos);
    EXPECT_EQ(e.loc().line, 1);
  }
}

TEST(TypecheckIR, UnnamedProcIsRejected) {
  expect_type_error(make_proc("", {}, {PassNode::make(at(2, 5))}), "a proc needs a name", 1, 1);
}

}  // namespace
}  // namespace exocpp
