// Random arguments that satisfy a proc's asserts, deep copies, and comparison of two runs.
#include "core/test_inputs.h"

#include <numeric>

#include "core/ir_visit.h"
#include "core/printer.h"

namespace exocpp {
namespace {

// splitmix64: small, fast, and the same sequence on every platform and standard library.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int64_t range(int64_t lo, int64_t hi) {  // inclusive; lo <= hi
    uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(span == 0 ? next() : next() % span);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

bool is_unsigned(ScalarKind k) { return k == ScalarKind::UI8 || k == ScalarKind::UI16; }

std::string assert_text(const Expr& pred) { return "`assert " + to_string(pred) + "`"; }

std::string control_values(const Proc& p, const std::vector<ArgValue>& args) {
  std::string s;
  for (size_t i = 0; i < args.size() && i < p.args().size(); ++i)
    if (!std::holds_alternative<Buffer>(args[i]))
      s += (s.empty() ? "" : ", ") + p.args()[i].name.name() + " = " + to_string(args[i]);
  return s;
}

std::string compare_value(const std::string& name, const ArgValue& a, const ArgValue& b,
                          const CompareOptions& opts) {
  if (a.index() != b.index())
    return name + ": one run has " + to_string(a) + ", the other " + to_string(b);
  if (const Buffer* x = std::get_if<Buffer>(&a))
    return compare_buffers(*x, std::get<Buffer>(b), name, opts);
  bool same = std::holds_alternative<bool>(a) ? std::get<bool>(a) == std::get<bool>(b)
                                              : std::get<int64_t>(a) == std::get<int64_t>(b);
  if (!same) return name + " differs: " + to_string(a) + " vs " + to_string(b);
  return "";
}

void fill_random(Buffer& b, Rng& rng, const RandomArgsOptions& opts) {
  int64_t lo = opts.lo, hi = opts.hi;
  if (is_unsigned(b.kind()) && lo < 0) lo = 0;
  if (hi < lo) hi = lo;
  bool ints = opts.integer_valued || !is_float(b.kind());
  int64_t n = b.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    double v = ints ? static_cast<double>(rng.range(lo, hi))
                    : static_cast<double>(lo) + rng.unit() * static_cast<double>(hi - lo);
    b.set_flat(i, v);
  }
}

}  // namespace

