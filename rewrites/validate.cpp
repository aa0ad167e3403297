// Validation mode: each accepted operation's result is run against its input in the interpreter.
#include "rewrites/validate.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "core/arg_limits.h"
#include "core/cursor.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/test_inputs.h"
#include "core/uses.h"
#include "rewrites/internal/operation.h"

namespace exocpp {
namespace {

// -1: not decided yet (EXOCPP_VALIDATE decides on first use); 0 off; 1 on.
std::atomic<int> g_mode{-1};
std::atomic<uint64_t> g_operations{0}, g_compared{0}, g_trials{0}, g_seed{0};

int mode_from_env() {
  const char* v = std::getenv("EXOCPP_VALIDATE");
  return v && *v && std::string(v) != "0" ? 1 : 0;
}

// Operations whose result may legitimately differ from the input in what is compared.
bool compares_values(const std::string& op) { return op != "set_precision"; }

bool same_signature(const Proc& a, const Proc& b) {
  if (a.args().size() != b.args().size()) return false;
  for (size_t i = 0; i < a.args().size(); ++i) {
    const FnArg &x = a.args()[i], &y = b.args()[i];
    if (x.name.name() != y.name.name() || x.type.base != y.type.base ||
        x.type.rank() != y.type.rank())
      return false;
  }
  return true;
}

bool same_preds(const Proc& a, const Proc& b) {
  if (a.preds().size() != b.preds().size()) return false;
  for (size_t i = 0; i < a.preds().size(); ++i)
    if (to_string(a.preds()[i]) != to_string(b.preds()[i])) return false;
  return true;
}

// The configs a proc and its callees read or write, and whether it has a par loop.
struct ConfigsAndPar : IRVisitor {
  std::map<std::string, Config> configs;
  std::set<const ProcNode*> seen;
  bool par = false;
  void add_proc(const ProcNode& p) {
    if (seen.insert(&p).second) visit_proc(p);
  }
  void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
    configs.emplace(n->config->name, n->config);
    IRVisitor::visit_ReadConfig(n, e);
  }
  void visit_WriteConfig(const WriteConfigNode* n, const Stmt& s) override {
    configs.emplace(n->config->name, n->config);
    IRVisitor::visit_WriteConfig(n, s);
  }
  void visit_For(const ForNode* n, const Stmt& s) override {
    if (n->mode != LoopMode::Seq) par = true;
    IRVisitor::visit_For(n, s);
  }
  void visit_Call(const CallNode* n, const Stmt& s) override {
    add_proc(*n->proc);
    IRVisitor::visit_Call(n, s);
  }
};

// splitmix64, as core/test_inputs.cpp.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
};

// Float data that finds precision changes: ±0, ±inf, NaN and non-integer values. The finite
// ones are small multiples of 1/4, so that sums and products of a few of them are exact in every
// float precision (f16 included) and a rewrite that regroups float arithmetic as reals still
// computes the same bits; what differs is then a change of precision, conversion or constant.
// Float data: ±0, ±inf and NaN now and then (unless `finite`), otherwise non-integer values
// (quarters: exact in every float precision, and their sums cross integers, which shows where a
// conversion to an integer type truncates).
void fill_special_floats(std::vector<ArgValue>& args, Rng& rng, bool finite = false) {
  static const double kSpecial[] = {0.0, -0.0, INFINITY, -INFINITY, NAN};
  for (ArgValue& v : args) {
    Buffer* b = std::get_if<Buffer>(&v);
    if (!b || !is_float(b->kind())) continue;
    for (int64_t i = 0; i < b->num_elements(); ++i) {
      const uint64_t r = rng.next() % 16;
      b->set_flat(i, r < 3 && !finite ? kSpecial[rng.next() % std::size(kSpecial)]
                                      : static_cast<double>(rng.range(-8, 8)) / 4.0);
    }
  }
}

