// Positive tests of the parser: the IR built for each construct of the procedure language
// (node kinds, resolved symbols, types, memories and source locations), plus the tokenizer.
#include "core/parser.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "core/externs.h"
#include "core/lexer.h"
#include "core/printer.h"

using namespace exocpp;

namespace {

// The last proc of `src`.
Proc last_proc(const std::string& src, const ParseOptions& opts = {}) {
  Module m = parse_module(src, opts, "test.exo");
  EXOCPP_ASSERT(!m.procs.empty(), "no proc parsed");
  return m.procs.back();
}

template <class T>
const T* as(const Stmt& s) {
  const T* n = s.as<T>();
  EXPECT_NE(n, nullptr) << "statement is a " << to_string(s.kind()) << ", not a "
                        << to_string(T::kind_tag);
  return n;
}
template <class T>
const T* as(const Expr& e) {
  const T* n = e.as<T>();
  EXPECT_NE(n, nullptr) << "expression is a " << to_string(e.kind()) << ", not a "
                        << to_string(T::kind_tag);
  return n;
}

// The statement that is the whole body of the single-statement proc `def f(<args>): <stmt>`.
Stmt only_stmt(const std::string& args, const std::string& stmt, const ParseOptions& opts = {}) {
  Proc p = last_proc("def f(" + args + "):\n    " + stmt + "\n", opts);
  EXOCPP_ASSERT(p.body().size() == 1, "expected one statement");
  return p.body()[0];
}

// The right-hand side of `x[0] = <e>` in a proc with args `x: f32[4]` plus `args`.
Expr rhs_of(const std::string& args, const std::string& e, const ParseOptions& opts = {}) {
  Stmt s = only_stmt(args, "x[0] = " + e, opts);
  return s.as<AssignNode>()->rhs;
}

void expect_loc(const SrcInfo& s, int line, int col) {
  EXPECT_EQ(s.line, line);
  EXPECT_EQ(s.col, col);
  ASSERT_NE(s.file, nullptr);
  EXPECT_EQ(s.file->name, "test.exo");
}

const char* kGemm =
    R"(def gemm(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM,
         C: f32[N, M] @ DRAM):
    assert N >= 1
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]
)";

}  // namespace

// ---- procs and arguments ---------------------------------------------------------------------

TEST(ParserProc, ControlArgumentsHaveTheirTypeAndNoMemory) {
  Proc p = last_proc(kGemm);
  ASSERT_EQ(p.args().size(), 6u);
  EXPECT_EQ(p.name(), "gemm");
  EXPECT_EQ(p.args()[0].name.name(), "N");
  EXPECT_TRUE(p.args()[0].type.is_control());
  EXPECT_EQ(p.args()[0].type.base, ScalarKind::Size);
  EXPECT_EQ(p.args()[0].mem, "");
}

TEST(ParserProc, TensorArgumentShapeRefersToEarlierArguments) {
  Proc p = last_proc(kGemm);
  const FnArg& a = p.args()[3];
  EXPECT_EQ(a.name.name(), "A");
  EXPECT_EQ(a.type.base, ScalarKind::F32);
  EXPECT_FALSE(a.type.window);
  ASSERT_EQ(a.type.rank(), 2);
  const ReadNode* d0 = as<ReadNode>(a.type.shape[0]);
  const ReadNode* d1 = as<ReadNode>(a.type.shape[1]);
  EXPECT_EQ(d0->name, p.args()[0].name);  // N
  EXPECT_EQ(d1->name, p.args()[2].name);  // K
  EXPECT_EQ(a.mem, "DRAM");
}

TEST(ParserProc, DataArgumentDefaultsToDram) {
  Proc p = last_proc("def f(x: f32[4], y: R):\n    pass\n");
  EXPECT_EQ(p.args()[0].mem, "DRAM");
  EXPECT_EQ(p.args()[1].mem, "DRAM");
  EXPECT_TRUE(p.args()[1].type.is_scalar());
  EXPECT_EQ(p.args()[1].type.base, ScalarKind::R);
}

TEST(ParserProc, ExplicitMemoryAnnotationIsKept) {
  Proc p = last_proc("def f(x: f32[4] @ DRAM_STATIC):\n    pass\n");
  EXPECT_EQ(p.args()[0].mem, "DRAM_STATIC");
}

TEST(ParserProc, WindowArgumentType) {
  Proc p = last_proc("def f(n: size, w: [i8][n, 4]):\n    pass\n");
  const Type& t = p.args()[1].type;
  EXPECT_TRUE(t.window);
  EXPECT_EQ(t.base, ScalarKind::I8);
  ASSERT_EQ(t.rank(), 2);
  EXPECT_EQ(as<ConstNode>(t.shape[1])->int_val(), 4);
}

