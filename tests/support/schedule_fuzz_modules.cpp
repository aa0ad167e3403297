// The random modules of the random-schedule generator (schedule_fuzz.h, generate_source): a
// main proc over buffers of several precisions with loops, ifs, windows, calls, configs and par
// loops, as Features allows.
#include <algorithm>
#include <functional>
#include <map>
#include <random>

#include "support/schedule_fuzz.h"
#include "support/schedule_fuzz_random.h"

namespace exocpp::fuzz {
namespace {

// ---- random modules --------------------------------------------------------------------------

// A precision and the buffers of it the main proc has (each 1-D of N + 8 elements).
struct Group {
  std::string type;
  std::vector<std::string> bufs;
  std::vector<std::string> scalars;
  bool is_float() const { return type == "f32" || type == "f64" || type == "f16"; }
};

// A loop variable in scope: `small` ones stay below 4 (usable to index 4-element locals).
struct Iter {
  std::string name;
  bool small;
};

// A local visible at the current point: a scalar, a 4-element array or a 4-element window.
struct Local {
  std::string name;
  int group;
  bool array;
};

class Generator {
 public:
  Generator(uint64_t seed, const Features& f)
      : rng_(seed), f_(f), sfx_("_" + std::to_string(seed)) {}

  std::string module() {
    groups_.push_back({"f32", {"A", "B"}, {"s"}});
    if (f_.int_precisions)
      for (const char* t : {"i8", "ui8", "ui16", "i32"}) {
        std::string b = t == std::string("i8")     ? "X"
                        : t == std::string("ui8")  ? "U"
                        : t == std::string("ui16") ? "W"
                                                   : "Z";
        groups_.push_back({t, {b}, {}});
      }
    // (f16 in some modules only: float arithmetic regrouped as reals in f16 is not compared,
    // rewrites/validate.h, so the modules without it keep that comparison)
    if (f_.float_precisions) {
      groups_.push_back({"f64", {"D"}, {}});
      if (chance(rng_, 50)) groups_.push_back({"f16", {"H"}, {}});
    }
    std::string out;
    cfg_ = "Cfg" + sfx_;
    if (f_.configs) out += "config " + cfg_ + ":\n    k: index\n    n: index\n    v: f32\n\n";
    if (f_.calls) out += subprocs();
    out += "def f" + sfx_ +
           "(N: size, K: index, A: f32[N + 8] @ DRAM, B: f32[N + 8] @ DRAM, s: f32 @ DRAM";
    for (size_t g = 1; g < groups_.size(); ++g)
      out += ", " + groups_[g].bufs[0] + ": " + groups_[g].type + "[N + 8] @ DRAM";
    if (f_.data_control) out += ", P: i32[N + 8] @ DRAM in range(0, N)";
    out += "):\n    assert K >= 0\n    assert K <= 4\n";
    if (f_.configs)
      out += "    " + cfg_ + ".k = " + std::to_string(pick(rng_, 0, 3)) + "\n    " + cfg_ +
             ".n = " + std::to_string(pick(rng_, 1, 3)) + "\n    " + cfg_ +
             ".v = " + zero_or(0, "1.0") + "\n";
    int n = pick(rng_, 2, 4);
    for (int k = 0; k < n; ++k) out += stmt(1, {}, 2, false);
    return out;
  }

 private:
  std::string pad(int depth) { return std::string(static_cast<size_t>(4 * depth), ' '); }
  std::string fresh(const std::string& prefix) { return prefix + std::to_string(names_++); }
  int data_group() {
    return groups_.size() > 1 && chance(rng_, 40)
               ? pick(rng_, 1, static_cast<int>(groups_.size()) - 1)
               : 0;
  }