// Integer data at and next to its type's limits; an index argument's values at and next to the
// ends of its declared range instead (anything else is refused where the proc is entered).
void fill_near_limits(const Proc& p, std::vector<ArgValue>& args, Rng& rng) {
  const auto limits = integer_arg_limits(p, args);
  for (size_t a = 0; a < args.size(); ++a) {
    Buffer* b = std::get_if<Buffer>(&args[a]);
    if (!b || !limits[a]) continue;
    const auto [lo, hi] = *limits[a];
    for (int64_t i = 0; i < b->num_elements(); ++i) {
      int64_t x = 0;
      switch (rng.next() % 4) {
        case 0:
          x = hi - rng.range(0, 3);
          break;
        case 1:
          x = lo + rng.range(0, 3);
          break;
        case 2:
          x = rng.range(-3, 3);
          break;
        default:
          x = hi / 2 + rng.range(-2, 2);
          break;
      }
      b->set_flat(i, static_cast<double>(std::clamp(x, lo, hi)));
    }
  }
}

ConfigState random_configs(const std::map<std::string, Config>& configs, Rng& rng,
                           int64_t max_size) {
  ConfigState s;
  for (const auto& [name, cfg] : configs)
    for (const ConfigField& f : cfg->fields) {
      if (f.type == ScalarKind::Bool)
        s.set(name, f.name, (rng.next() & 1) != 0);
      else if (f.type == ScalarKind::Size)
        s.set(name, f.name, rng.range(1, max_size));
      else if (is_control(f.type))
        s.set(name, f.name, rng.range(0, max_size));
      else if (is_data(f.type))
        s.set(name, f.name, static_cast<double>(rng.range(0, 3)));
    }
  return s;
}

std::string describe_configs(const ConfigState& s) {
  std::string out;
  for (const auto& [key, v] : s.values) {
    out += (out.empty() ? "" : ", ") + key.first + "." + key.second + " = ";
    if (const int64_t* i = std::get_if<int64_t>(&v))
      out += std::to_string(*i);
    else if (const bool* b = std::get_if<bool>(&v))
      out += *b ? "True" : "False";
    else
      out += std::to_string(std::get<double>(v));
  }
  return out.empty() ? "none" : out;
}

// The relative tolerance for results regrouped as reals (regroups_as_reals) when the narrowest
// float precision the procs compute in is `k`: a value regrouped in f32 and stored into an f64
// buffer carries f32's error. Regrouped f16 or bf16 arithmetic (11 or 8 bits) can move a result
// by more than any useful tolerance: such results are not compared (a value < 0).
double real_tolerance(ScalarKind k) {
  switch (k) {
    case ScalarKind::F16:
    case ScalarKind::BF16:
      return -1;
    case ScalarKind::F32:
    case ScalarKind::R:
      return 1e-4;
    default:
      return 1e-9;
  }
}

// The narrowest float precision `p` (or a callee) stores or computes in, judged by the data
// arguments it uses and its allocations: F16 (for f16 and bf16), F32 (f32 and R) or F64.
ScalarKind narrowest_float(const Proc& p) {
  int rank = 3;  // f64
  auto note = [&](ScalarKind k) {
    const int r = k == ScalarKind::F16 || k == ScalarKind::BF16 ? 0
                  : k == ScalarKind::F32 || k == ScalarKind::R  ? 1
                                                                : 3;
    if (is_float(k)) rank = std::min(rank, r);
  };
  // (uses_of says which names a body touches; allocations' precisions are read here)
  struct Allocs : IRVisitor {
    std::function<void(ScalarKind)> note;
    void visit_Alloc(const AllocNode* n, const Stmt& s) override {
      note(n->type.base);
      IRVisitor::visit_Alloc(n, s);
    }
  } allocs;
  allocs.note = note;
  std::set<const ProcNode*> seen;
  std::function<void(const ProcNode&)> add = [&](const ProcNode& q) {
    if (!seen.insert(&q).second) return;
    const Uses u = uses_of(q.body);
    for (const FnArg& a : q.args)  // an argument the proc leaves alone is not counted
      if (u.mentions(a.name) || u.passed.count(a.name)) note(a.type.base);
    allocs.visit(q.body);
    for (const ProcNode* callee : u.callees) add(*callee);
  };
  add(*p.get());
  return rank == 0 ? ScalarKind::F16 : rank == 1 ? ScalarKind::F32 : ScalarKind::F64;
}

