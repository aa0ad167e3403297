// The pattern language (core/pattern.h): each pattern form, "#n" selection, ';' sequences,
// scoped searches, the find_loop / find_alloc_or_arg shorthands and the errors.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

using namespace exocpp;

namespace {

const char* kSrc = R"(
config Cfg:
    scale: f32

def helper(n: size, x: [f32][n] @ DRAM):
    for k in seq(0, n):
        x[k] = 0.0

def f(N: size, A: f32[N, 16] @ DRAM, B: f32[N] @ DRAM, s: f32 @ DRAM):
    tmp: f32[16] @ DRAM
    for i in seq(0, N):
        for j in seq(0, 16):
            tmp[j] = A[i, j] * B[i]
        for j in seq(0, 16):
            A[i, j] += tmp[j] + -2.0
        if i < 3:
            B[i] = select(0.0, B[i], 1.0, s)
        else:
            pass
    acc: f32 @ DRAM
    acc = s
    Cfg.scale = acc
    helper(16, A[0, 0:16])
    w = A[1, 0:16]
    B[0] = select(0.0, 1.0, 1.0, 0.0)
    if stride(A, 0) == 16:
        pass
    acc = Cfg.scale
)";

Proc parse_f() { return parse_module(kSrc).proc("f"); }

// ---- statement patterns ---------------------------------------------------------------------

TEST(Pattern, ForPatternFindsTheLoopAsAStmtCursor) {
  Cursor c = parse_f().find("for j in _: _");
  EXPECT_TRUE(c.is_stmt());
  EXPECT_EQ(c.name(), "j");
  EXPECT_EQ(c.loc().block.size(), 1u);  // inside the i loop
  EXPECT_EQ(c.loc().lo, 0);
}

TEST(Pattern, ForWithHoleNameMatchesEveryLoopInPreOrder) {
  std::vector<Cursor> all = parse_f().find_all("for _ in _: _");
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].name(), "i");
  EXPECT_EQ(all[1].name(), "j");
  EXPECT_EQ(all[2].name(), "j");
  EXPECT_EQ(all[2].loc().lo, 1);
}

TEST(Pattern, ForWithSeqBoundsMatchesOnlyThoseBounds) {
  Proc p = parse_f();
  EXPECT_EQ(p.find_all("for _ in seq(0, 16): _").size(), 2u);
  EXPECT_EQ(p.find("for _ in seq(0, N): _").name(), "i");
  EXPECT_TRUE(p.find_all("for _ in par(0, N): _").empty());  // the loop is seq
}

TEST(Pattern, ForBodyPatternMatchesAPrefixOfTheBody) {
  Proc p = parse_f();
  std::vector<Cursor> r = p.find_all("for j in _: A[_] += _");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].loc().lo, 1);
}

TEST(Pattern, IfPatternWithAConcreteCondition) {
  Proc p = parse_f();
  EXPECT_EQ(p.find("if _: _").stmt().kind(), StmtKind::If);
  EXPECT_TRUE(p.find("if i < _: _").is_stmt());
  EXPECT_TRUE(p.find_all("if i > 3: _").empty());
}

TEST(Pattern, AssignPatternsMatchTargetAndIndices) {
  Proc p = parse_f();
  EXPECT_EQ(p.find("tmp[_] = _").to_string(), "tmp[j] = A[i, j] * B[i]");
  EXPECT_EQ(p.find("acc = _").to_string(), "acc = s");
  EXPECT_EQ(p.find_all("B[i] = _").size(), 1u);
  EXPECT_EQ(p.find_all("B[_] = _").size(), 2u);
  EXPECT_EQ(p.find_all("B = _").size(), 2u);  // no brackets: any indices, as in Exo
}

TEST(Pattern, ReducePatternDoesNotMatchAssignments) {
  Proc p = parse_f();
  EXPECT_EQ(p.find("A += _").to_string(), "A[i, j] += tmp[j] + -2.0");
  EXPECT_TRUE(p.find_all("tmp += _").empty());
}

TEST(Pattern, AllocPatternsWithAndWithoutAType) {
  Proc p = parse_f();
  EXPECT_EQ(p.find("tmp: _").stmt().kind(), StmtKind::Alloc);
  EXPECT_EQ(p.find("tmp: f32[_]").name(), "tmp");
  EXPECT_EQ(p.find("tmp: f32[16] @ DRAM").name(), "tmp");
  EXPECT_TRUE(p.find_all("tmp: i8[_]").empty());
  EXPECT_TRUE(p.find_all("tmp: f32[8]").empty());
  EXPECT_EQ(p.find_all("_: _").size(), 2u);
}