std::vector<ArgValue> random_args(const Proc& p, const std::map<std::string, int64_t>& sizes,
                                  uint64_t seed, const RandomArgsOptions& opts) {
  if (!p.defined()) throw InterpError({}, "random_args() of an undefined proc");
  std::string names;
  for (const FnArg& a : p.args()) names += (names.empty() ? "" : ", ") + a.name.name();
  for (const auto& [name, v] : sizes) {
    const FnArg* found = nullptr;
    for (const FnArg& a : p.args())
      if (a.name.name() == name) found = &a;
    if (!found)
      throw InterpError(p->srcinfo, "random_args: proc '" + p.name() + "' has no argument named '" +
                                        name + "' (its arguments: " + names + ")");
    if (!found->type.is_control())
      throw InterpError(found->srcinfo, "random_args: argument '" + name + "' of proc '" +
                                            p.name() +
                                            "' is data; only control arguments take a given value");
  }
  bool any_free = false;
  for (const FnArg& a : p.args())
    if (a.type.is_control() && !sizes.count(a.name.name())) any_free = true;

  // Sizes that `assert N % 64 == 0`-style asserts accept are rare among small draws: in the
  // last quarter of the draws, a size the asserts take modulo constants is drawn as 1 or 2
  // times their least common multiple (when it is at most 4096), and the other sizes small
  // again, so that the run stays short.
  std::map<uint64_t, int64_t> modulus;  // size argument (Sym id) -> lcm of its moduli
  {
    struct Moduli : IRVisitor {
      std::map<uint64_t, int64_t>& out;
      explicit Moduli(std::map<uint64_t, int64_t>& o) : out(o) {}
      void visit_BinOp(const BinOpNode* b, const Expr& e) override {
        const ReadNode* r = b->lhs.as<ReadNode>();
        const ConstNode* c = b->rhs.as<ConstNode>();
        if (b->op == BinOpKind::Mod && r && r->idx.empty() && c && c->is_int() &&
            c->int_val() > 1) {
          int64_t& m = out.emplace(r->name.id(), 1).first->second;
          m = std::lcm(m, static_cast<int64_t>(c->int_val()));
        }
        IRVisitor::visit_BinOp(b, e);
      }
    } moduli(modulus);
    for (const Expr& pred : p.preds()) moduli.visit(pred);
  }
  Rng rng(seed);
  const int tries = any_free ? std::max(opts.max_tries, 1) : 1;
  std::string last_failure;
  SrcInfo last_where = p->srcinfo;
  for (int t = 0; t < tries; ++t) {
    std::vector<ArgValue> vals(p.args().size());
    for (size_t i = 0; i < p.args().size(); ++i) {
      const FnArg& a = p.args()[i];
      if (!a.type.is_control()) continue;
      auto given = sizes.find(a.name.name());
      ScalarKind k = a.type.base;
      if (k == ScalarKind::Bool)
        vals[i] = given != sizes.end() ? given->second != 0 : (rng.next() & 1) != 0;
      else if (given != sizes.end())
        vals[i] = given->second;
      else if (k == ScalarKind::Size && t >= tries - tries / 4 && modulus.count(a.name.id()) &&
               modulus.at(a.name.id()) <= 4096)
        vals[i] = modulus.at(a.name.id()) * rng.range(1, 2);
      else if (k == ScalarKind::Size)  // (widened in the third quarter only: see above)
        vals[i] = rng.range(
            1, std::max<int64_t>(
                   t < tries / 2 || t >= tries - tries / 4 ? opts.max_size : 4 * opts.max_size, 1));
      else if (k == ScalarKind::Stride)
        vals[i] = int64_t(1);
      else
        vals[i] = rng.range(0, std::max<int64_t>(opts.max_size - 1, 0));
    }
    std::vector<std::vector<int64_t>> shapes;
    try {
      shapes = arg_shapes(p, vals);
    } catch (const InterpError& e) {
      if (!any_free) throw;
      last_failure = e.reason();
      last_where = e.loc();
      continue;
    }
    std::string bad_shape;
    for (size_t i = 0; i < shapes.size() && bad_shape.empty(); ++i) {
      int64_t n = 1;
      for (int64_t d : shapes[i]) {
        if (d < 0 || (d > 0 && n > (int64_t(1) << 26) / d)) {
          bad_shape = "argument '" + p.args()[i].name.name() + "' would have shape " +
                      shape_string(shapes[i]);
          break;
        }
        n *= d;
      }
    }
    if (!bad_shape.empty()) {
      if (!any_free) throw InterpError(p->srcinfo, "random_args: " + bad_shape);
      last_failure = bad_shape;
      continue;
    }
    for (size_t i = 0; i < p.args().size(); ++i)
      if (p.args()[i].type.is_data()) {
        ScalarKind k = p.args()[i].type.base;
        vals[i] = Buffer(k == ScalarKind::R ? opts.real_as : k, shapes[i]);
      }
    int k = -1;
    try {
      k = first_failing_assert(p, vals, opts.configs);
    } catch (const InterpError& e) {
      if (!any_free) throw;
      last_failure = e.reason();
      last_where = e.loc();
      continue;
    }
    if (k >= 0) {
      const Expr& pred = p.preds()[static_cast<size_t>(k)];
      last_failure = assert_text(pred) + " does not hold for " + control_values(p, vals);
      last_where = pred.srcinfo();
      continue;
    }
    for (auto& v : vals)
      if (Buffer* b = std::get_if<Buffer>(&v)) fill_random(*b, rng, opts);
    // Index arguments hold values of their declared range (anything else is refused where the
    // proc is entered): uniform over it, so loops over data-dependent ranges run empty,
    // backwards (lo > hi) and full, and indirect reads reach both ends.
    std::string empty_range;
    const auto ranges = index_arg_ranges(p, vals);
    for (size_t i = 0; i < ranges.size(); ++i) {
      if (!ranges[i]) continue;
      Buffer& b = std::get<Buffer>(vals[i]);
      const auto [lo, hi] = *ranges[i];
      if (lo >= hi && b.num_elements() > 0) {
        empty_range = "index argument '" + p.args()[i].name.name() + "' has the empty range [" +
                      std::to_string(lo) + ", " + std::to_string(hi) + ")";
        break;
      }
      for (int64_t e = 0; e < b.num_elements(); ++e)
        b.set_flat(e, static_cast<double>(rng.range(lo, hi - 1)));
    }
    if (!empty_range.empty()) {
      if (!any_free) throw InterpError(p->srcinfo, "random_args: " + empty_range);
      last_failure = empty_range;
      continue;
    }
    return vals;
  }
  throw InterpError(last_where, "random_args: no argument values for proc '" + p.name() +
                                    "' found in " + std::to_string(tries) +
                                    (tries == 1 ? " try" : " tries") + ": " + last_failure +
                                    (any_free ? "" : " (every control argument was given)"));
}