// "" when `b` (the result's run) agrees with `a` wherever `a` is defined (not NaN): the same
// value bit for bit (a NaN in `b` where `a` has a number differs; so do +0 and -0), or, when
// `as_reals`, finite values within real_tolerance (±0 equal).
std::string compare_buffer(const std::string& name, const Buffer& a, const Buffer& b, bool as_reals,
                           ScalarKind narrowest) {
  if (a.shape() != b.shape())
    return name + ": shapes " + shape_string(a.shape()) + " and " + shape_string(b.shape());
  const double tol = real_tolerance(narrowest);
  for (int64_t i = 0; i < a.num_elements(); ++i) {
    double x = a.flat(i), y = b.flat(i);
    if (std::isnan(x)) continue;
    bool same = x == y && std::signbit(x) == std::signbit(y);
    if (as_reals && !same && is_float(a.kind()))
      same = tol < 0 || !std::isfinite(y) || !std::isfinite(x) ||
             std::fabs(x - y) <= tol * (1.0 + std::fabs(x) + std::fabs(y));
    if (!same) {
      std::string idx;
      for (int64_t d : a.unflatten(i)) idx += (idx.empty() ? "" : ", ") + std::to_string(d);
      std::ostringstream os;
      os.precision(17);
      os << name << "[" << idx << "] is " << x << " before and " << y << " after";
      return os.str();
    }
  }
  return "";
}

std::string control_values(const Proc& p, const std::vector<ArgValue>& args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i)
    if (!std::holds_alternative<Buffer>(args[i]))
      s += (s.empty() ? "" : ", ") + p.args()[i].name.name() + " = " + to_string(args[i]);
  return s.empty() ? "no control arguments" : s;
}

bool is_step_limit(const Error& e) {
  return e.reason().find("step limit exceeded") != std::string::npos;
}
bool is_assert_failure(const Error& e) { return e.reason().find("assert") != std::string::npos; }

constexpr int64_t kMaxSteps = 200000;

struct Run {
  std::map<std::string, ArgValue> args;
  ConfigState configs;
  std::string error;  // "" when the run finished
  bool step_limit = false, assert_failed = false;
};

Run run(const Proc& p, const std::map<std::string, ArgValue>& args, const ConfigState& init,
        bool reverse_par) {
  Run r;
  r.args = deep_copy(args);
  r.configs = init;
  std::vector<ArgValue> ordered;
  for (const FnArg& a : p.args()) ordered.push_back(r.args.at(a.name.name()));
  InterpOptions o;
  o.configs = &r.configs;
  o.max_steps = kMaxSteps;
  o.max_alloc_elements = int64_t(1) << 22;
  o.reverse_par = reverse_par;
  try {
    interpret(p, ordered, o);
  } catch (const Error& e) {
    r.error = e.what();
    r.step_limit = is_step_limit(e);
    r.assert_failed = is_assert_failure(e);
  }
  return r;
}

// The final config state is compared except for the fields the result records as free to
// differ within its equivalence class (ProcNode::eqv_configs: a config rewrite changed only the
// value a caller sees afterwards, and call_eqv proves the caller does not read it).
using FieldList = std::vector<std::pair<Config, std::string>>;
std::string compare_runs(const Proc& p, const Run& a, const Run& b, const FieldList& may_differ,
                         bool as_reals = false, ScalarKind narrowest = ScalarKind::F64) {
  for (const FnArg& arg : p.args()) {
    const ArgValue& x = a.args.at(arg.name.name());
    const ArgValue& y = b.args.at(arg.name.name());
    if (const Buffer* bx = std::get_if<Buffer>(&x)) {
      std::string d =
          compare_buffer(arg.name.name(), *bx, std::get<Buffer>(y), as_reals, narrowest);
      if (!d.empty()) return d;
    }
  }
  ConfigState ca = a.configs, cb = b.configs;
  for (const auto& [cfg, field] : may_differ) {
    ca.values.erase({cfg->name, field});
    cb.values.erase({cfg->name, field});
  }
  std::string d = compare_configs(ca, cb);
  if (!d.empty()) return "final config state: " + d;
  return "";
}

}  // namespace