TEST(Pattern, CallPatternFindsAProcCall) {
  Proc p = parse_f();
  Cursor c = p.find("helper(_)");
  EXPECT_EQ(c.stmt().kind(), StmtKind::Call);
  EXPECT_EQ(p.find_all("helper(16, _)").size(), 1u);
  EXPECT_TRUE(p.find_all("helper(8, _)").empty());
}

TEST(Pattern, PassPattern) {
  Cursor c = parse_f().find("pass");
  EXPECT_EQ(c.stmt().kind(), StmtKind::Pass);
  EXPECT_EQ(c.loc().block.back().field, BlockField::Orelse);
}

TEST(Pattern, ConfigWritePattern) {
  Proc p = parse_f();
  EXPECT_EQ(p.find("Cfg.scale = _").stmt().kind(), StmtKind::WriteConfig);
  EXPECT_TRUE(p.find_all("Cfg.other = _").empty());
}

TEST(Pattern, WindowStmtPattern) {
  Proc p = parse_f();
  Cursor c = p.find("w = A[_]");
  EXPECT_EQ(c.stmt().kind(), StmtKind::WindowStmt);
  EXPECT_EQ(p.find_all("w = A[1, 0:16]").size(), 1u);
  EXPECT_TRUE(p.find_all("w = A[1, 0:8]").empty());
  EXPECT_TRUE(p.find_all("w = B[_]").empty());
}

// ---- #n, sequences, scopes ------------------------------------------------------------------

TEST(Pattern, MatchNumberSelectsTheNthMatch) {
  Proc p = parse_f();
  Cursor second = p.find("for j in _: _ #1");
  EXPECT_EQ(second.loc().lo, 1);
  std::vector<Cursor> only = p.find_all("for j in _: _ #1");
  ASSERT_EQ(only.size(), 1u);
  EXPECT_EQ(only[0].loc(), second.loc());
}

TEST(Pattern, MatchNumberOutOfRangeIsASchedulingError) {
  Proc p = parse_f();
  EXPECT_TRUE(p.find_all("for j in _: _ #2").empty());
  try {
    (void)p.find("for j in _: _ #2");
    FAIL() << "expected SchedulingError";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), "find");
    EXPECT_NE(e.reason().find("has only 2 matches"), std::string::npos) << e.reason();
    EXPECT_NE(e.reason().find("#2"), std::string::npos) << e.reason();
  }
}

TEST(Pattern, SequenceMatchesConsecutiveStatementsAsABlock) {
  Cursor c = parse_f().find("acc: _ ; acc = _ ; Cfg.scale = _");
  EXPECT_TRUE(c.is_block());
  EXPECT_EQ(c.size(), 3);
  EXPECT_EQ(c.loc().lo, 2);
  EXPECT_TRUE(parse_f().find_all("acc = _ ; acc: _").empty());
}

TEST(Pattern, SequenceHoleTakesStatementsUpToTheNextPattern) {
  Cursor c = parse_f().find("acc: _ ; _ ; helper(_)");
  EXPECT_TRUE(c.is_block());
  EXPECT_EQ(c.size(), 4);
}

TEST(Pattern, TrailingSequenceHoleTakesTheRestOfTheBlock) {
  Proc p = parse_f();
  Cursor c = p.find("helper(_) ; _");
  EXPECT_EQ(c.loc().hi, static_cast<int>(p.body().size()));
}

TEST(Pattern, ScopedFindSearchesOnlyInsideTheCursor) {
  Proc p = parse_f();
  Cursor second_j = p.find("for j in _: _ #1");
  Cursor tmp_read = find(second_j, "tmp[_]");
  EXPECT_EQ(tmp_read.loc().block, second_j.body()[0].loc().block);
  EXPECT_EQ(find_all(second_j, "tmp[_] = _").size(), 0u);
  EXPECT_EQ(find_all(p.find("for i in _: _"), "for j in _: _").size(), 2u);
}