  std::string subprocs() {
    std::string out;
    // g1: two windows of a config-dependent extent.
    const char* bodies[] = {"y[i] += x[i] * 2.0", "y[i] = x[i] + 1.0", "y[i] = y[i] + x[i]"};
    out += "def g1" + sfx_ +
           "(n: size, x: [f32][n] @ DRAM, y: [f32][n] @ DRAM):\n    for i in seq(0, n):\n        " +
           bodies[pick(rng_, 0, 2)] + "\n\n";
    // g2: an index argument with asserts; writes a config field.
    out += "def g2" + sfx_ +
           "(k: index, x: [f32][8] @ DRAM):\n    assert k >= 0\n    assert k < 4\n    x[k] = x[k + "
           "1] + 1.0\n\n";
    // g4: writes a config field. (The front end's loop-invariance check of config writes
    // summarizes a callee's written value as depending on all its arguments, so a callee that
    // writes a config and takes buffers is refused once a loop writes those buffers: g4 takes
    // none, and is called outside loops.)
    if (f_.configs)
      out += "def g4" + sfx_ + "():\n    " + cfg_ + ".k = " + std::to_string(pick(rng_, 0, 3)) +
             "\n    " + cfg_ + ".n = " + std::to_string(pick(rng_, 1, 3)) + "\n\n";
    // g3: integer arithmetic that wraps.
    std::string t = f_.int_precisions ? groups_[static_cast<size_t>(pick(rng_, 1, 4))].type : "f32";
    g3_group_ = 0;
    for (size_t g = 0; g < groups_.size(); ++g)
      if (groups_[g].type == t) g3_group_ = static_cast<int>(g);
    // g5: a callee that asserts its window is dense (rewrites that change a buffer's layout must
    // keep that precondition at every call).
    if (f_.strides)
      out += "def g5" + sfx_ +
             "(x: [f32][4] @ DRAM):\n    assert stride(x, 0) == 1\n    for i in seq(0, 4):\n"
             "        x[i] = x[i] * 2.0\n\n";
    // g6: a gather or a scatter-add through an index parameter, which the caller passes a window
    // of its index argument P (the checker reads c[j] as P[i + j]).
    if (f_.data_control)
      out += "def g6" + sfx_ +
             "(n: size, x: [f32][n] @ DRAM, y: [f32][4] @ DRAM, c: i32[4] @ DRAM in range(0, n)):"
             "\n    for j in seq(0, 4):\n        " +
             (chance(rng_, 50) ? "y[j] = x[c[j]] + 1.0" : "x[c[j]] += y[j]") + "\n\n";
    const char* ibodies[] = {"x[i] = x[i] * 2 / 2", "x[i] = x[i] + 100", "x[i] = x[i] * 3 - x[i]"};
    const char* fbodies[] = {"x[i] = x[i] * 2.0", "x[i] = x[i] + 1.0", "x[i] = x[i] * 3.0 - x[i]"};
    out += "def g3" + sfx_ + "(n: size, x: [" + t +
           "][n] @ DRAM):\n    for i in seq(0, n):\n        " +
           (t == "f32" ? fbodies : ibodies)[pick(rng_, 0, 2)] + "\n\n";
    return out;
  }

