// Encoding of control expressions into Z3 integer formulas, and the per-thread solver with its
// query cache.
#include "checker/encode.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "core/externs.h"
#include "core/ir_visit.h"

namespace exocpp::checker {

// ---- settings and per-thread state -----------------------------------------------------------

static std::atomic<unsigned> g_timeout_ms{2000};
static std::atomic<bool> g_cache{true};

Settings settings() { return Settings{g_timeout_ms.load(), g_cache.load()}; }
void set_settings(const Settings& s) {
  g_timeout_ms.store(s.timeout_ms);
  g_cache.store(s.cache);
}

const char* to_string(Answer::Verdict v) {
  switch (v) {
    case Answer::Proved:
      return "proved";
    case Answer::Refuted:
      return "refuted";
    case Answer::Unknown:
      return "unknown";
  }
  return "?";
}

std::string to_string(const Answer& a) {
  std::string s = to_string(a.verdict);
  if (!a.reason.empty()) s += ": " + a.reason;
  if (!a.counterexample.empty()) s += "; counterexample: " + a.counterexample;
  return s;
}

namespace {

struct CacheEntry {
  z3::expr formula;  // keeps the AST (and so its id) alive
  z3::check_result result;
  std::optional<z3::model> model;
  std::string why_unknown;
  unsigned timeout_ms;
};

// Declared in this order so the cache (holding Z3 objects) dies before the context.
struct ThreadState {
  z3::context ctx;
  // One incremental solver reused for every query (each in its own push/pop frame): creating
  // a solver per query costs more than solving a typical query.
  std::optional<z3::solver> solver;
  // The default arithmetic solver, asked again when the first gives up (incomplete or timed
  // out); it is slower on typical queries but handles products of variables better.
  std::optional<z3::solver> fallback;
  unsigned solver_timeout_ms = 0;
  unsigned solver_uses = 0;
  std::unordered_map<unsigned, CacheEntry> cache;
  SolverStats stats;
};

ThreadState& state() {
  thread_local ThreadState ts;
  return ts;
}

constexpr size_t kMaxCacheEntries = 200000;
constexpr unsigned kQuickResources = 100000;  // Z3's rlimit units for a query's first attempt
constexpr unsigned kSolverReuse = 200;

}  // namespace

z3::context& z3ctx() { return state().ctx; }
SolverStats solver_stats() { return state().stats; }
void clear_query_cache() { state().cache.clear(); }

// ---- the time budget of one query ----------------------------------------------------------

namespace {
using Clock = std::chrono::steady_clock;
thread_local std::optional<Clock::time_point> t_deadline;
}  // namespace

QueryBudget::QueryBudget() {
  if (t_deadline) return;  // an enclosing query's budget applies
  owner_ = true;
  t_deadline = Clock::now() + std::chrono::milliseconds(settings().timeout_ms);
}
QueryBudget::~QueryBudget() {
  if (owner_) t_deadline.reset();
}

SatResult check_sat(Encoder& enc, const z3::expr& f) {
  ThreadState& ts = state();
  Settings cfg = settings();
  z3::expr full = f && enc.definitions();
  unsigned key = Z3_get_ast_id(ts.ctx, full);
  ++ts.stats.queries;
  if (cfg.cache) {
    auto it = ts.cache.find(key);
    if (it != ts.cache.end() &&
        (it->second.result != z3::unknown || it->second.timeout_ms == cfg.timeout_ms)) {
      ++ts.stats.cache_hits;
      return SatResult{it->second.result, it->second.model, it->second.why_unknown};
    }
  }
  // Every solver call of this query (both solvers below, and the other formulas of an
  // enclosing QueryBudget) shares one deadline: the documented budget is per query.
  QueryBudget budget;
  auto remaining_ms = [] {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(*t_deadline - Clock::now()).count();
    return left <= 0 ? 0u : static_cast<unsigned>(left);
  };
  const bool full_budget = remaining_ms() + 5 >= cfg.timeout_ms;
  // A fresh solver now and then: an incremental solver keeps state from popped queries.
  if (!ts.solver || ts.solver_timeout_ms != cfg.timeout_ms || ++ts.solver_uses > kSolverReuse) {
    ts.solver_uses = 0;
    z3::params p(ts.ctx);
    p.set("timeout", cfg.timeout_ms);
    ts.fallback.emplace(ts.ctx, z3::solver::simple());
    // Without tangent lemmas: Z3 4.8's tangent-plane refinement of products does not poll its
    // cancel flag, so with them a query could run several times past its budget (a Pell-like
    // `i*i == 2*j*j + 1` took 2.9 s of a 500 ms budget). Measured on the test suite, the other
    // nonlinear lemmas (order, monotonicity, Groebner, NRA) decide what it needs.
    z3::params fallback_params(ts.ctx);  // (z3::params copies share one object)
    fallback_params.set("timeout", cfg.timeout_ms);
    fallback_params.set("arith.nl.tangents", false);
    ts.fallback->set(fallback_params);
    // The simplex-based arithmetic solver: measured about 1.5x faster than the default on the
    // small bounded formulas dependence tests produce (both are complete for linear integer
    // arithmetic).
    p.set("arith.solver", 2u);
    ts.solver.emplace(ts.ctx, z3::solver::simple());
    ts.solver->set(p);
    ts.solver_timeout_ms = cfg.timeout_ms;
  }
  // `quick`: bounded by Z3's resource counter, not its clock. Z3 checks a timeout with a timer
  // thread it wakes for every check, which cost about as much as solving a typical query (two
  // context switches: 0.1 ms a query, measured, a quarter of a GEMM schedule's time); a typical
  // query needs a few hundred units of kQuickResources, which take Z3 about 5 ms at most.
  auto solve = [&](z3::solver& s, bool quick) {
    unsigned left = remaining_ms();
    if (left == 0) return SatResult{z3::unknown, std::nullopt, "timeout"};
    s.set("timeout", quick ? 0u : left);  // 0: no timer
    s.set("rlimit", quick ? kQuickResources : 0u);
    s.push();
    s.add(full);
    SatResult r{s.check(), std::nullopt, ""};
    if (r.result == z3::sat) r.model = s.get_model();
    if (r.result == z3::unknown) r.why_unknown = s.reason_unknown();
    s.pop();
    return r;
  };
  timespec t0, t1;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  auto timed_out = [](const std::string& why) { return why == "timeout" || why == "canceled"; };
  SatResult r = solve(*ts.solver, true);
  // Out of the quick attempt's resources: again, with the clock's budget (what is left of it).
  if (r.result == z3::unknown &&
      (timed_out(r.why_unknown) || r.why_unknown.find("resource") != std::string::npos))
    r = solve(*ts.solver, false);
  // The two arithmetic solvers have different strengths (products of variables, some
  // div/mod combinations): an undecided query gets a second chance, in what is left of the
  // budget.
  if (r.result == z3::unknown) r = solve(*ts.fallback, false);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  ts.stats.solver_cpu_seconds += static_cast<double>(t1.tv_sec - t0.tv_sec) +
                                 1e-9 * static_cast<double>(t1.tv_nsec - t0.tv_nsec);
  if (r.result == z3::unknown) {
    if (timed_out(r.why_unknown) || remaining_ms() == 0)
      r.why_unknown = "Z3 timed out after " + std::to_string(cfg.timeout_ms) +
                      " ms (the time budget of one query)";
    else
      r.why_unknown = "Z3 could not decide (" + r.why_unknown + ")";
  }
  // An undecided answer is remembered only when the query had its whole budget.
  if (cfg.cache && (r.result != z3::unknown || full_budget)) {
    if (ts.cache.size() >= kMaxCacheEntries) ts.cache.clear();
    ts.cache.insert_or_assign(key,
                              CacheEntry{full, r.result, r.model, r.why_unknown, cfg.timeout_ms});
  }
  return r;
}

// ---- text --------------------------------------------------------------------------------------

namespace {
int precedence(const Expr& e) {
  if (const BinOpNode* b = e.as<BinOpNode>()) {
    switch (b->op) {
      case BinOpKind::Or:
        return 1;
      case BinOpKind::And:
        return 2;
      case BinOpKind::Lt:
      case BinOpKind::Le:
      case BinOpKind::Gt:
      case BinOpKind::Ge:
      case BinOpKind::Eq:
        return 3;
      case BinOpKind::Add:
      case BinOpKind::Sub:
        return 4;
      case BinOpKind::Mul:
      case BinOpKind::Div:
      case BinOpKind::Mod:
        return 5;
    }
  }
  if (e.is<USubNode>()) return 6;
  return 7;
}
std::string paren_if(const Expr& e, bool p) { return p ? "(" + expr_text(e) + ")" : expr_text(e); }
}  // namespace

std::string expr_text(const Expr& e) {
  if (!e.defined()) return "<none>";
  switch (e.kind()) {
    case ExprKind::Read: {
      const ReadNode* r = e.as<ReadNode>();
      std::string s = r->name.name();
      if (r->idx.empty()) return s;
      s += "[";
      for (size_t i = 0; i < r->idx.size(); ++i) s += (i ? ", " : "") + expr_text(r->idx[i]);
      return s + "]";
    }
    case ExprKind::Const: {
      const ConstNode* c = e.as<ConstNode>();
      if (c->type.base == ScalarKind::Bool) return c->val != 0 ? "True" : "False";
      if (c->is_int()) return std::to_string(c->int_val());
      // The shortest text that reads back as the same double, with a point (2.0, 0.1, 1e-05).
      if (std::isnan(c->val)) return "nan";
      if (std::isinf(c->val)) return c->val > 0 ? "inf" : "-inf";
      char buf[40];
      for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, c->val);
        if (std::strtod(buf, nullptr) == c->val) break;
      }
      std::string s = buf;
      if (s.find_first_of(".en") == std::string::npos) s += ".0";
      return s;
    }
    case ExprKind::USub:
      return "-" + paren_if(e.as<USubNode>()->arg, precedence(e.as<USubNode>()->arg) < 6);
    case ExprKind::BinOp: {
      const BinOpNode* b = e.as<BinOpNode>();
      int p = precedence(e);
      return paren_if(b->lhs, precedence(b->lhs) < p) + " " + to_string(b->op) + " " +
             paren_if(b->rhs, precedence(b->rhs) <= p && p != 7);
    }
    case ExprKind::Extern: {
      const ExternNode* x = e.as<ExternNode>();
      std::string s = x->fn->name() + "(";
      for (size_t i = 0; i < x->args.size(); ++i) s += (i ? ", " : "") + expr_text(x->args[i]);
      return s + ")";
    }
    case ExprKind::WindowExpr: {
      const WindowExprNode* w = e.as<WindowExprNode>();
      std::string s = w->name.name() + "[";
      for (size_t i = 0; i < w->idx.size(); ++i) {
        s += i ? ", " : "";
        s += expr_text(w->idx[i].lo);
        if (w->idx[i].is_interval) s += ":" + expr_text(w->idx[i].hi);
      }
      return s + "]";
    }
    case ExprKind::StrideExpr: {
      const StrideExprNode* st = e.as<StrideExprNode>();
      return "stride(" + st->name.name() + ", " + std::to_string(st->dim) + ")";
    }
    case ExprKind::ReadConfig: {
      const ReadConfigNode* c = e.as<ReadConfigNode>();
      return c->config->name + "." + c->field;
    }
  }
  return "?";
}