// Python (and so Exo) accepts a trailing comma in a subscript: `f32[N, 4,]`.
TEST(ParserProc, AShapeMayEndWithAComma) {
  Proc p = last_proc(
      "def f(n: size, x: f32[n, 4,] @ DRAM, w: [i8][n,]):\n    t: f32[4,] @ DRAM\n    pass\n");
  EXPECT_EQ(p.args()[1].type.rank(), 2);
  EXPECT_EQ(p.args()[2].type.rank(), 1);
  EXPECT_EQ(to_string(p).find(",]"), std::string::npos) << p;
}

TEST(ParserProc, EveryScalarTypeIsRecognised) {
  Proc p = last_proc(
      "def f(a: size, b: index, c: int, d: bool, e: stride, r: R, h: f16, bh: bf16, s: f32, "
      "g: f64, i: i8, u: ui8, v: ui16, w: i32):\n    pass\n");
  const ScalarKind want[] = {
      ScalarKind::Size, ScalarKind::Index, ScalarKind::Int,  ScalarKind::Bool, ScalarKind::Stride,
      ScalarKind::R,    ScalarKind::F16,   ScalarKind::BF16, ScalarKind::F32,  ScalarKind::F64,
      ScalarKind::I8,   ScalarKind::UI8,   ScalarKind::UI16, ScalarKind::I32};
  ASSERT_EQ(p.args().size(), std::size(want));
  for (size_t i = 0; i < std::size(want); ++i) EXPECT_EQ(p.args()[i].type.base, want[i]) << i;
}

TEST(ParserProc, AssertsBecomePreconditionsInOrder) {
  Proc p = last_proc(
      "def f(n: size, m: size):\n    assert n >= 1\n    assert n % 4 == 0 and m < n\n    pass\n");
  ASSERT_EQ(p.preds().size(), 2u);
  EXPECT_EQ(as<BinOpNode>(p.preds()[0])->op, BinOpKind::Ge);
  EXPECT_EQ(as<BinOpNode>(p.preds()[1])->op, BinOpKind::And);
  EXPECT_EQ(p.preds()[1].type().base, ScalarKind::Bool);
  ASSERT_EQ(p.body().size(), 1u);
  EXPECT_TRUE(p.body()[0].is<PassNode>());
}

TEST(ParserProc, InstrDecoratorGivesTemplate) {
  Proc p = last_proc(
      "@instr(\"{dst_data}[0] = {src_data}[0];\")\ndef ld(dst: [f32][1], src: [f32][1]):\n    "
      "dst[0] = src[0]\n");
  ASSERT_TRUE(p.is_instr());
  EXPECT_EQ(p->instr->c_instr, "{dst_data}[0] = {src_data}[0];");
  EXPECT_EQ(p->instr->c_global, "");
}

TEST(ParserProc, InstrDecoratorWithGlobalAndEscapes) {
  Proc p = last_proc(
      "@instr(\"a(\\\"{x}\\\");\\n\", c_global=\"#include <immintrin.h>\")\ndef i(x: f32):\n    "
      "pass\n");
  ASSERT_TRUE(p.is_instr());
  EXPECT_EQ(p->instr->c_instr, "a(\"{x}\");\n");
  EXPECT_EQ(p->instr->c_global, "#include <immintrin.h>");
}

TEST(ParserProc, InstrTemplateMayBeTripleQuoted) {
  Proc p = last_proc("@instr(\"\"\"line1\nline \"2\" end\"\"\")\ndef i(x: f32):\n    pass\n");
  EXPECT_EQ(p->instr->c_instr, "line1\nline \"2\" end");
}

TEST(ParserProc, AdjacentTemplateStringsConcatenate) {
  Proc p = last_proc("@instr(\"a;\"\n       \"b;\")\ndef i(x: f32):\n    pass\n");
  EXPECT_EQ(p->instr->c_instr, "a;b;");
}

TEST(ParserProc, ReturnAnnotationNoneIsAccepted) {
  Proc p = last_proc("def f(x: f32) -> None:\n    pass\n");
  EXPECT_EQ(p.args().size(), 1u);
}

TEST(ParserProc, BackslashContinuesALine) {
  Proc p = last_proc("def f(n: size):\n    assert n > 1 and \\\n        n < 8\n    pass\n");
  EXPECT_EQ(as<BinOpNode>(p.preds()[0])->op, BinOpKind::And);
}

TEST(ParserProc, ProcDefinedInSourceShadowsOptionProc) {
  Proc lib = last_proc("def g(x: f32):\n    pass\n");
  ParseOptions opts;
  opts.procs.push_back(lib);
  Module m = parse_module("def g(x: f32):\n    x = 1.0\ndef f(y: f32):\n    g(y)\n", opts);
  EXPECT_EQ(as<CallNode>(m.proc("f").body()[0])->proc, m.proc("g").ptr());
}