  // An index expression < N + 8 (given the configs' invariants k <= 3, n <= 3).
  std::string index(const std::vector<Iter>& iters) {
    int c = pick(rng_, 0, 9);
    if (iters.empty() || c == 0) {
      if (f_.configs && chance(rng_, 30)) return cfg_ + ".k" + (chance(rng_, 50) ? " + 1" : "");
      return std::to_string(pick(rng_, 0, 2));
    }
    const std::string& i = choose(iters, rng_).name;
    // (P's values lie in [0, N); P has N + 8 elements, so P[i + 2] is in bounds too)
    if (f_.data_control && c == 5 && chance(rng_, 50)) return "P[" + i + "]";
    if (f_.data_control && c == 6 && chance(rng_, 30)) return "P[" + i + " + 2] + 1";
    if (c <= 2) return i + " + 1";
    if (c == 3) return i + " + 2";
    if (c == 4 && f_.configs) return i + " + " + cfg_ + ".k";
    return i;
  }
  std::string small_index(const std::vector<Iter>& iters) {
    std::vector<Iter> small;
    for (const Iter& it : iters)
      if (it.small) small.push_back(it);
    if (!small.empty() && chance(rng_, 60)) return choose(small, rng_).name;
    return std::to_string(pick(rng_, 0, 3));
  }
  // A literal that group g's precision accepts where it meets it: the front end refuses one that
  // rounds to infinity in a float precision, and a non-integer or beyond-i32 one in integer
  // arithmetic. Some are exact everywhere; the others (0.1, 16777217.0, 2049.0, 1e+38, -0.0)
  // differ between precisions, which is what finds a value computed in the wrong one.
  std::string literal(int g) {
    const std::string& t = groups_[static_cast<size_t>(g)].type;
    if (groups_[static_cast<size_t>(g)].is_float()) {
      static const std::vector<std::string> plain = {"2.0", "0.5", "1.0", "3.0", "0.0"};
      if (!f_.literals || !wild_ || chance(rng_, 60)) return choose(plain, rng_);
      std::vector<std::string> l = {"(-0.0)", "0.1", "0.333", "2049.0", "(-2.5)"};
      if (t != "f16") l.insert(l.end(), {"16777217.0", "1e+38", "3.4028235e+38"});
      if (t == "f16") l.insert(l.end(), {"65504.0", "0.0001"});
      if (t == "f64") l.insert(l.end(), {"1e+300", "9007199254740993.0"});
      return choose(l, rng_);
    }
    static const std::vector<std::string> plain = {"2", "3", "1", "100", "127", "-1"};
    if (!f_.literals || !wild_ || chance(rng_, 70)) return choose(plain, rng_);
    static const std::vector<std::string> l = {"2147483647", "(-2147483647)", "255", "65535",
                                               "2.0",        "(-128)",        "0"};
    return choose(l, rng_);
  }
  // One of 0.0 and -0.0 (in a float group; which one is told apart bit for bit), or `other`.
  // Constants that compare equal as numbers and differ in bits find code that compares
  // constants by value.
  std::string zero_or(int g, const std::string& other) {
    if (!f_.literals || !groups_[static_cast<size_t>(g)].is_float() || chance(rng_, 40))
      return other;
    return chance(rng_, 50) ? "0.0" : "(-0.0)";
  }
  // A subexpression of literals alone (it computes in the precision around it).
  std::string literal_only(int g) {
    return "(" + literal(g) + (chance(rng_, 50) ? " + " : " * ") + literal(g) + ")";
  }
  // A literal stored as it is into group g's type: it must fit that type (the front end
  // refuses `W[0] = -1` for a ui16 W).
  std::string stored_literal(int g) {
    const std::string& t = groups_[static_cast<size_t>(g)].type;
    std::string l = literal(g);
    if (groups_[static_cast<size_t>(g)].is_float()) return l;
    std::string digits = l;
    std::erase(digits, '(');
    std::erase(digits, ')');
    const double v = std::stod(digits);
    const double lo = t == "i8" ? -128 : t == "i32" ? -2147483648.0 : 0;
    const double hi = t == "i8" ? 127 : t == "ui8" ? 255 : t == "ui16" ? 65535 : 2147483647.0;
    return v < lo || v > hi ? "1" : l;
  }
  std::string leaf(int g, const std::vector<Iter>& iters, const std::string& avoid = "") {
    const Group& G = groups_[static_cast<size_t>(g)];
    std::vector<std::string> opts;
    // In a par loop (avoid = the buffer it writes) every read is at the loop's own index.
    for (const std::string& b : G.bufs)
      opts.push_back(b + "[" + (avoid.empty() ? index(iters) : iters.back().name) + "]");
    if (avoid.empty()) {
      for (const std::string& s : G.scalars) opts.push_back(s);
      for (const Local& l : locals_)
        if (l.group == g)
          opts.push_back(l.array ? l.name + "[" + small_index(iters) + "]" : l.name);
      if (f_.configs && G.type == "f32" && chance(rng_, 20)) opts.push_back(cfg_ + ".v");
    }
    // (only float literals stand alone: an integer-literal expression is a control value)
    if (G.is_float() && chance(rng_, 15))
      return f_.literals && chance(rng_, 30) ? literal_only(g) : literal(g);
    if (f_.externs && chance(rng_, 10)) return extern_call(g, iters, avoid);
    return choose(opts, rng_);
  }
  // An extern applied to leaves of group g (those whose C matches the interpreter bit for bit:
  // correctly rounded or exact).
  std::string extern_call(int g, const std::vector<Iter>& iters, const std::string& avoid) {
    const bool fl = groups_[static_cast<size_t>(g)].is_float();
    auto arg = [&] {
      std::string l = leaf(g, iters, avoid);
      return l;
    };
    int c = pick(rng_, 0, fl ? 3 : 1);
    if (c == 0) return "relu(" + arg() + ")";
    if (c == 1) return "select(" + arg() + ", " + arg() + ", " + arg() + ", " + arg() + ")";
    if (c == 2) return "sqrt(" + arg() + ")";
    return "abs(" + arg() + ")";
  }
  // Float: sums of leaves and leaves scaled by a literal (values stay small exact integers).
  // Integer: also products and divisions by literals, so that intermediates wrap.
  std::string rhs(int g, const std::vector<Iter>& iters, int depth = 0,
                  const std::string& avoid = "") {
    bool fl = groups_[static_cast<size_t>(g)].is_float();
    if (depth >= 2 || chance(rng_, 35)) {
      std::string l = leaf(g, iters, avoid);
      int c = pick(rng_, 0, 5);
      if (c == 0) return literal(g) + " * " + l;
      if (c == 1 && !fl) return l + " * " + literal(g) + " / " + (chance(rng_, 50) ? "2" : "3");
      if (c == 2 && fl && chance(rng_, 30)) return l + " * " + leaf(g, iters, avoid);
      return l;
    }
    static const std::vector<std::string> ops = {" + ", " - "};
    std::string l = rhs(g, iters, depth + 1, avoid), r = rhs(g, iters, depth + 1, avoid);
    if (chance(rng_, 50)) r = "(" + r + ")";
    if (!fl && chance(rng_, 20)) return "(" + l + ") * " + literal(g);
    return l + choose(ops, rng_) + r;
  }
  std::string target(int g, const std::vector<Iter>& iters) {
    const Group& G = groups_[static_cast<size_t>(g)];
    std::vector<std::string> opts;
    for (const std::string& b : G.bufs) opts.push_back(b + "[" + index(iters) + "]");
    for (const std::string& s : G.scalars) opts.push_back(s);
    for (const Local& l : locals_)
      if (l.group == g) opts.push_back(l.array ? l.name + "[" + small_index(iters) + "]" : l.name);
    return choose(opts, rng_);
  }