std::string location_text(const Access& a, const std::vector<std::string>& idx_values) {
  if (a.is_config()) return a.config->name + "." + a.field;
  std::string s = a.buffer.name();
  if (idx_values.empty()) return s;
  s += "[";
  for (size_t i = 0; i < idx_values.size(); ++i) s += (i ? ", " : "") + idx_values[i];
  return s + "]";
}

std::string model_value(const z3::model& m, const z3::expr& e) {
  z3::expr v = m.eval(e, true);
  if (v.is_bool()) return v.is_true() ? "True" : "False";
  int64_t x = 0;
  if (v.is_numeral() && Z3_get_numeral_int64(v.ctx(), v, &x)) return std::to_string(x);
  return v.to_string();
}

std::string context_values(const Encoder& enc, const z3::model& m) {
  std::string s;
  std::set<std::string> said;  // data values met at several places are named once
  for (const Encoder::PlainVar& p : enc.plain_vars()) {
    if (!p.e.is_int() && !p.data) continue;
    std::string name = p.name;
    for (const auto& [hole, value] : p.holes)
      for (size_t at = name.find(hole); at != std::string::npos; at = name.find(hole))
        name.replace(at, hole.size(), model_value(m, value));
    std::string item = name + " = " + model_value(m, p.e);
    if (!p.holes.empty() && !said.insert(item).second) continue;
    s += (s.empty() ? "" : ", ") + item;
  }
  return s;
}

