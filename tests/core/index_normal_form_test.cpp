// Exo's normal form of index expressions (core/index_normal_form.h): each rule on a small
// expression through the printer, then every rule at once against the arithmetic it claims to
// keep, on random expressions and random values inside the ranges it was told.
#include "core/index_normal_form.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace exocpp;

namespace {

// Index variables i, j (in [0, 3] and [0, 4], as loops `seq(0, 4)`, `seq(0, 5)` give),
// io, ii (ii in [0, 3]), and sizes N, M (at least 1).
struct Scope {
  std::vector<ScopeVar> vars;
  std::map<std::string, IndexRange> ranges;
  Scope() {
    for (const char* n : {"i", "j", "io", "ii"}) vars.push_back({Sym(n), Type(ScalarKind::Index)});
    for (const char* n : {"N", "M"}) vars.push_back({Sym(n), Type(ScalarKind::Size)});
    ranges = {{"i", {0, 3}}, {"j", {0, 4}}, {"ii", {0, 3}}, {"N", {1, {}}}, {"M", {1, {}}}};
  }
  IndexRangeOf range_of() const {
    return [this](const Sym& v) -> IndexRange {
      auto it = ranges.find(v.name());
      return it == ranges.end() ? IndexRange{} : it->second;
    };
  }
};

std::string normal(const std::string& text) {
  Scope s;
  std::optional<Expr> e = exo_index_normal_form(parse_expr(text, s.vars), s.range_of());
  return e ? to_string(*e) : "(none)";
}

void check(const std::string& in, const std::string& expected) {
  EXPECT_EQ(normal(in), expected) << "input: " << in;
}

TEST(IndexNormalForm, ConstantFirst) { check("N * 5 + 8", "8 + 5 * N"); }
TEST(IndexNormalForm, TermsByCoefficientThenName) { check("4 * io + ii", "ii + 4 * io"); }
TEST(IndexNormalForm, EqualCoefficientsByName) { check("j + i + 2", "2 + i + j"); }
TEST(IndexNormalForm, LeadingNegativeTermIsANegation) { check("N - M", "-M + N"); }
TEST(IndexNormalForm, LeadingNegativeScaledTerm) { check("10 * M - 8 * N", "-(8 * N) + 10 * M"); }
TEST(IndexNormalForm, NegativeConstantLeads) { check("i - 1", "-1 + i"); }
TEST(IndexNormalForm, CancelledTermsVanish) { check("N * 4 - N * 4 + 1", "1"); }
TEST(IndexNormalForm, ExactDivision) { check("(4 * io + 8) / 4", "2 + io"); }
TEST(IndexNormalForm, DivisionDropsATermInRange) { check("(4 * io + ii) / 4", "io"); }
TEST(IndexNormalForm, DivisionDropsConstantAndTermInRange) {
  check("(8 * i + 2 * j + 3) / 2", "1 + j + 4 * i");
}
TEST(IndexNormalForm, DivisionKeptWhenTheRestMayReachTheDivisor) {
  check("(4 * io + ii + 1) / 4", "(1 + ii + 4 * io) / 4");
}
TEST(IndexNormalForm, DivisionSplitsItsDivisor) { check("(4 * io + ii) / 16", "io / 4"); }
TEST(IndexNormalForm, NestedDivisionsMerge) { check("N / 4 / 3 / 2", "N / 24"); }
TEST(IndexNormalForm, ModuloDropsMultiples) { check("(8 * i + 2 * j + 3) % 2", "1"); }
TEST(IndexNormalForm, ModuloDroppedWhenInRange) { check("(4 * io + ii) % 4", "ii"); }
TEST(IndexNormalForm, ModuloKeptWhenNotInRange) {
  check("(8 * i + 2 * j + 3) % 5", "(3 + 2 * j + 8 * i) % 5");
}
// Exo checks only the upper end; a value that may be negative keeps its modulo.
TEST(IndexNormalForm, ModuloKeptWhenPossiblyNegative) { check("(ii - 5) % 8", "(-5 + ii) % 8"); }
TEST(IndexNormalForm, ExpressionWithDivisionKeepsItsOrder) {
  check("ii + N / 4 * 4", "ii + N / 4 * 4");
}
TEST(IndexNormalForm, QuotientAndRemainderRejoin) { check("N % 4 + 4 * (N / 4)", "N"); }
TEST(IndexNormalForm, ProductOfVariablesIsOutside) { check("N * M + 1", "(none)"); }

TEST(IndexNormalForm, RangesOfExpressions) {
  Scope s;
  IndexRange r = index_range(parse_expr("(4 * i + j) / 2", s.vars), s.range_of());
  EXPECT_EQ(r.lo, 0);
  EXPECT_EQ(r.hi, 8);
  EXPECT_FALSE(index_range(parse_expr("N - 1", s.vars), s.range_of()).hi.has_value());
}

// ---- soundness ---------------------------------------------------------------------------

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t eval(const Expr& e, const std::map<std::string, int64_t>& env) {
  if (auto c = e.as<ConstNode>()) return c->int_val();
  if (auto r = e.as<ReadNode>()) return env.at(r->name.name());
  if (auto u = e.as<USubNode>()) return -eval(u->arg, env);
  auto b = e.as<BinOpNode>();
  int64_t l = eval(b->lhs, env), r = eval(b->rhs, env);
  switch (b->op) {
    case BinOpKind::Add:
      return l + r;
    case BinOpKind::Sub:
      return l - r;
    case BinOpKind::Mul:
      return l * r;
    case BinOpKind::Div:
      return floor_div(l, r);
    default:
      return l - floor_div(l, r) * r;
  }
}

std::string random_expr(std::mt19937& rng, int depth) {
  static const char* vars[] = {"i", "j", "io", "ii", "N", "M"};
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  if (depth == 0 || pick(4) == 0) {
    if (pick(2) == 0) return std::to_string(pick(19) - 9);
    return vars[pick(6)];
  }
  const std::string a = random_expr(rng, depth - 1);
  switch (pick(6)) {
    case 0:
      return "(" + a + " + " + random_expr(rng, depth - 1) + ")";
    case 1:
      return "(" + a + " - " + random_expr(rng, depth - 1) + ")";
    case 2:
      return "(" + std::to_string(pick(9) - 4) + " * " + a + ")";
    case 3:
      return "(" + a + " / " + std::to_string(1 + pick(16)) + ")";
    case 4:
      return "(" + a + " % " + std::to_string(1 + pick(16)) + ")";
    default:
      return "(-(" + a + "))";
  }
}

// Every normal form equals its input on values inside the ranges the normaliser was given
// (N and M from 1 up to near 2^20, io and the unranged ones over negatives too).
TEST(IndexNormalForm, KeepsTheValueOnRandomExpressions) {
  Scope s;
  std::mt19937 rng(20261126);
  int normalised = 0;
  for (int n = 0; n < 3000; ++n) {
    const std::string text = random_expr(rng, 4);
    Expr e = parse_expr(text, s.vars);
    std::optional<Expr> f = exo_index_normal_form(e, s.range_of());
    if (!f) continue;
    ++normalised;
    for (int k = 0; k < 20; ++k) {
      std::map<std::string, int64_t> env = {
          {"i", rng() % 4},
          {"j", rng() % 5},
          {"ii", rng() % 4},
          {"io", static_cast<int64_t>(rng() % 2001) - 1000},
          {"N", k == 0 ? 1 : 1 + static_cast<int64_t>(rng() % (1u << 20))},
          {"M", k == 1 ? 1 : 1 + static_cast<int64_t>(rng() % 97)}};
      ASSERT_EQ(eval(e, env), eval(*f, env)) << text << "  -->  " << to_string(*f);
    }
  }
  EXPECT_GT(normalised, 2000);
}

}  // namespace