  std::string loop_header(const std::string& i, bool& small, int budget) {
    small = false;
    int c = pick(rng_, 0, 11);
    std::string lo = "0", hi = "N";
    if (c == 0) {
      hi = "2";
      small = true;
    } else if (c == 1) {
      hi = "K";
      small = true;
    } else if (c == 2 && f_.configs) {
      hi = cfg_ + ".n";
      small = true;
    } else if (c == 3 && f_.odd_ranges) {
      hi = "N - 8";
    } else if (c == 4 && f_.odd_ranges) {
      lo = "2";
    } else if (c == 5 && f_.odd_ranges) {
      lo = "N";
      hi = "N + 2";
    } else if (c == 6 && f_.configs) {
      lo = cfg_ + ".k";
    } else if (c == 7 && budget > 1) {
      lo = "1";
    } else if (c == 8 && f_.data_control) {  // a CSR row: empty, backwards or a few elements
      const std::string k = std::to_string(pick(rng_, 0, 3));
      lo = "P[" + k + "]";
      hi = chance(rng_, 50) ? "P[" + k + " + 1]" : "P[" + k + "] + 2";
    }
    return "for " + i + " in seq(" + lo + ", " + hi + "):\n";
  }

  std::string body(int depth, const std::vector<Iter>& iters, int budget, bool in_par) {
    size_t saved = locals_.size();
    std::string out;
    int n = pick(rng_, 1, 3);
    for (int k = 0; k < n; ++k) out += stmt(depth, iters, budget, in_par);
    locals_.resize(saved);
    return out;
  }