TEST(ParserProc, ProcDecoratorIsAcceptedAndIgnored) {
  Proc p = last_proc("@proc\ndef f(x: f32):\n    pass\n");
  EXPECT_FALSE(p.is_instr());
  EXPECT_EQ(p.name(), "f");
}

TEST(ParserProc, ModuleKeepsProcsAndConfigsInSourceOrder) {
  Module m = parse_module("def a():\n    pass\nconfig C:\n    x: f32\ndef b():\n    pass\n");
  ASSERT_EQ(m.procs.size(), 2u);
  EXPECT_EQ(m.procs[0].name(), "a");
  EXPECT_EQ(m.procs[1].name(), "b");
  ASSERT_EQ(m.configs.size(), 1u);
  EXPECT_TRUE(m.has_proc("b"));
}

TEST(ParserProc, ConfigFieldsAndTypes) {
  Module m = parse_module("config Cfg:\n    scale: f32\n    n: index\n    on: bool\n");
  Config c = m.config("Cfg");
  ASSERT_EQ(c->fields.size(), 3u);
  EXPECT_EQ(c->fields[0].name, "scale");
  EXPECT_EQ(c->fields[0].type, ScalarKind::F32);
  EXPECT_EQ(c->fields[1].type, ScalarKind::Index);
  EXPECT_EQ(c->fields[2].type, ScalarKind::Bool);
}

TEST(ParserProc, ArgumentSymbolsAreDistinctAcrossProcs) {
  Module m = parse_module("def a(n: size):\n    pass\ndef b(n: size):\n    pass\n");
  EXPECT_NE(m.procs[0].args()[0].name, m.procs[1].args()[0].name);
}

// ---- statements ------------------------------------------------------------------------------

TEST(ParserStmt, NestedLoopsResolveIteratorsAndArguments) {
  Proc p = last_proc(kGemm);
  const ForNode* fi = as<ForNode>(p.body()[0]);
  EXPECT_EQ(fi->iter.name(), "i");
  EXPECT_EQ(fi->mode, LoopMode::Seq);
  EXPECT_EQ(as<ConstNode>(fi->lo)->int_val(), 0);
  EXPECT_EQ(as<ReadNode>(fi->hi)->name, p.args()[0].name);
  const ForNode* fj = as<ForNode>(fi->body[0]);
  const ForNode* fk = as<ForNode>(fj->body[0]);
  const ReduceNode* r = as<ReduceNode>(fk->body[0]);
  EXPECT_EQ(r->name, p.args()[5].name);  // C
  EXPECT_EQ(r->type, ScalarKind::F32);
  ASSERT_EQ(r->idx.size(), 2u);
  EXPECT_EQ(as<ReadNode>(r->idx[0])->name, fi->iter);
  EXPECT_EQ(as<ReadNode>(r->idx[1])->name, fj->iter);
  EXPECT_EQ(r->idx[0].type().base, ScalarKind::Index);
  const BinOpNode* mul = as<BinOpNode>(r->rhs);
  EXPECT_EQ(mul->op, BinOpKind::Mul);
  EXPECT_EQ(as<ReadNode>(mul->lhs)->idx[1].as<ReadNode>()->name, fk->iter);
  EXPECT_EQ(mul->type.base, ScalarKind::F32);
}

TEST(ParserStmt, ParallelLoop) {
  Stmt st = only_stmt("n: size, x: f32[n]", "for i in par(1, n - 1):\n        x[i] = 0.0");
  const ForNode* f = st.as<ForNode>();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->mode, LoopMode::Par);
  EXPECT_EQ(as<BinOpNode>(f->hi)->op, BinOpKind::Sub);
}

TEST(ParserStmt, InnerLoopVariableShadowsOuter) {
  Proc p = last_proc(
      "def f(x: f32[8]):\n    for i in seq(0, 8):\n        for i in seq(0, 4):\n            x[i] = "
      "1.0\n        x[i] = 2.0\n");
  const ForNode* outer = as<ForNode>(p.body()[0]);
  const ForNode* inner = as<ForNode>(outer->body[0]);
  EXPECT_NE(outer->iter, inner->iter);
  EXPECT_EQ(as<ReadNode>(as<AssignNode>(inner->body[0])->idx[0])->name, inner->iter);
  EXPECT_EQ(as<ReadNode>(as<AssignNode>(outer->body[1])->idx[0])->name, outer->iter);
}

