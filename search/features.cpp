// Features of a scheduled proc (search/features.h).
#include "search/features.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>

#include "core/int_arith.h"
#include "core/ir_visit.h"

namespace exocpp::search {
namespace {

// The value of an index expression with `env` giving sizes and enclosing iterators (their
// first value), or nullopt for what it cannot evaluate.
std::optional<int64_t> eval(const Expr& e, const std::map<Sym, int64_t>& env) {
  if (const ConstNode* c = e.as<ConstNode>(); c && c->is_int()) return c->int_val();
  if (const ReadNode* r = e.as<ReadNode>(); r && r->idx.empty()) {
    auto it = env.find(r->name);
    if (it != env.end()) return it->second;
    return std::nullopt;
  }
  if (const BinOpNode* b = e.as<BinOpNode>()) {
    auto x = eval(b->lhs, env), y = eval(b->rhs, env);
    if (!x || !y) return std::nullopt;
    switch (b->op) {
      case BinOpKind::Add:
        return *x + *y;
      case BinOpKind::Sub:
        return *x - *y;
      case BinOpKind::Mul:
        return *x * *y;
      case BinOpKind::Div:
        if (*y > 0) return floor_div(*x, *y);
        return std::nullopt;
      case BinOpKind::Mod:
        if (*y > 0) return floor_mod(*x, *y);
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

double lg(double x) { return std::log2(1 + std::max(0.0, x)); }

enum Feature {
  kStmtExecutions,  // assignments, reductions and calls executed
  kCallExecutions,  // instruction calls executed
  kIfExecutions,    // conditions evaluated
  kLoopHeads,       // loop iterations started (loop overhead)
  kMaxDepth,
  kLoops,  // loops in the text
  kParLoops,
  kParExtent,        // iterations of the outermost parallel loop
  kStatements,       // statements in the text (unrolling makes more)
  kInnermostExtent,  // trip count of the innermost loop, weighted by executions
  kInner1,           // trip counts of the innermost three loops around the heaviest statement
  kInner2,
  kInner3,
  kUnitStride,         // share of executed accesses whose last index is the innermost iterator
  kInnermostAccesses,  // distinct buffers accessed in innermost loops
  // Footprints of the heaviest statement's accesses: the elements they touch over one run of
  // its innermost 1, 2 and 3 loops (log2 of bytes, 4 per element), the working sets the cache
  // levels must hold; and the reuse over three loops (accesses made per element touched).
  kFootprint1,
  kFootprint2,
  kFootprint3,
  kReuse3,
  kCount
};

struct Walk {
  std::map<Sym, int64_t> env;
  std::vector<double> f = std::vector<double>(kCount, 0);
  std::vector<int64_t> trips;  // trip counts of the enclosing loops
  std::vector<Sym> iters;      // their iterators
  double heaviest = -1;
  double unit_weight = 0, access_weight = 0, inner_weight = 0;
  std::set<Sym> inner_buffers;
  bool seen_par = false;

  void block(const Block& b, double mult, int depth) {
    for (const Stmt& s : b) stmt(s, mult, depth);
  }
  void access(const std::vector<Expr>& idx, double mult) {
    if (idx.empty() || iters.empty()) return;
    access_weight += mult;
    if (const ReadNode* r = idx.back().as<ReadNode>(); r && r->name == iters.back())
      unit_weight += mult;
  }
  // The elements index list `idx` touches while the innermost `levels` loops run: per dimension,
  // the span of an affine index (its coefficient in each of those iterators, measured by
  // evaluating it at the iterator's first value and one more, times the trip count less one,
  // plus one); 1 for a dimension it cannot evaluate.
  double touched(const std::vector<Expr>& idx, size_t levels) {
    double n = 1;
    for (const Expr& e : idx) {
      auto at = eval(e, env);
      if (!at) continue;
      double span = 1;
      for (size_t k = 0; k < levels && k < iters.size(); ++k) {
        const size_t l = iters.size() - 1 - k;
        const int64_t first = env[iters[l]];
        env[iters[l]] = first + 1;
        auto next = eval(e, env);
        env[iters[l]] = first;
        if (next)
          span += static_cast<double>(std::llabs(*next - *at)) *
                  static_cast<double>(std::max<int64_t>(0, trips[l] - 1));
      }
      n *= span;
    }
    return n;
  }
  void footprints(const Stmt& s) {
    std::vector<const std::vector<Expr>*> accesses;
    if (const AssignNode* a = s.as<AssignNode>()) accesses.push_back(&a->idx);
    if (const ReduceNode* r = s.as<ReduceNode>()) accesses.push_back(&r->idx);
    for_each_expr(s, [&](const Expr& e) {
      if (const ReadNode* r = e.as<ReadNode>(); r && !r->idx.empty()) accesses.push_back(&r->idx);
    });
    double iterations = 1;
    for (size_t levels = 1; levels <= 3; ++levels) {
      double elements = 0;
      for (const std::vector<Expr>* idx : accesses) elements += touched(*idx, levels);
      f[kFootprint1 + static_cast<int>(levels) - 1] = lg(4 * elements);
      if (levels <= trips.size()) iterations *= static_cast<double>(trips[trips.size() - levels]);
      if (levels == 3)
        f[kReuse3] =
            elements > 0 ? lg(iterations * static_cast<double>(accesses.size()) / elements) : 0;
    }
  }

  void stmt(const Stmt& s, double mult, int depth) {
    f[kStatements] += 1;
    if (const ForNode* l = s.as<ForNode>()) {
      auto lo = eval(l->lo, env), hi = eval(l->hi, env);
      int64_t trip = lo && hi ? std::max<int64_t>(0, *hi - *lo) : 1;
      f[kLoops] += 1;
      f[kLoopHeads] += mult * static_cast<double>(trip);
      f[kMaxDepth] = std::max(f[kMaxDepth], static_cast<double>(depth + 1));
      if (l->mode != LoopMode::Seq) {
        f[kParLoops] += 1;
        if (!seen_par) f[kParExtent] = static_cast<double>(trip);
        seen_par = true;
      }
      env[l->iter] = lo.value_or(0);
      trips.push_back(trip);
      iters.push_back(l->iter);
      block(l->body, mult * static_cast<double>(trip), depth + 1);
      trips.pop_back();
      iters.pop_back();
      env.erase(l->iter);
      return;
    }
    if (const IfNode* i = s.as<IfNode>()) {
      f[kIfExecutions] += mult;
      block(i->body, mult, depth);
      block(i->orelse, mult, depth);
      return;
    }
    const bool is_call = s.as<CallNode>() != nullptr;
    const bool is_write = s.as<AssignNode>() || s.as<ReduceNode>();
    if (!is_call && !is_write) return;
    f[kStmtExecutions] += mult;
    if (is_call) f[kCallExecutions] += mult;
    if (!trips.empty()) {
      inner_weight += mult;
      f[kInnermostExtent] += mult * lg(static_cast<double>(trips.back()));
    }
    if (mult > heaviest) {
      heaviest = mult;
      for (int k = 0; k < 3; ++k)
        f[kInner1 + k] = k < static_cast<int>(trips.size())
                             ? lg(static_cast<double>(trips[trips.size() - 1 - k]))
                             : 0;
      footprints(s);
    }
    if (const AssignNode* a = s.as<AssignNode>()) access(a->idx, mult);
    if (const ReduceNode* r = s.as<ReduceNode>()) access(r->idx, mult);
    for_each_expr(s, [&](const Expr& e) {
      if (const ReadNode* r = e.as<ReadNode>(); r && !r->idx.empty()) {
        access(r->idx, mult);
        if (!iters.empty()) inner_buffers.insert(r->name);
      }
    });
  }
};

}  // namespace

const std::vector<std::string>& feature_names() {
  static const std::vector<std::string> names = {
      "stmt_executions", "call_executions", "if_executions", "loop_heads",  "max_depth",
      "loops",           "par_loops",       "par_extent",    "statements",  "innermost_extent",
      "inner1",          "inner2",          "inner3",        "unit_stride", "innermost_buffers",
      "footprint1",      "footprint2",      "footprint3",    "reuse3"};
  return names;
}

std::vector<float> features(const Proc& p, const std::map<std::string, int64_t>& sizes) {
  Walk w;
  for (const FnArg& a : p.args())
    if (auto it = sizes.find(a.name.name()); it != sizes.end()) w.env[a.name] = it->second;
  w.block(p.body(), 1, 0);
  std::vector<double>& f = w.f;
  f[kStmtExecutions] = lg(f[kStmtExecutions]);
  f[kCallExecutions] = lg(f[kCallExecutions]);
  f[kIfExecutions] = lg(f[kIfExecutions]);
  f[kLoopHeads] = lg(f[kLoopHeads]);
  f[kParExtent] = lg(f[kParExtent]);
  f[kInnermostExtent] = w.inner_weight > 0 ? f[kInnermostExtent] / w.inner_weight : 0;
  f[kUnitStride] = w.access_weight > 0 ? w.unit_weight / w.access_weight : 0;
  f[kInnermostAccesses] = static_cast<double>(w.inner_buffers.size());
  return std::vector<float>(f.begin(), f.end());
}

}  // namespace exocpp::search