  std::string stmt(int depth, std::vector<Iter> iters, int budget, bool in_par) {
    std::string p = pad(depth);
    int kind = budget > 0 ? pick(rng_, 0, f_.data_control ? 24 : 20) : pick(rng_, 0, 3);
    int g = data_group();
    switch (kind) {
      case 0:
      case 1: {  // (a value of another precision, converted by the store, sometimes)
        const int vg = f_.conversions && chance(rng_, 20) ? other_group(g) : g;
        return p + target(g, iters) + (kind == 0 ? " = " : " += ") + converted(g, vg, iters) + "\n";
      }
      case 2:
        if (chance(rng_, 50)) return p + "pass\n";
        [[fallthrough]];
      case 3: {  // a scalar local, set and used (of another precision than its value, sometimes)
        std::string t = fresh("t");
        std::string mem = f_.static_alloc && chance(rng_, 25) ? "DRAM_STATIC" : "DRAM";
        const int tg = f_.conversions && chance(rng_, 40) ? other_group(g) : g;
        std::string out = p + t + ": " + groups_[static_cast<size_t>(tg)].type + " @ " + mem +
                          "\n" + p + t + " = " + converted(tg, g, iters) + "\n";
        locals_.push_back({t, tg, false});
        // Used in its own precision's arithmetic, or stored whole into the value's.
        if (tg != g && chance(rng_, 50))
          out += p + target(g, iters) + " += " + t + "\n";
        else
          out += p + target(tg, iters) + " = " + arithmetic_on(tg, t, iters) + "\n";
        return out;
      }
      case 4:
      case 5:
      case 6: {
        std::string i = fresh("i");
        bool small = false;
        std::string out = p + loop_header(i, small, budget);
        iters.push_back({i, small});
        if (budget > 1 && chance(rng_, 30)) {  // a perfect nest (tile2d, reorder_loops)
          size_t saved = locals_.size();
          out += stmt(depth + 1, iters, budget - 1, in_par);
          locals_.resize(saved);
          return out;
        }
        return out + body(depth + 1, iters, budget - 1, in_par);
      }
      case 7: {
        std::vector<std::string> conds = {"N > 2", "N < 2", "K == 0"};
        if (!iters.empty()) conds.push_back(iters.back().name + " < 2");
        if (!iters.empty()) conds.push_back(iters.back().name + " < N");
        if (f_.configs) conds.push_back(cfg_ + ".k < 2");
        std::string cond = choose(conds, rng_);
        // Config writes may not depend on a loop variable, through a condition either.
        bool on_iter = !iters.empty() && cond.rfind(iters.back().name + " ", 0) == 0;
        iter_cond_ += on_iter;
        std::string out = p + "if " + cond + ":\n" + body(depth + 1, iters, budget - 1, in_par);
        if (chance(rng_, 40)) out += p + "else:\n" + body(depth + 1, iters, budget - 1, in_par);
        iter_cond_ -= on_iter;
        return out;
      }
      case 8: {  // a config write
        if (!f_.configs || in_par || iter_cond_ > 0 ||
            (!f_.config_writes_in_loops && !iters.empty()))
          return p + target(g, iters) + " = " + rhs(g, iters) + "\n";
        int c = pick(rng_, 0, 2);
        // (a config write may not depend on a loop variable: the front end refuses it)
        if (c == 0)
          return p + cfg_ + ".k = " + (chance(rng_, 30) ? "K - K + " : "") +
                 std::to_string(pick(rng_, 0, 3)) + "\n";
        if (c == 1) return p + cfg_ + ".n = " + std::to_string(pick(rng_, 1, 3)) + "\n";
        // (not a value read from a buffer: its value may depend on a loop that wrote the buffer)
        return p + cfg_ + ".v = " + zero_or(0, literal(0)) + "\n";
      }
      case 9: {  // a window statement and its uses
        if (!f_.windows) return p + target(g, iters) + " = " + rhs(g, iters) + "\n";
        const Group& G = groups_[static_cast<size_t>(g)];
        std::string w = fresh("w");
        std::string lo = index(iters);
        std::string out = p + w + " = " + choose(G.bufs, rng_) + "[" + lo + ":" + lo + " + 4]\n";
        locals_.push_back({w, g, true});
        if (f_.configs && !in_par && iter_cond_ == 0 &&
            (f_.config_writes_in_loops || iters.empty()) && chance(rng_, 30))
          out += p + cfg_ + ".k = " + std::to_string(pick(rng_, 0, 3)) + "\n";
        out += p + w + "[" + small_index(iters) + "] = " + rhs(g, iters) + "\n";
        if (chance(rng_, 50))
          out += p + target(g, iters) + " += " + w + "[" + small_index(iters) + "]\n";
        return out;
      }
      case 10: {  // a call with windows
        if (!f_.calls || in_par) return p + target(g, iters) + " += " + rhs(g, iters) + "\n";
        int c = pick(rng_, 0, f_.data_control ? 3 : 2);
        std::string i = iters.empty() ? "0" : iters.back().name;
        if (c == 3)
          return p + "g6" + sfx_ + "(N, A[0:N], B[" + i + ":" + i + " + 4], P[" + i + ":" + i +
                 " + 4])\n";

        if (c == 0) {
          if (f_.configs && chance(rng_, 50)) {
            std::string n = cfg_ + ".n", k = cfg_ + ".k";
            return p + "g1" + sfx_ + "(" + n + ", A[" + k + ":" + k + " + " + n + "], B[1:1 + " +
                   n + "])\n";
          }
          return p + "g1" + sfx_ + "(4, A[" + i + ":" + i + " + 4], B[0:4])\n";
        }
        if (c == 1) {
          if (f_.configs && iters.empty() && iter_cond_ == 0 && chance(rng_, 40))
            return p + "g4" + sfx_ + "()\n";
          std::string k =
              f_.configs && chance(rng_, 60) ? cfg_ + ".k" : std::to_string(pick(rng_, 0, 3));
          return p + "g2" + sfx_ + "(" + k + ", " + (chance(rng_, 50) ? "A" : "B") + "[" + i + ":" +
                 i + " + 8])\n";
        }
        const std::string& b = groups_[static_cast<size_t>(g3_group_)].bufs[0];
        if (f_.configs && chance(rng_, 50)) {
          std::string n = cfg_ + ".n", k = cfg_ + ".k";
          return p + "g3" + sfx_ + "(" + n + ", " + b + "[" + k + ":" + k + " + " + n + "])\n";
        }
        return p + "g3" + sfx_ + "(N, " + b + "[0:N])\n";
      }
      case 11: {  // a par loop: each iteration writes only its own element
        if (!f_.par || in_par) return p + target(g, iters) + " = " + rhs(g, iters) + "\n";
        std::string i = fresh("i");
        std::string out = p + "for " + i + " in par(0, N):\n";
        iters.push_back({i, false});
        const Group& G = groups_[static_cast<size_t>(g)];
        std::string t = choose(G.bufs, rng_);
        if (f_.static_alloc && chance(rng_, 20)) {  // a static buffer inside a par loop
          std::string tmp = fresh("t");
          out += pad(depth + 1) + tmp + ": " + G.type + " @ DRAM_STATIC\n";
          out += pad(depth + 1) + tmp + " = " + rhs(g, iters, 1, t) + "\n";
          out += pad(depth + 1) + t + "[" + i + "] = " + tmp + "\n";
          return out;
        }
        out += pad(depth + 1) + t + "[" + i + "] = " + rhs(g, iters, 0, t) + "\n";
        return out;
      }
      case 12: {  // a 4-element local array, filled then used (of another precision, sometimes)
        std::string t = fresh("t");
        std::string mem = f_.static_alloc && chance(rng_, 50) ? "DRAM_STATIC" : "DRAM";
        const int tg = f_.conversions && chance(rng_, 40) ? other_group(g) : g;
        std::string j = fresh("i");
        std::string out =
            p + t + ": " + groups_[static_cast<size_t>(tg)].type + "[4] @ " + mem + "\n";
        std::vector<Iter> inner = iters;
        inner.push_back({j, true});
        out += p + "for " + j + " in seq(0, 4):\n" + pad(depth + 1) + t + "[" + j +
               "] = " + converted(tg, g, inner) + "\n";
        locals_.push_back({t, tg, true});
        const std::string read = t + "[" + small_index(iters) + "]";
        if (tg != g && chance(rng_, 50))
          out += p + target(tg, iters) + " = " + arithmetic_on(tg, read, iters) + "\n";
        else
          out += p + target(g, iters) + " += " + read + "\n";
        return out;
      }
      case 13: {  // an accumulation with a constant factor (lift_reduce_constant)
        std::string i = fresh("i");
        std::string x = target(g, iters);
        // (the addends of another precision, sometimes: converted one by one before the sum)
        const int vg = f_.conversions && chance(rng_, 30) ? other_group(g) : g;
        std::string c = literal(vg);
        std::string out =
            p + x + " = " + stored_literal(g) + "\n" + p + "for " + i + " in seq(0, N):\n";
        iters.push_back({i, false});
        out += pad(depth + 1) + x + " += " + c + " * " + data_leaf(vg, iters) + "\n";
        return out;
      }
      case 14: {  // an accumulating assignment (fold_into_reduce, split_write, merge_writes)
        std::string x = target(g, iters);
        std::string out = p + x + " = " + x + " + " + rhs(g, iters) + "\n";
        // (a value of another precision, converted by the store, sometimes)
        const int vg = f_.conversions && chance(rng_, 30) ? other_group(g) : g;
        if (chance(rng_, 50))
          out += p + x + (chance(rng_, 50) ? " += " : " = ") + converted(g, vg, iters) + "\n";
        return out;
      }
      case 15: {  // a 2-D local whose row window's stride is observed, or passed to a callee
                  // that asserts it (each alone too, so that each rule is needed on its own)
        if (!f_.strides) return p + target(g, iters) + " = " + rhs(g, iters) + "\n";
        std::string t = fresh("t"), j = fresh("i"), k = fresh("i"), w = fresh("w");
        const Group& G = groups_[static_cast<size_t>(g)];
        std::vector<Iter> inner = iters;
        inner.push_back({j, true});
        inner.push_back({k, true});
        std::string out = p + t + ": " + G.type + "[4, 4] @ DRAM\n" + p + "for " + j +
                          " in seq(0, 4):\n" + pad(depth + 1) + "for " + k + " in seq(0, 4):\n" +
                          pad(depth + 2) + t + "[" + j + ", " + k + "] = " + rhs(g, inner) + "\n";
        const bool call = g == 0 && f_.calls && !in_par && chance(rng_, 60);
        if (!call || chance(rng_, 50)) {
          const std::string row = small_index(iters);
          out += p + w + " = " + t + "[" + row + ", 0:4]\n";
          out += p + "if stride(" + w + ", 0) == 1:\n" + pad(depth + 1) + target(g, iters) +
                 " += " + w + "[" + small_index(iters) + "]\n" + p + "else:\n" + pad(depth + 1) +
                 target(g, iters) + " = " + w + "[" + small_index(iters) + "]\n";
          locals_.push_back({w, g, true});
        }
        if (call) out += p + "g5" + sfx_ + "(" + t + "[" + small_index(iters) + ", 0:4])\n";
        out += p + target(g, iters) + " += " + t + "[" + small_index(iters) + ", " +
               small_index(iters) + "]\n";
        return out;
      }
      case 16: {  // a par loop whose iterations conflict: every one reduces into one element
        if (!f_.racy_par || !f_.par || in_par)
          return p + target(g, iters) + " += " + rhs(g, iters) + "\n";
        std::string i = fresh("i");
        const Group& G = groups_[static_cast<size_t>(g)];
        const std::string& b = choose(G.bufs, rng_);
        // (an assignment: the last iteration's value stays, so the order the iterations run in
        // shows; conflicting reductions would lose updates in C but sum alike in any order)
        return p + "for " + i + " in par(0, N):\n" + pad(depth + 1) + b + "[" +
               std::to_string(pick(rng_, 0, 2)) + "]" + (chance(rng_, 70) ? " = " : " += ") + b +
               "[" + i + " + 1]\n";
      }
      case 17: {  // an access out of bounds when N < 2 (N + 8 elements; index N + 9)
        if (!f_.out_of_bounds || !chance(rng_, 25))
          return p + target(g, iters) + " = " + rhs(g, iters) + "\n";
        const Group& G = groups_[static_cast<size_t>(g)];
        return p + "if N < 2:\n" + pad(depth + 1) + choose(G.bufs, rng_) +
               "[N + 9] = " + stored_literal(g) + "\n";
      }
      case 19: {  // accumulations into one element from values of other precisions, in a loop
                  // (reordering them is wrong where a float addend meets an integer buffer)
        if (!f_.conversions) return p + target(g, iters) + " += " + rhs(g, iters) + "\n";
        const std::string x = target(g, iters);
        std::string out;
        std::vector<Iter> inner = iters;
        int d = depth;
        for (int k = 0, n = pick(rng_, 1, 2); k < n; ++k) {
          const std::string i = fresh("i");
          out += pad(d++) + "for " + i + " in seq(0, " + (k == 0 ? "N" : "2") + "):\n";
          inner.push_back({i, k > 0});
        }
        for (int k = 0, n = pick(rng_, 1, 2); k < n; ++k)
          out += pad(d) + x + " += " + converted(g, other_group(g), inner) + "\n";
        return out;
      }
      case 21:
      case 22: {  // an if on data (the comparison in g's precision; literals meet it)
        static const std::vector<std::string> ops = {" < ", " <= ", " > ", " >= ", " == "};
        std::string cond =
            leaf(g, iters) + choose(ops, rng_) + (chance(rng_, 30) ? literal(g) : leaf(g, iters));
        if (!iters.empty() && chance(rng_, 25))
          cond = iters.back().name + " < N and " + cond;  // a control part in front
        std::string out = p + "if " + cond + ":\n" + body(depth + 1, iters, budget - 1, in_par);
        if (chance(rng_, 50)) out += p + "else:\n" + body(depth + 1, iters, budget - 1, in_par);
        return out;
      }
      case 23: {  // a loop variable (or an index argument's value) stored into integer data
        if (groups_.size() < 2 || iters.empty() || groups_[1].is_float())
          return p + target(g, iters) + " = " + rhs(g, iters) + "\n";
        const int ig = pick(rng_, 1, std::min<int>(4, static_cast<int>(groups_.size()) - 1));
        const std::string v =
            chance(rng_, 30) ? "P[" + iters.back().name + "]" : iters.back().name + " - 3";
        return p + target(ig, iters) + " = " + v + "\n";
      }
      case 24: {  // an argmax (argmin) loop: the first best of a data value and its index
                  // (rfactor_argmax), the value sometimes under abs, the best sometimes read
        if (groups_.size() < 2 || groups_[1].is_float())
          return p + target(g, iters) + " = " + rhs(g, iters) + "\n";
        const int ig = pick(rng_, 1, std::min<int>(4, static_cast<int>(groups_.size()) - 1));
        const std::string i = fresh("i"), best = target(g, iters), at = target(ig, iters);
        std::vector<Iter> inner = iters;
        inner.push_back({i, false});
        // The value read from another buffer than the best's, mostly (the same one is refused).
        auto buffer_of = [](const std::string& access) {
          return access.substr(0, access.find('['));
        };
        std::string e = data_leaf(g, inner);
        for (int tries = 0; tries < 4 && buffer_of(e) == buffer_of(best); ++tries)
          e = data_leaf(g, inner);
        if (groups_[static_cast<size_t>(g)].is_float() && f_.externs && chance(rng_, 40))
          e = "abs(" + e + ")";
        const std::string op = chance(rng_, 70) ? " > " : " < ";
        // A constant trip count, mostly: every index then fits even an i8 index (N may not).
        const std::string hi = chance(rng_, 75) ? std::to_string(pick(rng_, 0, 5)) : "N";
        return p + "for " + i + " in seq(0, " + hi + "):\n" + pad(depth + 1) + "if " + e + op +
               best + ":\n" + pad(depth + 2) + best + " = " + e + "\n" + pad(depth + 2) + at +
               " = " + i + "\n";
      }
      case 18: {  // a target reset twice, to 0.0 and to -0.0 (the same constant as numbers)
        if (!f_.literals || !groups_[static_cast<size_t>(g)].is_float())
          return p + target(g, iters) + " = " + rhs(g, iters) + "\n";
        const std::string x = target(g, iters);
        const bool negative_first = chance(rng_, 50);
        return p + x + " = " + (negative_first ? "(-0.0)" : "0.0") + "\n" + p + x + " = " +
               (negative_first ? "0.0" : "(-0.0)") + "\n";
      }
      default:
        return p + target(g, iters) + " = " + rhs(g, iters) + "\n";
    }
  }