TEST(ParserStmt, AssignToScalarArgument) {
  Proc p = last_proc("def f(s: f64):\n    s = 2.0\n");
  const AssignNode* a = as<AssignNode>(p.body()[0]);
  EXPECT_EQ(a->name, p.args()[0].name);
  EXPECT_EQ(a->type, ScalarKind::F64);
  EXPECT_TRUE(a->idx.empty());
}

TEST(ParserStmt, IfElse) {
  Stmt st =
      only_stmt("n: size, x: f32[4]", "if n < 4:\n        x[0] = 1.0\n    else:\n        pass");
  const IfNode* s = st.as<IfNode>();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(as<BinOpNode>(s->cond)->op, BinOpKind::Lt);
  ASSERT_EQ(s->body.size(), 1u);
  ASSERT_EQ(s->orelse.size(), 1u);
  EXPECT_TRUE(s->orelse[0].is<PassNode>());
}

TEST(ParserStmt, IfWithoutElseHasEmptyOrelse) {
  Stmt st = only_stmt("n: size", "if n == 4:\n        pass");
  const IfNode* s = st.as<IfNode>();
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->orelse.empty());
}

TEST(ParserStmt, ElifBecomesNestedIf) {
  Stmt st = only_stmt(
      "n: size", "if n < 4:\n        pass\n    elif n < 8:\n        pass\n    else:\n        pass");
  const IfNode* s = st.as<IfNode>();
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->orelse.size(), 1u);
  const IfNode* inner = as<IfNode>(s->orelse[0]);
  EXPECT_EQ(as<ConstNode>(as<BinOpNode>(inner->cond)->rhs)->int_val(), 8);
  EXPECT_EQ(inner->orelse.size(), 1u);
  expect_loc(s->orelse[0].srcinfo(), 4, 5);
}

TEST(ParserStmt, AllocDefaultsToDram) {
  Proc p = last_proc("def f():\n    t: f32[16]\n    t[0] = 1.0\n");
  const AllocNode* a = as<AllocNode>(p.body()[0]);
  EXPECT_EQ(a->name.name(), "t");
  EXPECT_EQ(a->mem, "DRAM");
  EXPECT_EQ(a->type.base, ScalarKind::F32);
  EXPECT_EQ(a->type.rank(), 1);
  EXPECT_EQ(as<AssignNode>(p.body()[1])->name, a->name);
}

TEST(ParserStmt, AllocWithMemoryAndScalarAlloc) {
  Proc p = last_proc("def f():\n    t: i8[2, 2] @ DRAM_STACK\n    s: R\n    s = 0.0\n");
  EXPECT_EQ(as<AllocNode>(p.body()[0])->mem, "DRAM_STACK");
  const AllocNode* s = as<AllocNode>(p.body()[1]);
  EXPECT_TRUE(s->type.is_scalar());
  EXPECT_EQ(s->type.base, ScalarKind::R);
  EXPECT_EQ(as<AssignNode>(p.body()[2])->type, ScalarKind::R);
}

TEST(ParserStmt, CallResolvesEarlierProcAndWindowArguments) {
  Module m = parse_module(
      "def copy4(dst: [f32][4], src: [f32][4]):\n    pass\n"
      "def g(A: f32[4], B: f32[8, 16]):\n    copy4(A, B[1, 4:8])\n");
  Proc g = m.proc("g");
  const CallNode* c = as<CallNode>(g.body()[0]);
  EXPECT_EQ(c->proc, m.proc("copy4").ptr());
  ASSERT_EQ(c->args.size(), 2u);
  const ReadNode* whole = as<ReadNode>(c->args[0]);
  EXPECT_TRUE(whole->idx.empty());
  EXPECT_EQ(whole->type.rank(), 1);  // the full tensor type
  const WindowExprNode* w = as<WindowExprNode>(c->args[1]);
  EXPECT_EQ(w->name, g.args()[1].name);
  ASSERT_EQ(w->idx.size(), 2u);
  EXPECT_FALSE(w->idx[0].is_interval);
  EXPECT_TRUE(w->idx[1].is_interval);
  EXPECT_TRUE(w->type.window);
  ASSERT_EQ(w->type.rank(), 1);
  EXPECT_EQ(as<ConstNode>(w->type.shape[0])->int_val(), 4);
}

TEST(ParserStmt, CallResolvesProcFromOptions) {
  Proc lib = last_proc("def zero(x: f32):\n    x = 0.0\n");
  ParseOptions opts;
  opts.procs.push_back(lib);
  Proc p = last_proc("def f(y: f32):\n    zero(y)\n", opts);
  EXPECT_EQ(as<CallNode>(p.body()[0])->proc, lib.ptr());
}