TEST(Pattern, ScopedFindOnABlockStopsAtTheBlockEnd) {
  Proc p = parse_f();
  Cursor block = p.body_cursor().slice(2, 4);  // acc: f32 ; acc = s
  EXPECT_EQ(find_all(block, "acc = _").size(), 1u);
  EXPECT_TRUE(find_all(block, "Cfg.scale = _").empty());
  EXPECT_TRUE(find_all(block, "acc = _ ; Cfg.scale = _").empty());
}

TEST(Pattern, ScopedExpressionSearchInsideAnExpression) {
  Proc p = parse_f();
  Cursor rhs = p.find("tmp[_] = _").rhs();
  EXPECT_EQ(find_all(rhs, "_[_]").size(), 5u);  // every read: A[i, j], i, j, B[i], i
  std::vector<Cursor> bs = find_all(rhs, "B");
  ASSERT_EQ(bs.size(), 1u);
  EXPECT_EQ(bs[0].to_string(), "B[i]");
}

TEST(Pattern, GapAndArgScopesHoldNoMatches) {
  Proc p = parse_f();
  EXPECT_TRUE(find_all(p.find("acc = _").before(), "acc = _").empty());
  EXPECT_TRUE(find_all(p.arg_cursors()[0], "N").empty());
}

TEST(Pattern, InvalidScopeCursorThrows) {
  Proc p = parse_f();
  Cursor past = p.body_cursor()[0].prev();
  EXPECT_THROW((void)find_all(past, "acc = _"), InvalidCursorError);
}

// ---- loop / alloc shorthands ----------------------------------------------------------------

TEST(Pattern, FindLoopShorthand) {
  Proc p = parse_f();
  EXPECT_EQ(p.find_loop("j").loc(), p.find("for j in _: _").loc());
  EXPECT_EQ(p.find_loop("j #1").loc(), p.find("for j in _: _ #1").loc());
  EXPECT_EQ(p.find_loop("for i in _: _").name(), "i");
}

TEST(Pattern, FindAllocOrArg) {
  Proc p = parse_f();
  Cursor a = p.find_alloc_or_arg("A");
  EXPECT_TRUE(a.is_arg());
  EXPECT_EQ(a.arg().name.name(), "A");
  Cursor t = p.find_alloc_or_arg("tmp");
  EXPECT_TRUE(t.is_stmt());
  EXPECT_EQ(t.stmt().kind(), StmtKind::Alloc);
  EXPECT_THROW(p.find_alloc_or_arg("nope"), SchedulingError);
}

// ---- expression patterns --------------------------------------------------------------------

TEST(Pattern, BareNameFindsReadsOfThatName) {
  Proc p = parse_f();
  std::vector<Cursor> reads = p.find_all("i");
  ASSERT_FALSE(reads.empty());
  for (const Cursor& c : reads) {
    EXPECT_TRUE(c.is_expr());
    EXPECT_EQ(c.to_string(), "i");
  }
  // First read of i: the index of A[i, j] in tmp[j] = A[i, j] * B[i] (child 1 = rhs, 0 = lhs, 0).
  EXPECT_EQ(reads[0].loc().expr, (std::vector<int>{1, 0, 0}));
}

TEST(Pattern, IndexedReadPatternLocatesTheSubexpression) {
  Proc p = parse_f();
  Cursor c = p.find("B[_]");
  EXPECT_EQ(c.to_string(), "B[i]");
  EXPECT_EQ(c.loc().expr, (std::vector<int>{1, 1}));
  EXPECT_EQ(p.find("A[_, j]").to_string(), "A[i, j]");
  EXPECT_TRUE(p.find_all("A[j, _]").empty());
}

TEST(Pattern, BinOpPatternMatchesOperatorAndOperands) {
  Proc p = parse_f();
  Cursor c = p.find("A[_] * B[_]");
  EXPECT_EQ(c.to_string(), "A[i, j] * B[i]");
  EXPECT_EQ(c.loc().expr, (std::vector<int>{1}));
  EXPECT_EQ(p.find("_ + _").to_string(), "tmp[j] + -2.0");
  EXPECT_TRUE(p.find_all("B[_] * A[_]").empty());
}

TEST(Pattern, NegativeConstantPatternMatchesTheConstant) {
  Cursor c = parse_f().find("-2.0");
  EXPECT_EQ(c.expr().kind(), ExprKind::Const);
}