std::vector<ArgValue> deep_copy(const std::vector<ArgValue>& args) {
  std::vector<ArgValue> out;
  out.reserve(args.size());
  for (const ArgValue& v : args) {
    if (const Buffer* b = std::get_if<Buffer>(&v))
      out.emplace_back(b->deep_copy());
    else
      out.push_back(v);
  }
  return out;
}

std::map<std::string, ArgValue> deep_copy(const std::map<std::string, ArgValue>& args) {
  std::map<std::string, ArgValue> out;
  for (const auto& [name, v] : args) {
    if (const Buffer* b = std::get_if<Buffer>(&v))
      out.emplace(name, b->deep_copy());
    else
      out.emplace(name, v);
  }
  return out;
}

std::map<std::string, ArgValue> by_name(const Proc& p, const std::vector<ArgValue>& args) {
  if (args.size() != p.args().size())
    throw InterpError(p->srcinfo, "by_name: proc '" + p.name() + "' has " +
                                      std::to_string(p.args().size()) + " arguments, got " +
                                      std::to_string(args.size()) + " values");
  std::map<std::string, ArgValue> out;
  for (size_t i = 0; i < args.size(); ++i) out.emplace(p.args()[i].name.name(), args[i]);
  return out;
}

std::string compare_args(const Proc& p, const std::vector<ArgValue>& a,
                         const std::vector<ArgValue>& b, const CompareOptions& opts) {
  if (a.size() != p.args().size() || b.size() != p.args().size())
    return "argument counts differ: proc '" + p.name() + "' takes " +
           std::to_string(p.args().size()) + ", got " + std::to_string(a.size()) + " and " +
           std::to_string(b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    std::string d = compare_value(p.args()[i].name.name(), a[i], b[i], opts);
    if (!d.empty()) return d;
  }
  return "";
}

std::string compare_args(const std::map<std::string, ArgValue>& a,
                         const std::map<std::string, ArgValue>& b, const CompareOptions& opts) {
  for (const auto& [name, va] : a) {
    auto it = b.find(name);
    if (it == b.end()) return name + " is present only in the first argument set";
    std::string d = compare_value(name, va, it->second, opts);
    if (!d.empty()) return d;
  }
  for (const auto& [name, vb] : b)
    if (!a.count(name)) return name + " is present only in the second argument set";
  return "";
}

std::string compare_procs(const Proc& a, const Proc& b, const std::map<std::string, int64_t>& sizes,
                          uint64_t seed, const CompareProcsOptions& opts) {
  if (!a.defined() || !b.defined()) throw InterpError({}, "compare_procs() of an undefined proc");
  for (int t = 0; t < std::max(opts.trials, 1); ++t) {
    uint64_t s = seed + static_cast<uint64_t>(t);
    RandomArgsOptions inputs = opts.inputs;
    if (!inputs.configs) inputs.configs = &opts.initial_configs;
    std::vector<ArgValue> args = random_args(a, sizes, s, inputs);
    std::string header = "'" + a.name() + "' vs '" + b.name() + "' with seed " + std::to_string(s) +
                         " (" + control_values(a, args) + "): ";
    std::map<std::string, ArgValue> args_a = by_name(a, args);
    std::map<std::string, ArgValue> copy = deep_copy(args_a);
    std::map<std::string, ArgValue> args_b;
    for (const FnArg& fa : b.args()) {
      auto it = copy.find(fa.name.name());
      if (it == copy.end())
        return header + "'" + b.name() + "' has an argument '" + fa.name.name() + "' that '" +
               a.name() + "' lacks";
      args_b.emplace(it->first, it->second);  // aliases copy's buffers
    }
    ConfigState cfg_a = opts.initial_configs, cfg_b = opts.initial_configs;
    InterpOptions ia = opts.interp, ib = opts.interp;
    ib.reverse_par = ib.reverse_par || opts.reverse_par_in_b;
    ia.configs = &cfg_a;
    ib.configs = &cfg_b;
    try {
      interpret(a, args_a, ia);
    } catch (const Error& e) {
      return header + "running '" + a.name() + "' failed: " + e.what();
    }
    try {
      interpret(b, args_b, ib);
    } catch (const Error& e) {
      return header + "running '" + b.name() + "' failed: " + e.what();
    }
    std::map<std::string, ArgValue> common_a;
    for (const auto& [name, v] : args_b) common_a.emplace(name, args_a.at(name));
    std::string d = compare_args(common_a, args_b, opts.compare);
    if (d.empty() && opts.compare_configs) d = compare_configs(cfg_a, cfg_b);
    if (!d.empty()) return header + d;
  }
  return "";
}

}  // namespace exocpp