TEST(ParserStmt, WindowStatementDeclaresWindowVariable) {
  Proc p = last_proc("def f(n: size, A: f32[n, 16]):\n    w = A[1, 0:16]\n    w[3] = 2.0\n");
  const WindowStmtNode* ws = as<WindowStmtNode>(p.body()[0]);
  EXPECT_EQ(ws->name.name(), "w");
  EXPECT_NE(ws->name, p.args()[1].name);
  const Type& t = ws->rhs.type();
  EXPECT_TRUE(t.window);
  EXPECT_EQ(t.base, ScalarKind::F32);
  ASSERT_EQ(t.rank(), 1);
  const AssignNode* a = as<AssignNode>(p.body()[1]);
  EXPECT_EQ(a->name, ws->name);
  EXPECT_EQ(a->type, ScalarKind::F32);
}

TEST(ParserStmt, ConfigWriteAndRead) {
  Module m = parse_module(
      "config Cfg:\n    s: f32\ndef f(x: f32[2]):\n    Cfg.s = x[0]\n    x[1] = Cfg.s\n");
  Proc p = m.proc("f");
  const WriteConfigNode* w = as<WriteConfigNode>(p.body()[0]);
  EXPECT_EQ(w->config, m.config("Cfg"));
  EXPECT_EQ(w->field, "s");
  const ReadConfigNode* r = as<ReadConfigNode>(as<AssignNode>(p.body()[1])->rhs);
  EXPECT_EQ(r->config, m.config("Cfg"));
  EXPECT_EQ(r->type.base, ScalarKind::F32);
}

TEST(ParserStmt, ConfigFromOptions) {
  Module lib = parse_module("config Lib:\n    n: index\n");
  ParseOptions opts;
  opts.configs = lib.configs;
  Proc p = last_proc("def f():\n    Lib.n = 3\n", opts);
  EXPECT_EQ(as<WriteConfigNode>(p.body()[0])->config, lib.configs[0]);
}

TEST(ParserStmt, StatementLocations) {
  Proc p = last_proc(kGemm);
  expect_loc(p->srcinfo, 1, 1);
  expect_loc(p.args()[3].srcinfo, 1, 37);
  expect_loc(p.preds()[0].srcinfo(), 3, 12);  // the def's arguments take two lines
  const ForNode* fi = as<ForNode>(p.body()[0]);
  expect_loc(p.body()[0].srcinfo(), 4, 5);
  const Stmt& red = fi->body[0].as<ForNode>()->body[0].as<ForNode>()->body[0];
  expect_loc(red.srcinfo(), 7, 17);
  expect_loc(red.as<ReduceNode>()->rhs.srcinfo(), 7, 28);
}

// ---- expressions -----------------------------------------------------------------------------

TEST(ParserExpr, MultiplicationBindsTighterThanAddition) {
  Expr e = rhs_of("x: f32[4], a: f32, b: f32, c: f32", "a + b * c");
  const BinOpNode* add = as<BinOpNode>(e);
  EXPECT_EQ(add->op, BinOpKind::Add);
  EXPECT_EQ(as<BinOpNode>(add->rhs)->op, BinOpKind::Mul);
}

TEST(ParserExpr, SubtractionIsLeftAssociative) {
  Expr e = rhs_of("x: f32[4], a: f32, b: f32, c: f32", "a - b - c");
  const BinOpNode* outer = as<BinOpNode>(e);
  EXPECT_EQ(outer->op, BinOpKind::Sub);
  EXPECT_EQ(as<BinOpNode>(outer->lhs)->op, BinOpKind::Sub);
  EXPECT_EQ(as<ReadNode>(outer->rhs)->name.name(), "c");
}

TEST(ParserExpr, ParenthesesOverridePrecedence) {
  Expr e = rhs_of("x: f32[4], a: f32, b: f32, c: f32", "(a + b) * c");
  const BinOpNode* mul = as<BinOpNode>(e);
  EXPECT_EQ(mul->op, BinOpKind::Mul);
  EXPECT_EQ(as<BinOpNode>(mul->lhs)->op, BinOpKind::Add);
}

TEST(ParserExpr, DivisionAndModulo) {
  Proc p = last_proc("def f(n: size):\n    assert n / 4 % 2 == 0\n    pass\n");
  const BinOpNode* eq = as<BinOpNode>(p.preds()[0]);
  const BinOpNode* mod = as<BinOpNode>(eq->lhs);
  EXPECT_EQ(mod->op, BinOpKind::Mod);
  EXPECT_EQ(as<BinOpNode>(mod->lhs)->op, BinOpKind::Div);
}

TEST(ParserExpr, AndBindsTighterThanOr) {
  Proc p =
      last_proc("def f(a: index, b: index):\n    assert a < b or a == 1 and b >= 2\n    pass\n");
  const BinOpNode* o = as<BinOpNode>(p.preds()[0]);
  EXPECT_EQ(o->op, BinOpKind::Or);
  EXPECT_EQ(as<BinOpNode>(o->lhs)->op, BinOpKind::Lt);
  EXPECT_EQ(as<BinOpNode>(o->rhs)->op, BinOpKind::And);
}