// The operations that may regroup or reorder float arithmetic as reals (as Exo does): a sum's
// terms reassociated or added in another order, a factor distributed over a sum. Their results
// agree with the input's as reals, not bit for bit: float results are compared within the
// tolerance of their precision, and an element where either run overflowed or met NaN (a
// regrouped sum can overflow where the original did not) is not compared. Every other operation
// must compute the same bits.
bool regroups_as_reals(const std::string& op) {
  static const std::set<std::string> ops = {"left_reassociate_expr",
                                            "lift_reduce_constant",
                                            "rfactor",
                                            "merge_writes",
                                            "split_write",
                                            "reorder_loops",
                                            "lift_scope",
                                            "reorder_stmts",
                                            "fission",
                                            "autofission",
                                            "fuse",
                                            "parallelize_loop",
                                            "stage_mem",
                                            "tile2d",
                                            "rotate_loop",
                                            kRegroupedSchedule};
  return ops.count(op) > 0;
}

void set_validation(bool on) { g_mode = on ? 1 : 0; }

bool validation_enabled() {
  int m = g_mode.load();
  if (m < 0) {
    int e = mode_from_env();
    g_mode.compare_exchange_strong(m, e);
    return g_mode.load() == 1;
  }
  return m == 1;
}

ValidationScope::ValidationScope(bool on) : saved_(validation_enabled() ? 1 : 0) {
  set_validation(on);
}
ValidationScope::~ValidationScope() { g_mode = saved_; }

ValidationStats validation_stats() {
  return {g_operations.load(), g_compared.load(), g_trials.load()};
}

