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
  expect_type_error(p,
                    "index of 'A' must be a control value (int, index or size), but 'x' is "
                    "data of type f32",
                    3, 18);
}

TEST(TypecheckIR, ReadOutsideItsScopeIsRejected) {
  Copy c;
  // A loop variable read after its loop: only a hand-built (or mis-rewritten) IR can do this.
  Proc p0 = c.proc(rd(c.A, ScalarKind::F32, {rd(c.i, ScalarKind::Index)}));
  Block body = p0.body();
  body.push_back(AssignNode::make(c.B, ScalarKind::F32, {rd(c.i, ScalarKind::Index, {}, at(4, 7))},
                                  lit(0), at(4, 5)));
  expect_type_error(make_proc("copy", c.args(), body),
                    "'i' is not defined here (it is used outside the scope of its declaration)", 4,
                    7);
}

TEST(TypecheckIR, WrongIndexCountIsRejected) {
  Copy c;
  Expr bad = rd(c.A, ScalarKind::F32, {rd(c.i, ScalarKind::Index), lit(0)}, at(3, 16));
  expect_type_error(c.proc(bad), "wrong number of indices for 'A': it has rank 1, got 2 indices", 3,
                    16);
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
  Proc p = make_proc(
      "f",
      {FnArg{A, Type(ScalarKind::F32, {BinOpNode::make(BinOpKind::Sub, lit(4), lit(4), at(1, 13))}),
             "DRAM", at(1, 7)}},
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
  EXPECT_NO_THROW(typecheck(store_to_regs(InstrInfo{"st({r_data});", "", "", "", ""})));
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

// Rules the parser already enforces on source text; IR built by a rewrite must obey them too.

TEST(TypecheckIR, WritingAControlVariableIsRejected) {
  Sym N("N"), i("i");
  Stmt body = AssignNode::make(i, ScalarKind::Index, {}, lit(0), at(3, 9));
  Stmt loop = ForNode::make(i, lit(0), rd(N, ScalarKind::Size), {body}, LoopMode::Seq, at(2, 5));
  Proc p = make_proc("f", {FnArg{N, Type(ScalarKind::Size), "", at(1, 7)}}, {loop});
  expect_type_error(
      p, "cannot write to 'i': it is a loop variable; only data buffers can be written", 3, 9);
}

TEST(TypecheckIR, StrideDimensionOutOfRangeIsRejected) {
  Sym A("A");
  Expr cond =
      BinOpNode::make(BinOpKind::Eq, StrideExprNode::make(A, 2, at(2, 12)), lit(1), at(2, 12));
  Proc p = make_proc("f", {FnArg{A, Type(ScalarKind::F32, {lit(4), lit(4)}), "DRAM", at(1, 7)}},
                     {PassNode::make(at(3, 5))}, {cond});
  expect_type_error(p, "stride(A, 2): dimension 2 is out of range; 'A' has rank 2 (0 <= d < 2)", 2,
                    12);
}

TEST(TypecheckIR, StrideOfScalarIsRejected) {
  Sym x("x");
  Expr cond =
      BinOpNode::make(BinOpKind::Eq, StrideExprNode::make(x, 0, at(2, 12)), lit(1), at(2, 12));
  Proc p = make_proc("f", {FnArg{x, Type(ScalarKind::F32), "DRAM", at(1, 7)}},
                     {PassNode::make(at(3, 5))}, {cond});
  expect_type_error(p, "stride() needs a tensor or window, but 'x' is an argument of type f32", 2,
                    12);
}

TEST(TypecheckIR, WindowAsAValueIsRejected) {
  Sym A("A"), x("x");
  Expr w = WindowExprNode::make(A, ScalarKind::F32, {WAccess::interval(lit(0), lit(2))}, at(2, 9));
  Proc p = make_proc("f",
                     {FnArg{A, Type(ScalarKind::F32, {lit(4)}), "DRAM", at(1, 7)},
                      FnArg{x, Type(ScalarKind::F32), "DRAM", at(1, 20)}},
                     {AssignNode::make(x, ScalarKind::F32, {}, w, at(2, 5))});
  expect_type_error(p,
                    "a window A[...] with intervals can only be passed to a call or bound by a "
                    "window statement (w = A[i, 0:n])",
                    2, 9);
}

TEST(TypecheckIR, PointOnlyWindowStatementIsRejected) {
  Sym A("A"), w("w");
  Expr rhs = WindowExprNode::make(A, ScalarKind::F32, {WAccess::point(lit(1))}, at(2, 9));
  Proc p = make_proc("f", {FnArg{A, Type(ScalarKind::F32, {lit(4)}), "DRAM", at(1, 7)}},
                     {WindowStmtNode::make(w, rhs, at(2, 5))});
  expect_type_error(p,
                    "window statement 'w' needs at least one interval (lo:hi); A[...] with only "
                    "points is a single element",
                    2, 9);
}

TEST(TypecheckIR, MissingConfigFieldIsRejected) {
  auto cfg = std::make_shared<ConfigNode>();
  cfg->name = "Cfg";
  cfg->fields = {ConfigField{"n", ScalarKind::Index}};
  Proc p = make_proc("f", {}, {WriteConfigNode::make(cfg, "m", lit(1), at(2, 5))});
  expect_type_error(p, "config 'Cfg' has no field 'm'", 2, 5);
}

TEST(TypecheckIR, AllocOfControlTypeIsRejected) {
  Sym n("n");
  Proc p = make_proc("f", {}, {AllocNode::make(n, Type(ScalarKind::Index), "DRAM", at(2, 5))});
  expect_type_error(p,
                    "cannot allocate 'n' of control type index: only data buffers are allocated "
                    "(control values are arguments or loop variables)",
                    2, 5);
}

TEST(TypecheckIR, SymbolDeclaredTwiceInOneScopeIsRejected) {
  Sym t("t");
  Proc p = make_proc("f", {},
                     {AllocNode::make(t, Type(ScalarKind::F32), "DRAM", at(2, 5)),
                      AllocNode::make(t, Type(ScalarKind::F32), "DRAM", at(3, 5))});
  expect_type_error(p,
                    "'t' is declared again while its earlier declaration is still in scope "
                    "(one symbol, two declarations)",
                    3, 5);
}

TEST(TypecheckIR, SameSymbolInSiblingBlocksPasses) {
  // Rewrites that copy a block (unrolling, fission) may reuse an allocation's symbol in
  // sibling scopes; only a nested redeclaration is ambiguous.
  Sym N("N"), t("t");
  auto body = [&] {
    return Block{AllocNode::make(t, Type(ScalarKind::F32), "DRAM", at(3, 9)),
                 AssignNode::make(t, ScalarKind::F32, {}, lit(0), at(4, 9))};
  };
  Proc p = make_proc("f", {FnArg{N, Type(ScalarKind::Size), "", at(1, 7)}},
                     {ForNode::make(Sym("i"), lit(0), rd(N, ScalarKind::Size), body()),
                      ForNode::make(Sym("j"), lit(0), rd(N, ScalarKind::Size), body())});
  EXPECT_NO_THROW(typecheck(p));
}

TEST(TypecheckIR, ModuleChecksEveryProc) {
  Module m;
  m.procs.push_back(make_proc("ok", {}, {PassNode::make(at(2, 5))}));
  m.procs.push_back(make_proc("", {}, {PassNode::make(at(2, 5))}));
  EXPECT_NO_THROW(typecheck(m.procs[0]));
  EXPECT_THROW(typecheck(m), TypeError);
}

}  // namespace
}  // namespace exocpp