TEST(ParserExpr, UnaryMinusOfVariable) {
  Expr e = rhs_of("x: f32[4], a: f32", "-a");
  const USubNode* u = as<USubNode>(e);
  EXPECT_EQ(as<ReadNode>(u->arg)->name.name(), "a");
  EXPECT_EQ(u->type.base, ScalarKind::F32);
}

TEST(ParserExpr, NegativeLiteralsFoldToConstants) {
  Expr e = rhs_of("x: f32[4]", "-3");
  const ConstNode* i = as<ConstNode>(e);
  EXPECT_TRUE(i->is_int());
  EXPECT_EQ(i->int_val(), -3);
  Expr e2 = rhs_of("x: f32[4]", "-2.5");
  const ConstNode* f = as<ConstNode>(e2);
  EXPECT_EQ(f->val, -2.5);
  EXPECT_EQ(f->type.base, ScalarKind::R);
}

TEST(ParserExpr, NumericLiterals) {
  EXPECT_EQ(as<ConstNode>(rhs_of("x: f32[4]", "7"))->type.base, ScalarKind::Int);
  EXPECT_EQ(as<ConstNode>(rhs_of("x: f32[4]", "1.0"))->type.base, ScalarKind::R);
  EXPECT_DOUBLE_EQ(as<ConstNode>(rhs_of("x: f32[4]", "1e-3"))->val, 1e-3);
  EXPECT_DOUBLE_EQ(as<ConstNode>(rhs_of("x: f32[4]", ".5"))->val, 0.5);
  EXPECT_DOUBLE_EQ(as<ConstNode>(rhs_of("x: f32[4]", "2.5E2"))->val, 250.0);
}

TEST(ParserExpr, BooleanLiterals) {
  Proc p = last_proc("def f(b: bool):\n    assert b == True or False\n    pass\n");
  const BinOpNode* o = as<BinOpNode>(p.preds()[0]);
  const ConstNode* t = as<ConstNode>(as<BinOpNode>(o->lhs)->rhs);
  EXPECT_EQ(t->type.base, ScalarKind::Bool);
  EXPECT_EQ(t->val, 1.0);
  EXPECT_EQ(as<ConstNode>(o->rhs)->val, 0.0);
}

TEST(ParserExpr, ReadTypeIsElementTypeWhenFullyIndexed) {
  Expr e = rhs_of("x: f32[4], A: i8[4, 4]", "A[1, 2]");
  EXPECT_TRUE(e.type().is_scalar());
  EXPECT_EQ(e.type().base, ScalarKind::I8);
}

TEST(ParserExpr, ReadTypeIsErrorWhenPartlyIndexed) {
  ParseOptions no_typecheck;  // the type checker would reject the partial read
  no_typecheck.typecheck = false;
  Expr e = rhs_of("x: f32[4], A: f32[4, 4]", "A[1]", no_typecheck);
  EXPECT_EQ(e.type().base, ScalarKind::Error);
}

TEST(ParserExpr, ExternCall) {
  Expr e = rhs_of("x: f32[4], a: f32", "select(a, 0.0, relu(a), 1.0)");
  const ExternNode* s = as<ExternNode>(e);
  EXPECT_EQ(s->fn->name(), "select");
  ASSERT_EQ(s->args.size(), 4u);
  EXPECT_EQ(as<ExternNode>(s->args[2])->fn->name(), "relu");
}

TEST(ParserExpr, StrideExpression) {
  Proc p = last_proc("def f(n: size, A: [f32][n, 8]):\n    assert stride(A, 1) == 1\n    pass\n");
  const StrideExprNode* s = as<StrideExprNode>(as<BinOpNode>(p.preds()[0])->lhs);
  EXPECT_EQ(s->name, p.args()[1].name);
  EXPECT_EQ(s->dim, 1);
  EXPECT_EQ(s->type.base, ScalarKind::Stride);
}

TEST(ParserExpr, WindowSliceBoundsMayBeOmitted) {
  Proc p = last_proc("def f(n: size, A: f32[n, 16]):\n    w = A[0, :4]\n    v = A[0:n, 8:]\n");
  const WindowExprNode* w = as<WindowExprNode>(as<WindowStmtNode>(p.body()[0])->rhs);
  EXPECT_EQ(as<ConstNode>(w->idx[1].lo)->int_val(), 0);
  EXPECT_EQ(as<ConstNode>(w->idx[1].hi)->int_val(), 4);
  const WindowExprNode* v = as<WindowExprNode>(as<WindowStmtNode>(p.body()[1])->rhs);
  EXPECT_EQ(as<ReadNode>(v->idx[0].hi)->name, p.args()[0].name);
  EXPECT_EQ(as<ConstNode>(v->idx[1].hi)->int_val(), 16);  // the dimension's size
  ASSERT_EQ(v->type.rank(), 2);
}