std::string validate_step(const std::string& op, const Proc& before, const Proc& after,
                          uint64_t seed) {
  ++g_operations;
  // A result in another equivalence class is a new proc, not claimed equivalent (partial_eval,
  // add_assertion, transpose: the caller's contract changed), so there is nothing to compare.
  if (!before.defined() || !after.defined() || !compares_values(op) ||
      !same_signature(before, after) || before->eqv_class != after->eqv_class)
    return "";
  ConfigsAndPar uses;
  uses.add_proc(*before.get());
  bool before_par = uses.par;
  uses.par = false;
  uses.add_proc(*after.get());
  bool after_par = uses.par;
  const bool preds_same = same_preds(before, after);

  struct Trial {
    int64_t max_size;
    bool near_limits;  // integer data at and next to its type's limits
    bool configs;
    bool special_floats;     // float data ±0, ±inf, NaN and non-integer (fill_special_floats)
    bool fractions = false;  // float data non-integer and finite (an inf or NaN stored into an
                             // integer buffer stops the run, so the specials alone miss those)
  };
  static const Trial trials[] = {{1, false, false, false},     {2, true, true, false},
                                 {5, false, true, false},      {3, true, true, false},
                                 {2, false, true, true},       {4, true, false, true},
                                 {3, false, true, false, true}};
  const bool as_reals = regroups_as_reals(op);
  ScalarKind narrowest = ScalarKind::F64;
  if (as_reals)
    for (ScalarKind k : {narrowest_float(before), narrowest_float(after)})
      if (k == ScalarKind::F16 || (k == ScalarKind::F32 && narrowest == ScalarKind::F64))
        narrowest = k;
  int compared = 0;
  for (size_t t = 0; t < std::size(trials); ++t) {
    const Trial& tr = trials[t];
    const uint64_t s = seed * 8 + t;
    Rng rng(s);
    ConfigState init = tr.configs ? random_configs(uses.configs, rng, tr.max_size) : ConfigState{};
    std::vector<ArgValue> args;
    try {
      RandomArgsOptions ro;
      ro.max_size = tr.max_size;
      ro.max_tries = 60;
      ro.configs = &init;
      ro.lo = -4;
      ro.hi = 4;
      args = random_args(before, {}, s, ro);
    } catch (const Error&) {
      continue;  // no arguments satisfy the asserts (or shapes too large)
    }
    if (tr.near_limits) fill_near_limits(before, args, rng);
    if (tr.special_floats || tr.fractions) fill_special_floats(args, rng, tr.fractions);
    std::map<std::string, ArgValue> named = by_name(before, args);
    Run a = run(before, named, init, false);
    if (!a.error.empty()) continue;  // the input proc is not defined here: nothing to compare
    bool reverse = after_par;
    if (reverse && before_par) {
      // A par loop of the input whose iterations depend on each other: run the result in order.
      Run ar = run(before, named, init, true);
      if (!ar.error.empty() || !compare_runs(before, a, ar, {}).empty()) reverse = false;
    }
    Run b = run(after, named, init, reverse);
    std::string diff;
    if (!b.error.empty()) {
      if (b.step_limit || (b.assert_failed && !preds_same)) continue;
      diff = "the result fails where the input runs: " + b.error;
    } else {
      // Integers at their type's limits, converted into a float sum, are terms near 2^31 that
      // cancel: regrouped as reals, such a sum legitimately moves by units of its terms'
      // rounding, beyond any tolerance relative to the result. Float data is not compared
      // there (F16: no tolerance); integer data still is, bit for bit.
      const ScalarKind judged = as_reals && tr.near_limits ? ScalarKind::F16 : narrowest;
      diff = compare_runs(before, a, b, after->eqv_configs, as_reals, judged);
    }
    ++compared;
    ++g_trials;
    if (!diff.empty())
      return op + " changed what proc '" + before.name() + "' computes: " + diff +
             "\n  inputs: seed " + std::to_string(s) + " (validate_step seed " +
             std::to_string(seed) + "), " + control_values(before, args) +
             "; initial configs: " + describe_configs(init) +
             (reverse ? "; the result's par loops run in reverse" : "") + "\nbefore:\n" +
             to_string(before) + "after:\n" + to_string(after);
  }
  if (compared > 0) ++g_compared;
  return "";
}

namespace rw {

namespace {
// The innermost open operation frame of this thread (OpFrame).
thread_local const OpFrame* t_frame = nullptr;
}  // namespace

const std::string& current_op() {
  static const std::string none;
  return t_frame ? t_frame->name() : none;
}

OpFrame::OpFrame(std::string name) : name_(std::move(name)), outer_(t_frame) {
  t_frame = this;
  if (!outer_ && validation_enabled()) {  // the outermost operation
    active_ = true;
    saved_log_ = set_derive_log(&log_);
  }
}

OpFrame::~OpFrame() {
  t_frame = outer_;
  if (active_) set_derive_log(saved_log_);
}

void OpFrame::check(const Proc& result) {
  if (!active_ || !result.defined()) return;
  set_derive_log(saved_log_);
  active_ = false;
  std::set<const ProcNode*> made;
  for (const Proc& q : log_) made.insert(q.get());
  auto made_here = [&](const Proc& p) { return made.count(p.get()) > 0; };
  if (!made_here(result)) return;  // the input itself, or a proc not derived from it
  Proc input = result.parent();
  while (input.defined() && made_here(input)) input = input.parent();
  log_.clear();
  if (!input.defined()) return;
  std::string report;
  try {
    report = validate_step(name_, input, result, ++g_seed);
  } catch (const Error&) {
    return;  // the comparison could not run (reported by validate_step's callers otherwise)
  }
  if (!report.empty()) throw InternalError("validation: " + report);
}

}  // namespace rw
}  // namespace exocpp