TEST(Pattern, ExternAndStridePatterns) {
  Proc p = parse_f();
  EXPECT_EQ(p.find("select(_, _, _, _)").expr().kind(), ExprKind::Extern);
  EXPECT_EQ(p.find("select(_)").expr().kind(), ExprKind::Extern);
  EXPECT_EQ(p.find("stride(A, 0)").to_string(), "stride(A, 0)");
  EXPECT_TRUE(p.find_all("stride(A, 1)").empty());
}

TEST(Pattern, ConfigReadPattern) {
  Proc p = parse_f();
  Cursor c = p.find("Cfg.scale");
  EXPECT_EQ(c.expr().kind(), ExprKind::ReadConfig);
  EXPECT_TRUE(p.find_all("Cfg.other").empty());
}

TEST(Pattern, WindowExpressionPatternInACallArgument) {
  Proc p = parse_f();
  Cursor c = p.find("A[0, 0:16]");
  EXPECT_EQ(c.expr().kind(), ExprKind::WindowExpr);
  EXPECT_EQ(c.parent().stmt().kind(), StmtKind::Call);
  EXPECT_EQ(p.find_all("A[_, _:_]").size(), 2u);  // the call's argument and w's window
}

TEST(Pattern, ComparisonPatternInAnExpressionPosition) {
  Cursor c = parse_f().find("i < 3");
  EXPECT_TRUE(c.is_expr());
  EXPECT_EQ(c.parent().stmt().kind(), StmtKind::If);
}

// ---- errors ---------------------------------------------------------------------------------

TEST(Pattern, NoMatchNamesThePatternAndTheProc) {
  try {
    (void)parse_f().find("for k in _: _");
    FAIL() << "expected SchedulingError";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), "find");
    EXPECT_EQ(e.reason(), "no match for pattern 'for k in _: _' in proc 'f'");
    EXPECT_TRUE(e.loc().known());
  }
}

TEST(Pattern, MalformedPatternIsAParseErrorSayingSo) {
  try {
    (void)parse_f().find("for i in: _");
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(e.reason().find("in pattern 'for i in: _'"), std::string::npos) << e.reason();
    EXPECT_EQ(e.loc().col, 9);
  }
}

TEST(Pattern, BadMatchNumberIsAParseError) {
  EXPECT_THROW((void)parse_f().find("for i in _: _ #x"), ParseError);
  EXPECT_THROW((void)parse_f().find("#3"), ParseError);
}

TEST(Pattern, HoleAloneIsRefused) {
  EXPECT_THROW((void)parse_f().find("_"), ParseError);
  EXPECT_THROW((void)parse_f().find("_ ; _"), ParseError);
}

TEST(Pattern, ExpressionInASequenceIsRefused) {
  try {
    (void)parse_f().find("acc = _ ; B[_]");
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(e.reason().find("expected a statement pattern"), std::string::npos) << e.reason();
  }
}

TEST(Pattern, LexerErrorsAreReportedAsPatternErrors) {
  try {
    (void)parse_f().find("x[_ = _");
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(e.reason().find("in pattern"), std::string::npos) << e.reason();
  }
}

TEST(Pattern, DeeplyNestedPatternIsRefusedNotCrashed) {
  std::string deep(5000, '-');
  deep += "x";
  EXPECT_THROW((void)parse_f().find(deep), ParseError);
}

// Token soup from the pattern alphabet: every outcome is a result or an exocpp::Error, never an
// internal error or a crash.
TEST(Pattern, RandomPatternsOnlyEverFailWithUserErrors) {
  const char* pieces[] = {"for", "if",    "in", "_",    "i",      "j",      "A",    "tmp", "Cfg",
                          ".",   "scale", ":",  "=",    "+=",     "[",      "]",    "(",   ")",
                          ",",   ";",     "#",  "1",    "2.0",    "-",      "+",    "*",   "<",
                          "seq", "f32",   "@",  "DRAM", "select", "stride", "pass", " "};
  Proc p = parse_f();
  uint32_t state = 12345;
  auto rnd = [&] { return (state = state * 1103515245u + 12345u) >> 16; };
  int matched = 0;
  for (int n = 0; n < 3000; ++n) {
    std::string pat;
    int len = 1 + static_cast<int>(rnd() % 9);
    for (int k = 0; k < len; ++k) pat += std::string(pieces[rnd() % std::size(pieces)]) + " ";
    try {
      matched += static_cast<int>(p.find_all(pat).size());
    } catch (const Error&) {
    }
  }
  EXPECT_GT(matched, 0);
}

}  // namespace