TEST(ParserExpr, BracketsContinueLines) {
  Proc p = last_proc("def f(x: f32[4],\n      y: f32[4]):\n    x[0] = (y[0] +\n  y[1])\n");
  EXPECT_EQ(p.args().size(), 2u);
  EXPECT_EQ(as<BinOpNode>(as<AssignNode>(p.body()[0])->rhs)->op, BinOpKind::Add);
}

TEST(ParserExpr, CommentsAndBlankLinesAreIgnored) {
  Proc p = last_proc(
      "# header\n\ndef f(x: f32[4]):  # args\n\n    # inside\n    x[0] = 1.0  # trailing\n\n");
  EXPECT_EQ(p.body().size(), 1u);
}

TEST(ParserExpr, WindowsCrLfLineEndings) {
  Proc p = last_proc("def f(x: f32[4]):\r\n    x[0] = 1.0\r\n    x[1] = 2.0\r\n");
  EXPECT_EQ(p.body().size(), 2u);
}

// ---- entry points ----------------------------------------------------------------------------

TEST(ParserApi, ParseExprResolvesScope) {
  Sym n("n"), i("i");
  std::vector<Expr> shape{ConstNode::make_int(16)};
  Sym a("A");
  Expr e =
      parse_expr("A[i, 0:n]",
                 {{n, Type(ScalarKind::Size)},
                  {i, Type(ScalarKind::Index)},
                  {a, Type(ScalarKind::F32, {ConstNode::make_int(4), ConstNode::make_int(16)})}},
                 {}, /*allow_window=*/true);
  const WindowExprNode* w = as<WindowExprNode>(e);
  EXPECT_EQ(w->name, a);
  EXPECT_EQ(as<ReadNode>(w->idx[0].lo)->name, i);
  EXPECT_EQ(as<ReadNode>(w->idx[1].hi)->name, n);
}

TEST(ParserApi, ParseExprLaterScopeEntryShadows) {
  Sym i1("i"), i2("i");
  Expr e = parse_expr("i + 1", {{i1, Type(ScalarKind::Index)}, {i2, Type(ScalarKind::Index)}});
  EXPECT_EQ(as<ReadNode>(as<BinOpNode>(e)->lhs)->name, i2);
}

TEST(ParserApi, ParseExprRejectsTrailingTokens) {
  try {
    parse_expr("1 2", {});
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.loc().col, 3);
    EXPECT_EQ(e.reason(), "unexpected '2' after the expression");
  }
}

TEST(ParserApi, ParseFileReadsAndNamesTheFile) {
  std::string path = ::testing::TempDir() + "parser_test_file.exo";
  {
    std::ofstream out(path);
    out << "def f(x: f32):\n    pass\n";
  }
  Module m = parse_file(path);
  std::remove(path.c_str());
  ASSERT_EQ(m.procs.size(), 1u);
  EXPECT_EQ(m.procs[0]->srcinfo.file->name, path);
}

TEST(ParserApi, ParseFileMissingFileIsAnError) {
  try {
    parse_file("/nonexistent/dir/x.exo");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.reason(), "cannot open '/nonexistent/dir/x.exo': No such file or directory");
  }
}

TEST(ParserApi, ParseFileOfADirectoryIsAnError) {
  try {
    parse_file(::testing::TempDir());
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_NE(e.reason().find("is a directory"), std::string::npos) << e.reason();
  }
}

TEST(ParserApi, ErrorQuotesTheSourceLine) {
  try {
    parse_module("def f(x: f32[4]):\n    x[0] = y\n", {}, "k.exo");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("k.exo:2:12: parse error: undefined variable 'y'"), std::string::npos)
        << what;
    EXPECT_NE(what.find("    x[0] = y\n"), std::string::npos) << what;
    EXPECT_NE(what.find("           ^"), std::string::npos) << what;
  }
}

// ---- tokenizer -------------------------------------------------------------------------------

namespace {
std::string kinds(const std::string& src) {
  auto f = std::make_shared<SourceFile>();
  f->text = src;
  std::string s;
  for (const Token& t : tokenize(f)) {
    switch (t.kind) {
      case TokKind::Name:
        s += "N ";
        break;
      case TokKind::Int:
        s += "I ";
        break;
      case TokKind::Float:
        s += "F ";
        break;
      case TokKind::String:
        s += "S ";
        break;
      case TokKind::Op:
        s += t.text + " ";
        break;
      case TokKind::Newline:
        s += "NL ";
        break;
      case TokKind::Indent:
        s += "IN ";
        break;
      case TokKind::Dedent:
        s += "DE ";
        break;
      case TokKind::Eof:
        s += "EOF";
        break;
    }
  }
  return s;
}
}  // namespace

