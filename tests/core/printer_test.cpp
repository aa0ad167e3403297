// Tests of the printer on IR built by hand: Exo's layout for every statement, expression and
// type, minimal parentheses, literal spelling, @instr lines, configs and modules.
#include "core/printer.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <sstream>

#include "core/externs.h"

namespace exocpp {
namespace {

// Small builders over the make() functions.
Expr I(int64_t v) { return ConstNode::make_int(v); }
Expr F(double v, ScalarKind k = ScalarKind::R) { return ConstNode::make_float(v, k); }
Expr var(const Sym& s, ScalarKind k = ScalarKind::Index) { return ReadNode::make(s, {}, k); }
Expr at(const Sym& s, std::vector<Expr> idx, ScalarKind k = ScalarKind::F32) {
  return ReadNode::make(s, std::move(idx), k);
}
Expr bin(BinOpKind op, Expr a, Expr b) { return BinOpNode::make(op, std::move(a), std::move(b)); }
Expr add(Expr a, Expr b) { return bin(BinOpKind::Add, std::move(a), std::move(b)); }
Expr sub(Expr a, Expr b) { return bin(BinOpKind::Sub, std::move(a), std::move(b)); }
Expr mul(Expr a, Expr b) { return bin(BinOpKind::Mul, std::move(a), std::move(b)); }
Expr neg(Expr a) { return USubNode::make(std::move(a)); }
Type tensor(ScalarKind k, std::vector<Expr> shape) { return Type(k, std::move(shape)); }
Type window(ScalarKind k, std::vector<Expr> shape) { return Type(k, std::move(shape), true); }
FnArg arg(const Sym& s, Type t, std::string mem = "") {
  return FnArg{s, std::move(t), std::move(mem), {}};
}

Proc make_proc(std::string name, std::vector<FnArg> args, std::vector<Expr> preds, Block body,
               std::optional<InstrInfo> instr = std::nullopt) {
  auto n = std::make_shared<ProcNode>();
  n->name = std::move(name);
  n->args = std::move(args);
  n->preds = std::move(preds);
  n->body = std::move(body);
  n->instr = std::move(instr);
  return Proc(n);
}

Config make_config(std::string name, std::vector<ConfigField> fields) {
  auto c = std::make_shared<ConfigNode>();
  c->name = std::move(name);
  c->fields = std::move(fields);
  return c;
}

// Syms shared by the expression tests.
struct PrinterExpr : ::testing::Test {
  Sym a{"a"}, b{"b"}, c{"c"}, d{"d"};
  Expr A() { return var(a); }
  Expr B() { return var(b); }
  Expr C() { return var(c); }
  Expr D() { return var(d); }
};

// ---- procs and statements --------------------------------------------------------------------

TEST(Printer, GemmProcLayout) {
  Sym N("N"), M("M"), K("K"), A("A"), B("B"), C("C"), i("i"), j("j"), k("k");
  Expr n = var(N, ScalarKind::Size), m = var(M, ScalarKind::Size), kk = var(K, ScalarKind::Size);
  Stmt red = ReduceNode::make(C, ScalarKind::F32, {var(i), var(j)},
                              mul(at(A, {var(i), var(k)}), at(B, {var(k), var(j)})));
  Stmt loops =
      ForNode::make(i, I(0), n, {ForNode::make(j, I(0), m, {ForNode::make(k, I(0), kk, {red})})});
  Proc p = make_proc("gemm",
                     {arg(N, ScalarKind::Size), arg(M, ScalarKind::Size), arg(K, ScalarKind::Size),
                      arg(A, tensor(ScalarKind::F32, {n, kk}), "DRAM"),
                      arg(B, tensor(ScalarKind::F32, {kk, m}), "DRAM"),
                      arg(C, tensor(ScalarKind::F32, {n, m}), "DRAM")},
                     {bin(BinOpKind::Ge, n, I(1))}, {loops});
  EXPECT_EQ(to_string(p),
            "def gemm(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM,\n"
            "         C: f32[N, M] @ DRAM):\n"
            "    assert N >= 1\n"
            "    for i in seq(0, N):\n"
            "        for j in seq(0, M):\n"
            "            for k in seq(0, K):\n"
            "                C[i, j] += A[i, k] * B[k, j]\n");
}

TEST(Printer, EveryArgumentType) {
  Sym n("n"), i("i"), t("t"), f("f"), s("s"), x("x"), w("w"), r("r");
  Proc p = make_proc(
      "args",
      {arg(n, ScalarKind::Size), arg(i, ScalarKind::Index), arg(t, ScalarKind::Int),
       arg(f, ScalarKind::Bool), arg(s, ScalarKind::Stride), arg(x, ScalarKind::F64, "DRAM"),
       arg(w, window(ScalarKind::F32, {I(16)}), "DRAM_STACK"),
       arg(r, tensor(ScalarKind::R, {var(n, ScalarKind::Size), I(4)}), "DRAM")},
      {}, {PassNode::make()});
  EXPECT_EQ(to_string(p),
            "def args(n: size, i: index, t: int, f: bool, s: stride, x: f64 @ DRAM,\n"
            "         w: [f32][16] @ DRAM_STACK, r: R[n, 4] @ DRAM):\n"
            "    pass\n");
}

TEST(Printer, DataArgumentWithoutMemoryShowsDram) {
  Sym n("n"), x("x");
  Proc p =
      make_proc("f", {arg(n, ScalarKind::Size, "DRAM"), arg(x, tensor(ScalarKind::F32, {I(4)}))},
                {}, {PassNode::make()});
  EXPECT_EQ(to_string(p), "def f(n: size, x: f32[4] @ DRAM):\n    pass\n");
}

TEST(Printer, AssertsComeBeforeTheBodyInOrder) {
  Sym n("n"), A("A");
  Expr nv = var(n, ScalarKind::Size);
  Proc p = make_proc(
      "f", {arg(n, ScalarKind::Size), arg(A, tensor(ScalarKind::F32, {nv, I(4)}), "DRAM")},
      {bin(BinOpKind::Eq, bin(BinOpKind::Mod, nv, I(4)), I(0)),
       bin(BinOpKind::Eq, StrideExprNode::make(A, 1), I(1))},
      {AssignNode::make(A, ScalarKind::F32, {I(0), I(0)}, F(2.0))});
  EXPECT_EQ(to_string(p),
            "def f(n: size, A: f32[n, 4] @ DRAM):\n"
            "    assert n % 4 == 0\n"
            "    assert stride(A, 1) == 1\n"
            "    A[0, 0] = 2.0\n");
}

TEST(Printer, EmptyBodyPrintsPass) {
  Proc p = make_proc("nothing", {}, {}, {});
  EXPECT_EQ(to_string(p), "def nothing():\n    pass\n");
}

TEST(Printer, ParLoop) {
  Sym i("i"), x("x");
  Stmt s = ForNode::make(i, I(0), I(8), {AssignNode::make(x, ScalarKind::F32, {var(i)}, F(0.0))},
                         LoopMode::Par);
  EXPECT_EQ(to_string(s), "for i in par(0, 8):\n    x[i] = 0.0\n");
}

TEST(Printer, LoopWithNonZeroLowerBound) {
  Sym i("i"), n("n");
  Stmt s = ForNode::make(i, I(1), sub(var(n, ScalarKind::Size), I(1)), {PassNode::make()});
  EXPECT_EQ(to_string(s), "for i in seq(1, n - 1):\n    pass\n");
}

TEST(Printer, IfWithElse) {
  Sym i("i"), x("x");
  Stmt s = IfNode::make(bin(BinOpKind::Lt, var(i), I(4)),
                        {AssignNode::make(x, ScalarKind::F32, {}, F(1.0))},
                        {AssignNode::make(x, ScalarKind::F32, {}, F(0.5))});
  EXPECT_EQ(to_string(s), "if i < 4:\n    x = 1.0\nelse:\n    x = 0.5\n");
}

TEST(Printer, IfWithoutElse) {
  Sym b("b");
  Stmt s = IfNode::make(var(b, ScalarKind::Bool), {PassNode::make()}, {});
  EXPECT_EQ(to_string(s), "if b:\n    pass\n");
}

TEST(Printer, StatementIndentParameter) {
  Stmt s = IfNode::make(ConstNode::make_bool(true), {PassNode::make()}, {PassNode::make()});
  EXPECT_EQ(to_string(s, 2),
            "        if True:\n            pass\n        else:\n            pass\n");
}

TEST(Printer, BlockPrintsEachStatement) {
  Block blk = {PassNode::make(), PassNode::make()};
  EXPECT_EQ(to_string(blk, 1), "    pass\n    pass\n");
}

TEST(Printer, AllocShowsMemory) {
  Sym x("x"), y("y"), z("z");
  EXPECT_EQ(to_string(AllocNode::make(x, tensor(ScalarKind::F32, {I(16)}), "AVX512")),
            "x: f32[16] @ AVX512\n");
  EXPECT_EQ(to_string(AllocNode::make(y, ScalarKind::I8, "DRAM_STATIC")), "y: i8 @ DRAM_STATIC\n");
  EXPECT_EQ(to_string(AllocNode::make(z, tensor(ScalarKind::F64, {I(4), I(4)}), "")),
            "z: f64[4, 4] @ DRAM\n");
}

TEST(Printer, ScalarAssignAndReduce) {
  Sym x("x"), y("y");
  EXPECT_EQ(to_string(AssignNode::make(x, ScalarKind::F32, {}, F(2.0))), "x = 2.0\n");
  EXPECT_EQ(to_string(ReduceNode::make(x, ScalarKind::F32, {}, at(y, {}))), "x += y\n");
}

TEST(Printer, CallWithWindowAndScalarArguments) {
  Sym A("A"), j("j"), n("n");
  auto callee = std::make_shared<ProcNode>();
  callee->name = "f";
  Expr w = WindowExprNode::make(A, ScalarKind::F32,
                                {WAccess::interval(I(0), I(16)), WAccess::point(var(j))});
  Stmt s = CallNode::make(callee, {w, var(n, ScalarKind::Size)});
  EXPECT_EQ(to_string(s), "f(A[0:16, j], n)\n");
}

TEST(Printer, CallWithNoArguments) {
  auto callee = std::make_shared<ProcNode>();
  callee->name = "reset";
  EXPECT_EQ(to_string(CallNode::make(callee, {})), "reset()\n");
}

TEST(Printer, WindowStatement) {
  Sym w("w"), A("A"), i("i"), jo("jo");
  Expr lo = mul(I(16), var(jo));
  Expr rhs = WindowExprNode::make(A, ScalarKind::F32,
                                  {WAccess::point(var(i)), WAccess::interval(lo, add(lo, I(16)))});
  EXPECT_EQ(to_string(WindowStmtNode::make(w, rhs)), "w = A[i, 16 * jo:16 * jo + 16]\n");
}

TEST(Printer, ConfigWriteAndRead) {
  Config cfg = make_config("Cfg", {{"scale", ScalarKind::F32}, {"n", ScalarKind::Index}});
  Stmt w = WriteConfigNode::make(cfg, "scale", mul(ReadConfigNode::make(cfg, "scale"), F(2.0)));
  EXPECT_EQ(to_string(w), "Cfg.scale = Cfg.scale * 2.0\n");
}

// ---- expressions -----------------------------------------------------------------------------

TEST_F(PrinterExpr, LeftAssociativeDropsParens) {
  EXPECT_EQ(to_string(sub(sub(A(), B()), C())), "a - b - c");
}

TEST_F(PrinterExpr, RightNestedSameLevelKeepsParens) {
  EXPECT_EQ(to_string(sub(A(), sub(B(), C()))), "a - (b - c)");
  EXPECT_EQ(to_string(add(A(), add(B(), C()))), "a + (b + c)");
  EXPECT_EQ(to_string(bin(BinOpKind::Div, A(), mul(B(), C()))), "a / (b * c)");
}

TEST_F(PrinterExpr, HigherPrecedenceNeedsNoParens) {
  EXPECT_EQ(to_string(add(A(), mul(B(), C()))), "a + b * c");
  EXPECT_EQ(to_string(add(mul(A(), B()), C())), "a * b + c");
  EXPECT_EQ(to_string(bin(BinOpKind::Div, mul(A(), B()), C())), "a * b / c");
}

TEST_F(PrinterExpr, LowerPrecedenceOperandGetsParens) {
  EXPECT_EQ(to_string(mul(add(A(), B()), C())), "(a + b) * c");
  EXPECT_EQ(to_string(mul(A(), sub(B(), C()))), "a * (b - c)");
  EXPECT_EQ(to_string(bin(BinOpKind::Mod, add(A(), B()), I(4))), "(a + b) % 4");
}

TEST_F(PrinterExpr, LogicalAndComparisonLevels) {
  Expr lt = bin(BinOpKind::Lt, A(), B());
  Expr ge = bin(BinOpKind::Ge, C(), D());
  EXPECT_EQ(to_string(bin(BinOpKind::And, lt, ge)), "a < b and c >= d");
  Expr orr = bin(BinOpKind::Or, lt, ge);
  EXPECT_EQ(to_string(bin(BinOpKind::And, orr, lt)), "(a < b or c >= d) and a < b");
  EXPECT_EQ(to_string(bin(BinOpKind::Or, bin(BinOpKind::And, lt, ge), lt)),
            "a < b and c >= d or a < b");
  EXPECT_EQ(to_string(bin(BinOpKind::Lt, add(A(), B()), mul(C(), D()))), "a + b < c * d");
}

TEST_F(PrinterExpr, ComparisonsNeverChain) {
  Expr lt = bin(BinOpKind::Lt, A(), B());
  Expr ge = bin(BinOpKind::Ge, C(), D());
  EXPECT_EQ(to_string(bin(BinOpKind::Eq, lt, ge)), "(a < b) == (c >= d)");
}

TEST_F(PrinterExpr, UnaryMinus) {
  EXPECT_EQ(to_string(neg(A())), "-a");
  EXPECT_EQ(to_string(neg(add(A(), B()))), "-(a + b)");
  EXPECT_EQ(to_string(neg(mul(A(), B()))), "-(a * b)");
  EXPECT_EQ(to_string(mul(neg(A()), B())), "-a * b");
  EXPECT_EQ(to_string(mul(A(), neg(B()))), "a * -b");
  EXPECT_EQ(to_string(neg(neg(A()))), "--a");
}

TEST_F(PrinterExpr, NegativeLiterals) {
  EXPECT_EQ(to_string(I(-7)), "-7");
  EXPECT_EQ(to_string(sub(A(), I(-1))), "a - -1");
  EXPECT_EQ(to_string(F(-3.5)), "-3.5");
}

// The parser folds a minus into the literal after it, so the printer prints a minus over a
// literal as the folded literal: that text parses back to what it prints.
TEST_F(PrinterExpr, MinusOverLiteralPrintsTheFoldedLiteral) {
  EXPECT_EQ(to_string(neg(I(3))), "-3");
  EXPECT_EQ(to_string(neg(I(-3))), "3");
  EXPECT_EQ(to_string(neg(neg(I(3)))), "3");
  EXPECT_EQ(to_string(neg(F(0.5))), "-0.5");
  EXPECT_EQ(to_string(neg(I(0))), "0");
  EXPECT_EQ(to_string(sub(A(), neg(I(2)))), "a - -2");
  EXPECT_EQ(to_string(mul(neg(I(2)), A())), "-2 * a");
}

TEST_F(PrinterExpr, IndexedReadsPrintIndicesWithoutParens) {
  Sym X("X");
  EXPECT_EQ(to_string(at(X, {add(A(), B()), mul(I(4), C())})), "X[a + b, 4 * c]");
  EXPECT_EQ(to_string(var(X, ScalarKind::F32)), "X");
}

TEST(PrinterLiterals, IntegersPrintAsIntegers) {
  EXPECT_EQ(to_string(I(0)), "0");
  EXPECT_EQ(to_string(I(42)), "42");
  EXPECT_EQ(to_string(I(1234567890123)), "1234567890123");
}

TEST(PrinterLiterals, BooleansAreCapitalized) {
  EXPECT_EQ(to_string(ConstNode::make_bool(true)), "True");
  EXPECT_EQ(to_string(ConstNode::make_bool(false)), "False");
}

TEST(PrinterLiterals, FloatsFollowPythonRepr) {
  struct Case {
    double v;
    const char* text;
  };
  const Case cases[] = {
      {2.0, "2.0"},
      {0.5, "0.5"},
      {0.1, "0.1"},
      {1e-05, "1e-05"},
      {0.0001, "0.0001"},
      {1e16, "1e+16"},
      {1e15, "1000000000000000.0"},
      {123.25, "123.25"},
      {1.5e-07, "1.5e-07"},
      {2.5e100, "2.5e+100"},
      {0.0, "0.0"},
      {100.0, "100.0"},
      {1.0 / 3.0, "0.3333333333333333"},
      {-0.25, "-0.25"},
  };
  for (const Case& c : cases) EXPECT_EQ(to_string(F(c.v)), c.text) << "value " << c.v;
}

TEST(PrinterLiterals, FloatsOfEveryDataTypeUseFloatSpelling) {
  EXPECT_EQ(to_string(F(3.0, ScalarKind::F32)), "3.0");
  EXPECT_EQ(to_string(F(3.0, ScalarKind::F64)), "3.0");
  EXPECT_EQ(to_string(F(3.0, ScalarKind::I8)), "3.0");
}

// Every printed float reads back as the very same double and never looks like an integer.
TEST(PrinterLiterals, FloatTextReadsBackExactly) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> mant(-1.0, 1.0);
  std::uniform_int_distribution<int> expo(-30, 30);
  for (int n = 0; n < 2000; ++n) {
    double v = std::ldexp(mant(rng), expo(rng));
    std::string s = to_string(F(v));
    EXPECT_NE(s.find_first_of(".e"), std::string::npos) << s;
    EXPECT_EQ(std::strtod(s.c_str(), nullptr), v) << s;
  }
}

TEST(PrinterExprMisc, StrideExternAndConfigRead) {
  Sym A("A"), x("x");
  EXPECT_EQ(to_string(StrideExprNode::make(A, 1)), "stride(A, 1)");
  auto select = find_extern("select");
  ASSERT_NE(select, nullptr);
  Expr xv = var(x, ScalarKind::F32);
  EXPECT_EQ(to_string(ExternNode::make(select, {xv, F(0.0), xv, add(xv, F(1.0))})),
            "select(x, 0.0, x, x + 1.0)");
  Config cfg = make_config("Cfg", {{"k", ScalarKind::Index}});
  EXPECT_EQ(to_string(add(ReadConfigNode::make(cfg, "k"), I(1))), "Cfg.k + 1");
}

TEST(PrinterExprMisc, WindowExpression) {
  Sym A("A"), i("i"), n("n");
  Expr w = WindowExprNode::make(
      A, ScalarKind::F32,
      {WAccess::point(var(i)), WAccess::interval(I(0), var(n, ScalarKind::Size))});
  EXPECT_EQ(to_string(w), "A[i, 0:n]");
}

TEST(PrinterExprMisc, UndefinedExprDoesNotCrash) { EXPECT_EQ(to_string(Expr()), "<undefined>"); }

TEST(PrinterExprMisc, StreamOperatorsMatchToString) {
  Sym a("a");
  Expr e = add(var(a), I(1));
  std::ostringstream os;
  os << e;
  EXPECT_EQ(os.str(), "a + 1");
}

// ---- types -----------------------------------------------------------------------------------

TEST(PrinterTypes, ScalarTensorAndWindow) {
  Sym N("N");
  EXPECT_EQ(to_string(Type(ScalarKind::F32)), "f32");
  EXPECT_EQ(to_string(Type(ScalarKind::UI16)), "ui16");
  EXPECT_EQ(to_string(tensor(ScalarKind::F32, {var(N, ScalarKind::Size), I(16)})), "f32[N, 16]");
  EXPECT_EQ(to_string(window(ScalarKind::F32, {var(N, ScalarKind::Size), I(16)})), "[f32][N, 16]");
  EXPECT_EQ(to_string(tensor(ScalarKind::I32, {add(var(N, ScalarKind::Size), I(2))})),
            "i32[N + 2]");
}

// ---- instructions, configs, modules ----------------------------------------------------------

TEST(PrinterInstr, InstrLineAboveDef) {
  Sym dst("dst"), src("src"), i("i");
  Proc p = make_proc(
      "mm256_loadu_ps",
      {arg(dst, window(ScalarKind::F32, {I(8)}), "DRAM"),
       arg(src, window(ScalarKind::F32, {I(8)}), "DRAM")},
      {bin(BinOpKind::Eq, StrideExprNode::make(src, 0), I(1))},
      {ForNode::make(i, I(0), I(8),
                     {AssignNode::make(dst, ScalarKind::F32, {var(i)}, at(src, {var(i)}))})},
      InstrInfo{"{dst_data} = _mm256_loadu_ps(&{src_data});", "", "", "", ""});
  EXPECT_EQ(to_string(p),
            "@instr(\"{dst_data} = _mm256_loadu_ps(&{src_data});\")\n"
            "def mm256_loadu_ps(dst: [f32][8] @ DRAM, src: [f32][8] @ DRAM):\n"
            "    assert stride(src, 0) == 1\n"
            "    for i in seq(0, 8):\n"
            "        dst[i] = src[i]\n");
}

TEST(PrinterInstr, EscapesAndGlobal) {
  Proc p = make_proc(
      "weird", {}, {}, {PassNode::make()},
      InstrInfo{std::string("a \"q\"\\b\n\t\r\0c", 12), "#include <immintrin.h>\n", "", "", ""});
  EXPECT_EQ(to_string(p),
            "@instr(\"a \\\"q\\\"\\\\b\\n\\t\\r\\0c\", c_global=\"#include <immintrin.h>\\n\")\n"
            "def weird():\n"
            "    pass\n");
}

TEST(PrinterConfig, FieldsIndented) {
  Config cfg = make_config("ConfigLoad", {{"src_stride", ScalarKind::Stride},
                                          {"scale", ScalarKind::F32},
                                          {"enabled", ScalarKind::Bool}});
  EXPECT_EQ(to_string(cfg),
            "config ConfigLoad:\n"
            "    src_stride: stride\n"
            "    scale: f32\n"
            "    enabled: bool\n");
}

TEST(PrinterConfig, EmptyConfigPrintsPass) {
  EXPECT_EQ(to_string(make_config("Nothing", {})), "config Nothing:\n    pass\n");
}

TEST(PrinterModule, ConfigsThenProcsSeparatedByBlankLines) {
  Module m;
  Proc p1 = make_proc("p1", {}, {}, {PassNode::make()});
  Proc p2 = make_proc("p2", {}, {}, {PassNode::make()});
  m.procs = {p1, p2};
  m.configs = {make_config("C", {{"x", ScalarKind::F32}})};
  EXPECT_EQ(to_string(m),
            "config C:\n    x: f32\n"
            "\n"
            "def p1():\n    pass\n"
            "\n"
            "def p2():\n    pass\n");
  std::ostringstream os;
  os << m;
  EXPECT_EQ(os.str(), to_string(m));
}

TEST(PrinterModule, EmptyModuleIsEmpty) { EXPECT_EQ(to_string(Module{}), ""); }

}  // namespace
}  // namespace exocpp