  // An expression of group g's arithmetic with `read` (a value of g) as an operand: scaled,
  // divided, summed or under an extern, where computing it in another precision shows (a wider
  // one does not overflow, an integer one truncates the division, a narrower one rounds).
  std::string arithmetic_on(int g, const std::string& read, const std::vector<Iter>& iters) {
    const bool fl = groups_[static_cast<size_t>(g)].is_float();
    switch (pick(rng_, 0, 4)) {
      case 0:
        return read + " * " + literal(g);
      case 1:  // (an integer division by a literal that is never 0)
        return fl ? read + " / " + literal(g) : read + " / " + (chance(rng_, 50) ? "2" : "3");
      case 2:
        if (fl && f_.externs) return (chance(rng_, 50) ? "sqrt(" : "abs(") + read + ")";
        [[fallthrough]];
      case 3:
        return read + (chance(rng_, 50) ? " + " : " - ") + rhs(g, iters, 1);
      default:
        return rhs(g, iters);
    }
  }
  // A buffer element of group g (so that a literal next to it meets g's precision).
  std::string data_leaf(int g, const std::vector<Iter>& iters) {
    return choose(groups_[static_cast<size_t>(g)].bufs, rng_) + "[" + index(iters) + "]";
  }
  // A value of group vg to store into a buffer of group g: one that reads data, since a literal
  // alone would meet g's precision (where it may not fit) rather than vg's.
  std::string converted(int g, int vg, const std::vector<Iter>& iters) {
    for (int tries = 0; tries < 4; ++tries) {
      std::string r = rhs(vg, iters);
      if (r.find('[') != std::string::npos) return r;
    }
    return rhs(g, iters);
  }

  // Another group than g (g itself when there is none).
  int other_group(int g) {
    if (groups_.size() < 2) return g;
    int o = pick(rng_, 0, static_cast<int>(groups_.size()) - 2);
    return o >= g ? o + 1 : o;
  }

  Rng rng_;
  Features f_;
  // Half the modules draw literals that are inexact or large in some precision (has_wild_literals).
  bool wild_ = chance(rng_, 50);
  std::string sfx_, cfg_;
  std::vector<Group> groups_;
  std::vector<Local> locals_;
  int names_ = 0;
  int g3_group_ = 0;
  int iter_cond_ = 0;  // if-conditions on a loop variable around the current point
};

}  // namespace

bool has_wild_literals(const std::string& source) {
  for (const char* l :
       {"0.1", "0.333", "2049.0", "(-2.5)", "16777217.0", "1e+38", "3.4028235e+38", "65504.0",
        "0.0001", "1e+300", "9007199254740993.0", "2147483647", "255", "65535", "(-128)"})
    if (source.find(l) != std::string::npos) return true;
  return false;
}

std::string generate_source(uint64_t seed, const Features& f) {
  return Generator(seed, f).module();
}

}  // namespace exocpp::fuzz