TEST(Lexer, IndentAndDedentTokens) {
  EXPECT_EQ(kinds("a:\n  b\n    c\nd\n"), "N : NL IN N NL IN N NL DE DE N NL EOF");
}

TEST(Lexer, DedentsAtEndOfFileWithoutTrailingNewline) {
  EXPECT_EQ(kinds("a:\n  b"), "N : NL IN N NL DE EOF");
}

TEST(Lexer, NewlinesInsideBracketsAreIgnored) {
  EXPECT_EQ(kinds("f(a,\n      b)\n"), "N ( N , N ) NL EOF");
}

TEST(Lexer, LineClosingABracketEndsTheStatement) {
  EXPECT_EQ(kinds("f(a,\n      b)\nc\n"), "N ( N , N ) NL N NL EOF");
}

TEST(Lexer, TwoCharacterOperators) {
  EXPECT_EQ(kinds("a += b <= c >= d == e"), "N += N <= N >= N == N NL EOF");
}

TEST(Lexer, NumbersAndStrings) { EXPECT_EQ(kinds("1 1.5 .5 1e3 \"s\""), "I F F F S NL EOF"); }

TEST(Lexer, TokenPositions) {
  auto f = std::make_shared<SourceFile>();
  f->text = "ab  cd\n  ef";
  std::vector<Token> t = tokenize(f);
  EXPECT_EQ(t[1].line, 1);
  EXPECT_EQ(t[1].col, 5);
  EXPECT_EQ(t[4].text, "ef");  // ab cd NL IN ef
  EXPECT_EQ(t[4].line, 2);
  EXPECT_EQ(t[4].col, 3);
}

// ---- round trips through the printer -------------------------------------------------------

namespace {

// Programs in the printer's canonical layout: parsing and printing gives the text back.
const char* kCanonical[] = {
    kGemm,
    "config Cfg:\n    scale: f32\n    n: index\n\n"
    "def set_scale(x: f32 @ DRAM):\n    Cfg.scale = x\n    Cfg.n = 3\n\n"
    "def use(A: f32[8] @ DRAM):\n    for i in seq(0, 8):\n        A[i] = A[i] * Cfg.scale\n",
    "@instr(\"{dst_data} = _mm512_loadu_ps(&{src_data});\", c_global=\"#include <immintrin.h>\")\n"
    "def ld(dst: [f32][16] @ DRAM, src: [f32][16] @ DRAM):\n    assert stride(src, 0) == 1\n"
    "    for i in seq(0, 16):\n        dst[i] = src[i]\n",
    "def copy4(dst: [f32][4] @ DRAM, src: [f32][4] @ DRAM):\n    for i in seq(0, 4):\n        "
    "dst[i] = src[i]\n\n"
    "def caller(n: size, A: f32[n, 16] @ DRAM, B: f32[n, 16] @ DRAM):\n    for j in par(0, n):\n"
    "        w = A[j, 0:4]\n        copy4(w, B[j, 4:8])\n        copy4(A[j, 8:16], B[j, 0:4])\n",
    "def f(n: size, x: R[n] @ DRAM):\n    for i in seq(0, n):\n        if i < 2:\n            x[i] "
    "= 0.0\n"
    "        else:\n            if i == 3 or i >= n - 1:\n                x[i] = 1.0\n            "
    "else:\n"
    "                x[i] = -x[i]\n",
    "def f(n: size, x: f64[n] @ DRAM):\n    t: f64[16] @ DRAM_STATIC\n    s: f64 @ DRAM\n    s = "
    "0.0\n"
    "    for i in seq(0, n):\n        s += x[i] * 2\n    t[0] = select(s, 0.0, relu(s), sqrt(s + "
    "0.001))\n",
};

}  // namespace

TEST(ParserRoundTrip, CanonicalTextPrintsBackUnchanged) {
  for (const char* src : kCanonical) EXPECT_EQ(to_string(parse_module(src)), src);
}

TEST(ParserRoundTrip, ElifAndCommentsReachAFixedPoint) {
  std::string once = to_string(parse_module(
      "def f(n: size):  # c\n    if n < 4:\n        pass\n    elif n < (8):\n        pass\n"));
  EXPECT_EQ(to_string(parse_module(once)), once);
  EXPECT_EQ(once.find("elif"), std::string::npos);  // the parser made it a nested if
}