std::optional<int64_t> const_int(const Expr& e) {
  if (const ConstNode* c = e.as<ConstNode>()) {
    if (c->is_int()) return c->int_val();
    return std::nullopt;
  }
  if (const USubNode* u = e.as<USubNode>()) {
    if (auto v = const_int(u->arg)) return -*v;
    return std::nullopt;
  }
  if (const BinOpNode* b = e.as<BinOpNode>()) {
    auto l = const_int(b->lhs), r = const_int(b->rhs);
    if (!l || !r) return std::nullopt;
    switch (b->op) {
      case BinOpKind::Add:
        return *l + *r;
      case BinOpKind::Sub:
        return *l - *r;
      case BinOpKind::Mul:
        return *l * *r;
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

// ---- the encoder -----------------------------------------------------------------------------

z3::expr Encoder::var(const Sym& s) {
  auto b = bound_.find(s.id());
  if (b != bound_.end()) return b->second;
  auto it = plain_by_id_.find(s.id());
  if (it != plain_by_id_.end()) return it->second.first;
  z3::expr v = c_.int_const((s.name() + "!" + std::to_string(s.id())).c_str());
  plain_by_id_.emplace(s.id(), std::make_pair(v, s.name()));
  // Keep the plain variables in reading order: arguments, then enclosing loops outermost first.
  int rank = 2000;
  const std::vector<FnArg>& args = scope_.proc().args();
  for (size_t k = 0; k < args.size(); ++k)
    if (args[k].name == s) rank = static_cast<int>(k);
  const std::vector<Scope>& sc = scope_.scopes();
  for (size_t k = 0; k < sc.size(); ++k)
    if (sc[k].kind == Scope::Loop && sc[k].loop->iter == s) rank = 1000 + static_cast<int>(k);
  auto pos = plain_.begin();
  while (pos != plain_.end() && pos->rank <= rank) ++pos;
  plain_.insert(pos, PlainVar{v, s.name(), rank});
  return v;
}

void Encoder::bind(const Sym& s, const z3::expr& v) { bound_.insert_or_assign(s.id(), v); }
void Encoder::unbind(const Sym& s) { bound_.erase(s.id()); }

z3::expr Encoder::bind_copy(const Sym& s, const std::string& tag) {
  z3::expr v = c_.int_const((s.name() + "!" + std::to_string(s.id()) + "@" + tag).c_str());
  bind(s, v);
  return v;
}

std::pair<z3::expr, z3::expr> Encoder::divmod(const z3::expr& a, int64_t c) {
  auto key = std::make_pair(Z3_get_ast_id(c_, a), c);
  auto it = divmod_.find(key);
  if (it != divmod_.end()) return it->second;
  std::string base = std::to_string(key.first) + "!" + std::to_string(c);
  z3::expr q = c_.int_const(("div!" + base).c_str());
  z3::expr r = c_.int_const(("mod!" + base).c_str());
  z3::expr cv = c_.int_val(c);
  defs_.push_back(a == cv * q + r && r >= 0 && r < cv);
  divmod_.emplace(key, std::make_pair(q, r));
  return {q, r};
}

// ---- data the proc reads in its control -------------------------------------------------------

const FnArg* Encoder::index_arg_of(const Sym& name) const {
  for (const FnArg& a : scope_.proc().args())
    if (a.name == name && a.range) return &a;
  return nullptr;
}

// An index argument never changes during the call (it is read-only), so one uninterpreted
// function per argument stands for all its reads: two reads of one element are one unknown.
// Every application lies in the declared range, which the entry check guarantees.
z3::expr Encoder::index_value(const FnArg& a, const Expr& read) {
  std::vector<z3::expr> args;
  for (const Expr& i : read.as<ReadNode>()->idx) args.push_back(num(i));
  auto fit = index_fns_.find(a.name.id());
  if (fit == index_fns_.end()) {
    z3::sort_vector domain(c_);
    for (size_t k = 0; k < args.size(); ++k) domain.push_back(c_.int_sort());
    const std::string fname = a.name.name() + "!" + std::to_string(a.name.id());
    fit = index_fns_.emplace(a.name.id(), c_.function(fname.c_str(), domain, c_.int_sort())).first;
  }
  z3::expr_vector av(c_);
  for (const z3::expr& x : args) av.push_back(x);
  z3::expr v = args.empty() ? fit->second() : fit->second(av);
  if (index_apps_.insert(Z3_get_ast_id(c_, v)).second) {
    defs_.push_back(num(a.range->lo) <= v && v < num(a.range->hi));
    auto [text, holes] = shown(read);
    plain_.push_back(PlainVar{v, text, 2600, false, std::move(holes)});
  }
  return v;
}

// A comparison of data values (`x[i] > m` in an if condition). Data that the code writes may
// differ between any two evaluations, and floats hold NaN, so each evaluation is a fresh
// unknown truth value: whatever the query proves holds for every outcome of the comparison.
// The counterexample names the outcome it assumed.
z3::expr Encoder::data_condition(const Expr& e) {
  auto [text, holes] = shown(e);
  z3::expr v = c_.bool_const(("data!" + std::to_string(data_conds_++) + "!" + text).c_str());
  plain_.push_back(PlainVar{v, "(" + text + ")", 2700, true, std::move(holes)});
  return v;
}

std::pair<std::string, std::vector<std::pair<std::string, z3::expr>>> Encoder::shown(
    const Expr& e) {
  std::vector<std::pair<std::string, z3::expr>> holes;
  Expr templ = map_exprs(e, [&](const Expr& x) -> std::optional<Expr> {
    const ReadNode* r = x.as<ReadNode>();
    if (!r || r->idx.empty()) return std::nullopt;
    std::vector<Expr> idx;
    for (const Expr& i : r->idx) {
      try {
        z3::expr value = num(i);
        const std::string hole = "$" + std::to_string(holes.size()) + "$";
        holes.emplace_back(hole, value);
        idx.push_back(ReadNode::make(Sym(hole), {}, Type(ScalarKind::Int), i.srcinfo()));
      } catch (const Unsupported&) {
        idx.push_back(i);  // shown as written
      }
    }
    return ReadNode::make(r->name, std::move(idx), x.type(), x.srcinfo());
  });
  return {expr_text(templ), std::move(holes)};
}

z3::expr Encoder::definitions() {
  z3::expr d = c_.bool_val(true);
  for (const z3::expr& e : defs_) d = d && e;
  return d;
}

z3::expr Encoder::num(const Expr& e) {
  switch (e.kind()) {
    case ExprKind::Read: {
      const ReadNode* r = e.as<ReadNode>();
      if (const FnArg* a = index_arg_of(r->name)) return index_value(*a, e);
      if (!r->idx.empty())
        throw Unsupported{"`" + expr_text(e) + "` reads buffer data, which is not modelled",
                          e.srcinfo()};
      ScalarKind k = r->type.base;
      if (!r->type.is_scalar() || !(is_indexable(k) || k == ScalarKind::Stride))
        throw Unsupported{"`" + expr_text(e) + "` is not an integer control value", e.srcinfo()};
      return var(r->name);
    }
    case ExprKind::Const: {
      const ConstNode* c = e.as<ConstNode>();
      if (!c->is_int()) throw Unsupported{"`" + expr_text(e) + "` is not an integer", e.srcinfo()};
      return c_.int_val(c->int_val());
    }
    case ExprKind::USub:
      return -num(e.as<USubNode>()->arg);
    case ExprKind::BinOp: {
      const BinOpNode* b = e.as<BinOpNode>();
      switch (b->op) {
        case BinOpKind::Add:
          return num(b->lhs) + num(b->rhs);
        case BinOpKind::Sub:
          return num(b->lhs) - num(b->rhs);
        case BinOpKind::Mul:
          return num(b->lhs) * num(b->rhs);
        case BinOpKind::Div:
        case BinOpKind::Mod: {
          std::optional<int64_t> c = const_int(b->rhs);
          if (!c)
            throw Unsupported{"`" + expr_text(e) +
                                  "` divides by a non-constant, outside the quasi-affine fragment",
                              e.srcinfo()};
          if (*c <= 0)
            throw Unsupported{"`" + expr_text(e) + "` divides by a non-positive constant",
                              e.srcinfo()};
          auto [q, r] = divmod(num(b->lhs), *c);
          return b->op == BinOpKind::Div ? q : r;
        }
        case BinOpKind::Lt:
        case BinOpKind::Le:
        case BinOpKind::Gt:
        case BinOpKind::Ge:
        case BinOpKind::Eq:
        case BinOpKind::And:
        case BinOpKind::Or:
          throw Unsupported{"`" + expr_text(e) + "` is a condition where a number is expected",
                            e.srcinfo()};
      }
      break;
    }
    case ExprKind::StrideExpr: {
      const StrideExprNode* s = e.as<StrideExprNode>();
      // A dense tensor (not a window): the stride of dimension d is the product of the
      // extents after d.
      const Type* t = scope_.type_of(s->name);
      if (t && !t->window && s->dim >= 0 && s->dim < t->rank()) {
        z3::expr p = c_.int_val(1);
        for (int k = s->dim + 1; k < t->rank(); ++k) p = p * num(t->shape[static_cast<size_t>(k)]);
        return p;
      }
      uint64_t key = s->name.id() * 64 + static_cast<uint64_t>(s->dim) + (uint64_t(1) << 62);
      auto it = plain_by_id_.find(key);
      if (it != plain_by_id_.end()) return it->second.first;
      std::string text = expr_text(e);
      z3::expr v = c_.int_const((text + "!" + std::to_string(s->name.id())).c_str());
      plain_by_id_.emplace(key, std::make_pair(v, text));
      plain_.push_back(PlainVar{v, text, 3000});
      return v;
    }
    case ExprKind::ReadConfig:
      throw Unsupported{"`" + expr_text(e) + "` reads a config field, whose value is not modelled",
                        e.srcinfo()};
    case ExprKind::Extern:
      throw Unsupported{
          "`" + expr_text(e) + "` calls an extern function, outside the quasi-affine fragment",
          e.srcinfo()};
    case ExprKind::WindowExpr:
      throw Unsupported{"`" + expr_text(e) + "` is a window, not a number", e.srcinfo()};
  }
  throw Unsupported{"`" + expr_text(e) + "` is outside the quasi-affine fragment", e.srcinfo()};
}

z3::expr Encoder::cond(const Expr& e) {
  if (const ConstNode* c = e.as<ConstNode>()) {
    if (c->type.base == ScalarKind::Bool) return c_.bool_val(c->val != 0);
    throw Unsupported{"`" + expr_text(e) + "` is not a condition", e.srcinfo()};
  }
  if (const ReadNode* r = e.as<ReadNode>()) {
    if (r->idx.empty() && r->type.is_scalar() && r->type.base == ScalarKind::Bool) {
      auto b = bound_.find(r->name.id());
      if (b != bound_.end()) return b->second;
      auto it = plain_by_id_.find(r->name.id());
      if (it != plain_by_id_.end()) return it->second.first;
      z3::expr v = c_.bool_const((r->name.name() + "!" + std::to_string(r->name.id())).c_str());
      plain_by_id_.emplace(r->name.id(), std::make_pair(v, r->name.name()));
      plain_.push_back(PlainVar{v, r->name.name(), 2500});
      return v;
    }
    throw Unsupported{"`" + expr_text(e) + "` is not a bool control value", e.srcinfo()};
  }
  if (const BinOpNode* b = e.as<BinOpNode>()) {
    switch (b->op) {
      case BinOpKind::And:
        return cond(b->lhs) && cond(b->rhs);
      case BinOpKind::Or:
        return cond(b->lhs) || cond(b->rhs);
      case BinOpKind::Lt:
        if (b->lhs.type().is_data() || b->rhs.type().is_data()) return data_condition(e);
        return num(b->lhs) < num(b->rhs);
      case BinOpKind::Le:
        if (b->lhs.type().is_data() || b->rhs.type().is_data()) return data_condition(e);
        return num(b->lhs) <= num(b->rhs);
      case BinOpKind::Gt:
        if (b->lhs.type().is_data() || b->rhs.type().is_data()) return data_condition(e);
        return num(b->lhs) > num(b->rhs);
      case BinOpKind::Ge:
        if (b->lhs.type().is_data() || b->rhs.type().is_data()) return data_condition(e);
        return num(b->lhs) >= num(b->rhs);
      case BinOpKind::Eq:
        if (b->lhs.type().is_data() || b->rhs.type().is_data()) return data_condition(e);
        if (b->lhs.type().base == ScalarKind::Bool) return cond(b->lhs) == cond(b->rhs);
        return num(b->lhs) == num(b->rhs);
      case BinOpKind::Add:
      case BinOpKind::Sub:
      case BinOpKind::Mul:
      case BinOpKind::Div:
      case BinOpKind::Mod:
        break;
    }
  }
  if (e.is<ReadConfigNode>())
    throw Unsupported{"`" + expr_text(e) + "` reads a config field, whose value is not modelled",
                      e.srcinfo()};
  throw Unsupported{"`" + expr_text(e) + "` is not a condition of the quasi-affine fragment",
                    e.srcinfo()};
}

Expr config_entry_value(const ReadConfigNode& read) {
  // One symbol per (config, field) for the life of the program: queries are independent, so
  // the same variable in two of them is harmless, and in one query it must be one variable.
  static std::mutex mu;
  static std::map<std::pair<const ConfigNode*, std::string>, Sym> syms;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(read.config.get(), read.field);
  auto it = syms.find(key);
  if (it == syms.end()) it = syms.emplace(key, Sym(read.config->name + "." + read.field)).first;
  return ReadNode::make(it->second, {}, read.type, read.srcinfo);
}

Expr with_entry_config_values(const Expr& e) {
  struct Entry : IRMutator {
    Expr mutate_ReadConfig(const ReadConfigNode* n, const Expr&) override {
      return config_entry_value(*n);
    }
  } entry;
  return entry.mutate(e);
}

z3::expr Encoder::facts(const Context& ctx) {
  z3::expr f = c_.bool_val(true);
  for (const FnArg& a : ctx.proc().args())
    if (a.type.is_scalar() && a.type.base == ScalarKind::Size) f = f && var(a.name) >= 1;
  // A proc's asserts hold at its entry: their config reads are the entry values.
  for (const Expr& p : ctx.proc().preds()) f = f && cond(with_entry_config_values(p));
  for (const Scope& s : ctx.scopes()) {
    if (s.kind == Scope::Loop) {
      z3::expr v = var(s.loop->iter);
      f = f && num(s.lo.defined() ? s.lo : s.loop->lo) <= v &&
          v < num(s.hi.defined() ? s.hi : s.loop->hi);
    } else if (s.kind == Scope::Cond) {
      f = f && (s.negated ? !cond(s.cond) : cond(s.cond));
    }
  }
  return f;
}

Encoder::Enc Encoder::access(const Access& a, const std::string& tag) {
  std::vector<std::pair<Sym, std::optional<z3::expr>>> saved;
  Enc out{c_.bool_val(true), {}, {}};
  for (const LoopRange& l : a.loops) {
    auto b = bound_.find(l.iter.id());
    saved.emplace_back(l.iter,
                       b == bound_.end() ? std::nullopt : std::optional<z3::expr>(b->second));
    // Bounds first: they are in the terms of the enclosing iterators, already bound.
    z3::expr lo = num(l.lo), hi = num(l.hi);
    z3::expr v = bind_copy(l.iter, tag);
    out.iters.push_back(v);
    out.when = out.when && lo <= v && v < hi;
  }
  for (const Guard& g : a.guards) out.when = out.when && guard(g);
  for (const Expr& i : a.idx) out.idx.push_back(num(i));
  for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
    if (it->second)
      bind(it->first, *it->second);
    else
      unbind(it->first);
  }
  return out;
}

}  // namespace exocpp::checker
