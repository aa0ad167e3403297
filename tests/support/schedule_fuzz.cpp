// The random-schedule differential generator: random modules, random scheduling steps, every
// accepted step compared in the interpreter, final procs compiled and compared in C.
#include "support/schedule_fuzz.h"

#include <algorithm>
#include <functional>
#include <map>
#include <random>

#include "core/ir_visit.h"

namespace exocpp::fuzz {
namespace {

using Rng = std::mt19937_64;

int pick(Rng& r, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(r); }
bool chance(Rng& r, int percent) { return pick(r, 0, 99) < percent; }
template <class T>
const T& choose(const std::vector<T>& v, Rng& r) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(r)];
}

// ---- random modules --------------------------------------------------------------------------

// A precision and the buffers of it the main proc has (each 1-D of N + 8 elements).
struct Group {
  std::string type;
  std::vector<std::string> bufs;
  std::vector<std::string> scalars;
  bool is_float() const { return type == "f32"; }
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
    std::string out;
    cfg_ = "Cfg" + sfx_;
    if (f_.configs) out += "config " + cfg_ + ":\n    k: index\n    n: index\n    v: f32\n\n";
    if (f_.calls) out += subprocs();
    out += "def f" + sfx_ +
           "(N: size, K: index, A: f32[N + 8] @ DRAM, B: f32[N + 8] @ DRAM, s: f32 @ DRAM";
    for (size_t g = 1; g < groups_.size(); ++g)
      out += ", " + groups_[g].bufs[0] + ": " + groups_[g].type + "[N + 8] @ DRAM";
    out += "):\n    assert K >= 0\n    assert K <= 4\n";
    if (f_.configs)
      out += "    " + cfg_ + ".k = " + std::to_string(pick(rng_, 0, 3)) + "\n    " + cfg_ +
             ".n = " + std::to_string(pick(rng_, 1, 3)) + "\n    " + cfg_ + ".v = 1.0\n";
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
    std::string t =
        groups_.size() > 1 ? groups_[static_cast<size_t>(pick(rng_, 1, 4))].type : "f32";
    g3_group_ = 0;
    for (size_t g = 0; g < groups_.size(); ++g)
      if (groups_[g].type == t) g3_group_ = static_cast<int>(g);
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
  std::string literal(int g) {
    if (groups_[static_cast<size_t>(g)].is_float()) {
      static const std::vector<std::string> l = {"2.0", "0.5", "1.0", "3.0", "0.0"};
      return choose(l, rng_);
    }
    static const std::vector<std::string> l = {"2", "3", "1", "100", "127", "-1"};
    return choose(l, rng_);
  }
  // A literal stored as it is into group g's type: it must fit that type (the front end
  // refuses `W[0] = -1` for a ui16 W).
  std::string stored_literal(int g) {
    std::string l = literal(g);
    if (l == "-1" && groups_[static_cast<size_t>(g)].type.rfind("ui", 0) == 0) return "1";
    return l;
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
      if (f_.configs && G.is_float() && chance(rng_, 20)) opts.push_back(cfg_ + ".v");
    }
    // (only float literals stand alone: an integer-literal expression is a control value)
    if (G.is_float() && chance(rng_, 15)) return literal(g);
    return choose(opts, rng_);
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
    int kind = budget > 0 ? pick(rng_, 0, 15) : pick(rng_, 0, 3);
    int g = data_group();
    switch (kind) {
      case 0:
      case 1:
        return p + target(g, iters) + (kind == 0 ? " = " : " += ") + rhs(g, iters) + "\n";
      case 2:
        if (chance(rng_, 50)) return p + "pass\n";
        [[fallthrough]];
      case 3: {  // a scalar local, set and used
        std::string t = fresh("t");
        std::string mem = f_.static_alloc && chance(rng_, 25) ? "DRAM_STATIC" : "DRAM";
        std::string out = p + t + ": " + groups_[static_cast<size_t>(g)].type + " @ " + mem + "\n" +
                          p + t + " = " + rhs(g, iters) + "\n";
        locals_.push_back({t, g, false});
        out += p + target(g, iters) + " += " + t + "\n";
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
        return p + cfg_ + ".v = " + literal(0) + "\n";
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
        int c = pick(rng_, 0, 2);
        std::string i = iters.empty() ? "0" : iters.back().name;

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
      case 12: {  // a 4-element local array, filled then used
        std::string t = fresh("t");
        std::string mem = f_.static_alloc && chance(rng_, 50) ? "DRAM_STATIC" : "DRAM";
        const Group& G = groups_[static_cast<size_t>(g)];
        std::string j = fresh("i");
        std::string out = p + t + ": " + G.type + "[4] @ " + mem + "\n";
        std::vector<Iter> inner = iters;
        inner.push_back({j, true});
        out += p + "for " + j + " in seq(0, 4):\n" + pad(depth + 1) + t + "[" + j +
               "] = " + rhs(g, inner) + "\n";
        locals_.push_back({t, g, true});
        out += p + target(g, iters) + " += " + t + "[" + small_index(iters) + "]\n";
        return out;
      }
      case 13: {  // an accumulation with a constant factor (lift_reduce_constant)
        std::string i = fresh("i");
        std::string x = target(g, iters);
        std::string c = literal(g);
        std::string out =
            p + x + " = " + stored_literal(g) + "\n" + p + "for " + i + " in seq(0, N):\n";
        iters.push_back({i, false});
        out += pad(depth + 1) + x + " += " + c + " * " + leaf(g, iters) + "\n";
        return out;
      }
      case 14: {  // an accumulating assignment (fold_into_reduce, split_write, merge_writes)
        std::string x = target(g, iters);
        std::string out = p + x + " = " + x + " + " + rhs(g, iters) + "\n";
        if (chance(rng_, 50))
          out += p + x + (chance(rng_, 50) ? " += " : " = ") + rhs(g, iters) + "\n";
        return out;
      }
      default:
        return p + target(g, iters) + " = " + rhs(g, iters) + "\n";
    }
  }

  Rng rng_;
  Features f_;
  std::string sfx_, cfg_;
  std::vector<Group> groups_;
  std::vector<Local> locals_;
  int names_ = 0;
  int g3_group_ = 0;
  int iter_cond_ = 0;  // if-conditions on a loop variable around the current point
};

// ---- random targets --------------------------------------------------------------------------

struct Targets {
  std::vector<Cursor> stmts, blocks, exprs, loops, allocs, windows, calls, config_writes;
  explicit Targets(const Proc& p) {
    collect(p.body_cursor());
    for (const Cursor& s : stmts) collect_exprs(s);
  }
  void collect(const Cursor& block) {
    if (block.kind() != CursorKind::Block) return;  // an empty body is a gap
    blocks.push_back(block);
    for (int i = 0; i < block.size(); ++i) {
      Cursor s = block[i];
      stmts.push_back(s);
      switch (s.stmt().kind()) {
        case StmtKind::For:
          loops.push_back(s);
          break;
        case StmtKind::Alloc:
          allocs.push_back(s);
          break;
        case StmtKind::WindowStmt:
          windows.push_back(s);
          break;
        case StmtKind::Call:
          calls.push_back(s);
          break;
        case StmtKind::WriteConfig:
          config_writes.push_back(s);
          break;
        default:
          break;
      }
      StmtKind k = s.stmt().kind();
      if (k == StmtKind::For || k == StmtKind::If) collect(s.body());
      if (k == StmtKind::If && s.orelse().is_valid()) collect(s.orelse());
    }
  }
  void collect_exprs(const Cursor& c) {
    for (int i = 0; i < c.num_children(); ++i) {
      Cursor e = c.child(i);
      exprs.push_back(e);
      collect_exprs(e);
    }
  }
};

// Refused steps throw this (no target of the needed kind): counted as a refusal.
[[noreturn]] void no_target(const std::string& op) {
  throw SchedulingError(op, {}, "fuzz: no target");
}

const Cursor& any(const std::vector<Cursor>& v, Rng& r, const std::string& op) {
  if (v.empty()) no_target(op);
  return choose(v, r);
}

struct Ctx {
  Module m;
  Config cfg;
  std::string sfx;
  Rng rng;
  int fresh = 0;
  std::string name(const std::string& prefix) { return prefix + "z" + std::to_string(fresh++); }
};

// A block of one or two statements starting at `s`.
Cursor one_or_two(const Cursor& s, Rng& r) {
  Cursor b = s.as_block();
  if (s.next().is_valid() && chance(r, 60)) b = b.expand(0, 1);
  return b;
}

// An index expression for a new bound or cut point, in the loop's scope.
std::string bound_expr(Ctx& c) {
  std::vector<std::string> v = {"0", "1", "2", "N", "N - 1", "K", "N + 1", "N - 8"};
  if (c.cfg) {
    v.push_back(c.cfg->name + ".k");
    v.push_back(c.cfg->name + ".n");
  }
  return choose(v, c.rng);
}

// The name of a 1-D main buffer read or written somewhere in `block`, with one index text.
bool buffer_access(const Cursor& block, Rng& r, std::string& buf, std::string& idx) {
  std::vector<std::pair<std::string, std::string>> found;
  std::function<void(const Cursor&)> walk = [&](const Cursor& c) {
    if (c.is_expr()) {
      if (const ReadNode* n = c.expr().as<ReadNode>(); n && n->idx.size() == 1)
        found.push_back({n->name.name(), to_string(n->idx[0])});
    } else if (c.is_stmt()) {
      if (const AssignNode* n = c.stmt().as<AssignNode>(); n && n->idx.size() == 1)
        found.push_back({n->name.name(), to_string(n->idx[0])});
      if (const ReduceNode* n = c.stmt().as<ReduceNode>(); n && n->idx.size() == 1)
        found.push_back({n->name.name(), to_string(n->idx[0])});
      StmtKind k = c.stmt().kind();
      if (k == StmtKind::For || k == StmtKind::If) walk(c.body());
    } else if (c.is_block()) {
      for (int i = 0; i < c.size(); ++i) walk(c[i]);
      return;
    }
    for (int i = 0; i < c.num_children(); ++i) walk(c.child(i));
  };
  walk(block);
  if (found.empty()) return false;
  std::tie(buf, idx) = choose(found, r);
  return true;
}

using StepFn = std::function<Proc(const Proc&, Ctx&)>;

std::vector<std::pair<std::string, StepFn>> all_steps() {
  std::vector<std::pair<std::string, StepFn>> s;
  auto add = [&](std::string n, StepFn f) { s.emplace_back(std::move(n), std::move(f)); };
  add("insert_pass", [](const Proc& p, Ctx& c) {
    return insert_pass(p, any(Targets(p).stmts, c.rng, "insert_pass").after());
  });
  add("delete_pass", [](const Proc& p, Ctx&) { return delete_pass(p); });
  add("reorder_stmts", [](const Proc& p, Ctx& c) {
    Cursor s = any(Targets(p).stmts, c.rng, "reorder_stmts");
    if (!s.next().is_valid()) no_target("reorder_stmts");
    return reorder_stmts(p, s.as_block().expand(0, 1));
  });
  add("parallelize_loop", [](const Proc& p, Ctx& c) {
    return parallelize_loop(p, any(Targets(p).loops, c.rng, "parallelize_loop"));
  });
  add("commute_expr", [](const Proc& p, Ctx& c) {
    return commute_expr(p, {any(Targets(p).exprs, c.rng, "commute_expr")});
  });
  add("left_reassociate_expr", [](const Proc& p, Ctx& c) {
    return left_reassociate_expr(p, any(Targets(p).exprs, c.rng, "left_reassociate_expr"));
  });
  add("rewrite_expr", [](const Proc& p, Ctx& c) {
    return rewrite_expr(p, any(Targets(p).exprs, c.rng, "rewrite_expr"), bound_expr(c));
  });
  add("merge_writes", [](const Proc& p, Ctx& c) {
    Cursor s = any(Targets(p).stmts, c.rng, "merge_writes");
    if (!s.next().is_valid()) no_target("merge_writes");
    return merge_writes(p, s.as_block().expand(0, 1));
  });
  add("split_write", [](const Proc& p, Ctx& c) {
    return split_write(p, any(Targets(p).stmts, c.rng, "split_write"));
  });
  add("fold_into_reduce", [](const Proc& p, Ctx& c) {
    return fold_into_reduce(p, any(Targets(p).stmts, c.rng, "fold_into_reduce"));
  });
  add("inline_assign", [](const Proc& p, Ctx& c) {
    return inline_assign(p, any(Targets(p).stmts, c.rng, "inline_assign"));
  });
  add("compute_inline", [](const Proc& p, Ctx& c) {
    return compute_inline(p, any(Targets(p).loops, c.rng, "compute_inline"));
  });
  add("lift_reduce_constant", [](const Proc& p, Ctx& c) {
    return lift_reduce_constant(
        p, one_or_two(any(Targets(p).stmts, c.rng, "lift_reduce_constant"), c.rng));
  });
  add("eliminate_dead_code", [](const Proc& p, Ctx& c) {
    return eliminate_dead_code(p, any(Targets(p).stmts, c.rng, "eliminate_dead_code"));
  });
  add("simplify", [](const Proc& p, Ctx&) { return simplify(p); });
  add("divide_loop", [](const Proc& p, Ctx& c) {
    static const Tail tails[] = {Tail::Guard, Tail::Cut, Tail::CutAndGuard};
    int q = pick(c.rng, 1, 4);
    return divide_loop(p, any(Targets(p).loops, c.rng, "divide_loop"), q,
                       {c.name("o"), c.name("n")},
                       {.tail = tails[pick(c.rng, 0, 2)], .perfect = chance(c.rng, 20)});
  });
  add("reorder_loops", [](const Proc& p, Ctx& c) {
    return reorder_loops(p, any(Targets(p).loops, c.rng, "reorder_loops"));
  });
  add("fission", [](const Proc& p, Ctx& c) {
    return fission(p, any(Targets(p).stmts, c.rng, "fission").after(),
                   {.n_lifts = pick(c.rng, 1, 2)});
  });
  add("autofission", [](const Proc& p, Ctx& c) {
    return autofission(p, any(Targets(p).stmts, c.rng, "autofission").after(),
                       {.n_lifts = pick(c.rng, 1, 2)});
  });
  add("fuse", [](const Proc& p, Ctx& c) {
    Cursor s = any(Targets(p).stmts, c.rng, "fuse");
    if (!s.next().is_valid()) no_target("fuse");
    return fuse(p, s, s.next());
  });
  add("join_loops", [](const Proc& p, Ctx& c) {
    Cursor s = any(Targets(p).loops, c.rng, "join_loops");
    if (!s.next().is_valid()) no_target("join_loops");
    return join_loops(p, s, s.next());
  });
  add("remove_loop", [](const Proc& p, Ctx& c) {
    return remove_loop(p, any(Targets(p).loops, c.rng, "remove_loop"));
  });
  add("unroll_loop", [](const Proc& p, Ctx& c) {
    return unroll_loop(p, any(Targets(p).loops, c.rng, "unroll_loop"));
  });
  add("lift_scope", [](const Proc& p, Ctx& c) {
    return lift_scope(p, any(Targets(p).stmts, c.rng, "lift_scope"));
  });
  add("cut_loop", [](const Proc& p, Ctx& c) {
    return cut_loop(p, any(Targets(p).loops, c.rng, "cut_loop"), bound_expr(c));
  });
  add("rotate_loop", [](const Proc& p, Ctx& c) {
    return rotate_loop(p, any(Targets(p).loops, c.rng, "rotate_loop"), pick(c.rng, 1, 2));
  });
  add("shift_loop", [](const Proc& p, Ctx& c) {
    return shift_loop(p, any(Targets(p).loops, c.rng, "shift_loop"), bound_expr(c));
  });
  add("bound_and_guard", [](const Proc& p, Ctx& c) {
    return bound_and_guard(p, any(Targets(p).loops, c.rng, "bound_and_guard"),
                           chance(c.rng, 50) ? "N + 8" : "8");
  });
  add("mult_loops", [](const Proc& p, Ctx& c) {
    return mult_loops(p, any(Targets(p).loops, c.rng, "mult_loops"), c.name("m"));
  });
  add("divide_with_recompute", [](const Proc& p, Ctx& c) {
    return divide_with_recompute(p, any(Targets(p).loops, c.rng, "divide_with_recompute"), "N / 2",
                                 2, {c.name("o"), c.name("n")});
  });
  add("add_loop", [](const Proc& p, Ctx& c) {
    return add_loop(p, one_or_two(any(Targets(p).stmts, c.rng, "add_loop"), c.rng), c.name("a"),
                    chance(c.rng, 50) ? "2" : bound_expr(c), {.guard = chance(c.rng, 50)});
  });
  add("specialize", [](const Proc& p, Ctx& c) {
    std::vector<std::string> conds = {"N < 4", "K == 0", "N == 1", "K < N"};
    if (c.cfg) conds.push_back(c.cfg->name + ".k == 1");
    return specialize(p, one_or_two(any(Targets(p).stmts, c.rng, "specialize"), c.rng),
                      {choose(conds, c.rng)});
  });
  add("tile2d", [](const Proc& p, Ctx& c) {
    return tile2d(p, any(Targets(p).loops, c.rng, "tile2d"), {2, 3},
                  {c.name("a"), c.name("b"), c.name("c"), c.name("d")},
                  {.perfect = chance(c.rng, 20)});
  });
  add("lift_alloc", [](const Proc& p, Ctx& c) {
    return lift_alloc(p, any(Targets(p).allocs, c.rng, "lift_alloc"),
                      {.n_lifts = pick(c.rng, 1, 2)});
  });
  add("sink_alloc", [](const Proc& p, Ctx& c) {
    return sink_alloc(p, any(Targets(p).allocs, c.rng, "sink_alloc"));
  });
  add("autolift_alloc", [](const Proc& p, Ctx& c) {
    return autolift_alloc(p, any(Targets(p).allocs, c.rng, "autolift_alloc"),
                          {.n_lifts = pick(c.rng, 1, 2)});
  });
  add("delete_buffer", [](const Proc& p, Ctx& c) {
    return delete_buffer(p, any(Targets(p).allocs, c.rng, "delete_buffer"));
  });
  add("expand_dim", [](const Proc& p, Ctx& c) {
    Cursor a = any(Targets(p).allocs, c.rng, "expand_dim");
    std::string idx = "0";
    for (Cursor up = a; !up.loc().block.empty();) {
      up = up.parent();
      if (up.stmt().kind() == StmtKind::For && chance(c.rng, 60)) {
        idx = up.name();
        break;
      }
    }
    return expand_dim(p, a, chance(c.rng, 50) ? "N + 8" : "4", idx);
  });
  add("divide_dim", [](const Proc& p, Ctx& c) {
    return divide_dim(p, any(Targets(p).allocs, c.rng, "divide_dim"), 0, 2);
  });
  add("unroll_buffer", [](const Proc& p, Ctx& c) {
    return unroll_buffer(p, any(Targets(p).allocs, c.rng, "unroll_buffer"), 0);
  });
  add("resize_dim", [](const Proc& p, Ctx& c) {
    return resize_dim(p, any(Targets(p).allocs, c.rng, "resize_dim"), 0,
                      chance(c.rng, 50) ? "3" : "8", chance(c.rng, 50) ? "0" : "1");
  });
  add("resize_dim.fold", [](const Proc& p, Ctx& c) {
    static const std::vector<std::string> sizes = {"1", "2", "3", "4", "8"};
    ResizeDimOptions fold;
    fold.fold = true;
    return resize_dim(p, any(Targets(p).allocs, c.rng, "resize_dim"), 0, choose(sizes, c.rng), "0",
                      fold);
  });
  add("set_memory", [](const Proc& p, Ctx& c) {
    static const std::vector<std::string> mems = {"DRAM", "DRAM_STATIC", "DRAM_STACK"};
    return set_memory(p, any(Targets(p).allocs, c.rng, "set_memory"), choose(mems, c.rng));
  });
  add("reuse_buffer", [](const Proc& p, Ctx& c) {
    Targets t(p);
    if (t.allocs.size() < 2) no_target("reuse_buffer");
    return reuse_buffer(p, choose(t.allocs, c.rng), choose(t.allocs, c.rng));
  });
  add("stage_mem", [](const Proc& p, Ctx& c) {
    Cursor b = one_or_two(any(Targets(p).stmts, c.rng, "stage_mem"), c.rng);
    std::string buf, idx;
    if (!buffer_access(b, c.rng, buf, idx)) no_target("stage_mem");
    std::string w;
    switch (pick(c.rng, 0, 2)) {
      case 0:
        w = buf + "[" + idx + ":" + idx + " + 1]";
        break;
      case 1:
        w = buf + "[" + idx + ":" + idx + " + 2]";
        break;
      default:
        w = buf + "[0:N + 8]";
        break;
    }
    return stage_mem(p, b, w, c.name("st"), {.accum = chance(c.rng, 30)});
  });
  add("bind_expr", [](const Proc& p, Ctx& c) {
    return bind_expr(p, any(Targets(p).exprs, c.rng, "bind_expr"), c.name("b"));
  });
  add("inline_window", [](const Proc& p, Ctx& c) {
    return inline_window(p, any(Targets(p).windows, c.rng, "inline_window"));
  });
  add("inline_proc", [](const Proc& p, Ctx& c) {
    return inline_proc(p, any(Targets(p).calls, c.rng, "inline_proc"));
  });
  add("call_eqv", [](const Proc& p, Ctx& c) {
    // An equivalent (same history) version of the callee: the callee after a random step.
    Cursor call = any(Targets(p).calls, c.rng, "call_eqv");
    Proc callee(call.stmt().as<CallNode>()->proc);
    Proc eqv = rename(callee, c.name(callee.name() + "_"));
    Targets t(eqv);
    try {
      switch (pick(c.rng, 0, 3)) {
        case 0:
          if (!t.config_writes.empty()) eqv = delete_config(eqv, choose(t.config_writes, c.rng));
          break;
        case 1:
          if (!t.loops.empty())
            eqv = divide_loop(eqv, choose(t.loops, c.rng), 2, {c.name("o"), c.name("n")},
                              {.tail = Tail::Cut});
          break;
        case 2:
          eqv = simplify(eqv);
          break;
        default:
          break;
      }
    } catch (const SchedulingError&) {
    }
    return call_eqv(p, call, eqv);
  });
  add("extract_subproc", [](const Proc& p, Ctx& c) {
    return extract_subproc(p, one_or_two(any(Targets(p).stmts, c.rng, "extract_subproc"), c.rng),
                           c.name("sub" + c.sfx + "_"))
        .proc;
  });
  add("delete_config", [](const Proc& p, Ctx& c) {
    return delete_config(p, any(Targets(p).config_writes, c.rng, "delete_config"));
  });
  add("write_config", [](const Proc& p, Ctx& c) {
    if (!c.cfg) no_target("write_config");
    Cursor gap = any(Targets(p).stmts, c.rng, "write_config").after();
    switch (pick(c.rng, 0, 2)) {
      case 0:
        return write_config(p, gap, c.cfg, "k",
                            choose(std::vector<std::string>{"0", "1", "3", "K"}, c.rng));
      case 1:
        return write_config(p, gap, c.cfg, "n", chance(c.rng, 50) ? "1" : "2");
      default:
        return write_config(p, gap, c.cfg, "v", chance(c.rng, 50) ? "1.0" : "2.0");
    }
  });
  add("bind_config", [](const Proc& p, Ctx& c) {
    if (!c.cfg) no_target("bind_config");
    Cursor e = any(Targets(p).exprs, c.rng, "bind_config");
    std::string field = is_float(e.expr().type().base) ? "v" : chance(c.rng, 50) ? "k" : "n";
    return bind_config(p, e, c.cfg, field);
  });
  add("set_window", [](const Proc& p, Ctx& c) {
    return set_window(p, choose(std::vector<std::string>{"A", "B"}, c.rng), true);
  });
  add("compute_at", [](const Proc& p, Ctx& c) {
    Cursor s = any(Targets(p).stmts, c.rng, "compute_at");
    if (!s.next().is_valid()) no_target("compute_at");
    return compute_at(p, s, s.next());
  });
  return s;
}

// The procs and configs `p` uses, so that its printed text parses back.
void callees(const Proc& p, ParseOptions& po) {
  struct V : IRVisitor {
    ParseOptions* po;
    std::set<const ProcNode*> seen;
    void add(const Config& c) {
      if (std::find(po->configs.begin(), po->configs.end(), c) == po->configs.end())
        po->configs.push_back(c);
    }
    void visit_Call(const CallNode* n, const Stmt& s) override {
      if (seen.insert(n->proc.get()).second) {
        visit_proc(*n->proc);
        po->procs.push_back(Proc(n->proc));
      }
      IRVisitor::visit_Call(n, s);
    }
    void visit_WriteConfig(const WriteConfigNode* n, const Stmt& s) override {
      add(n->config);
      IRVisitor::visit_WriteConfig(n, s);
    }
    void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
      add(n->config);
      IRVisitor::visit_ReadConfig(n, e);
    }
  } v;
  v.po = &po;
  v.visit_proc(*p.get());
}

std::string round_trip(const Proc& p) {
  ParseOptions po;
  callees(p, po);
  std::string printed = to_string(p);
  try {
    Module m = parse_module(printed, po);
    std::string again = to_string(m.procs.back());
    if (again != printed)
      return "print/parse round trip differs:\n" + printed + "--- reparsed:\n" + again;
  } catch (const Error& e) {
    return std::string("the printed proc does not parse back: ") + e.what() + "\n" + printed;
  }
  return "";
}

}  // namespace

Options ci_options() {
  // Everything the soak program generates: no feature or operation is excluded.
  Options o;
  return o;
}

std::string generate_source(uint64_t seed, const Features& f) {
  return Generator(seed, f).module();
}

std::vector<std::string> operation_names() {
  std::vector<std::string> out;
  for (const auto& [n, f] : all_steps()) out.push_back(n);
  return out;
}

SeedResult run_seed(uint64_t seed, const Options& opts) {
  static const auto steps = all_steps();
  std::vector<const std::pair<std::string, StepFn>*> enabled;
  for (const auto& s : steps)
    if (!opts.excluded_ops.count(s.first)) enabled.push_back(&s);
  SeedResult r;
  r.source = generate_source(seed, opts.features);
  Ctx c{{}, nullptr, "_" + std::to_string(seed), Rng(seed ^ 0x5DEECE66Dull)};
  try {
    c.m = parse_module(r.source);
  } catch (const Error& e) {
    r.failures.push_back(
        {seed, std::string("the generated module does not parse: ") + e.what() + "\n" + r.source});
    return r;
  }
  if (!c.m.configs.empty()) c.cfg = c.m.configs.front();
  Proc cur = c.m.procs.back();
  const Proc original = cur;
  auto fail = [&](const std::string& what) {
    std::string trace;
    for (const std::string& t : r.trace) trace += " " + t;
    r.failures.push_back(
        {seed, what + "\n  steps before:" + trace + "\n  generated module:\n" + r.source});
  };
  for (int k = 0; k < opts.steps && !enabled.empty(); ++k) {
    const auto& [name, step] = *choose(enabled, c.rng);
    Proc next;
    try {
      next = step(cur, c);
    } catch (const SchedulingError&) {
      ++r.refused;
      continue;
    } catch (const std::exception& e) {
      fail(name + " threw a non-scheduling error: " + e.what() + "\nproc:\n" + to_string(cur));
      break;
    }
    ++r.accepted;
    std::string d;
    try {
      d = validate_step(name, cur, next, seed * 64 + static_cast<uint64_t>(k));
    } catch (const std::exception& e) {
      d = std::string("the comparison threw: ") + e.what();
    }
    ++r.compared;
    if (d.empty()) d = round_trip(next);
    if (!d.empty()) {
      fail("accepted step " + name + ": " + d);
      break;
    }
    r.trace.push_back(name);
    cur = next;
  }
  bool config_ops = false;
  for (const std::string& t : r.trace)
    config_ops |= t == "delete_config" || t == "write_config" || t == "bind_config";
  if (r.failures.empty() && r.accepted > 1 && !config_ops) {
    std::string d = validate_step("the whole schedule", original, cur, seed * 64 + 63);
    if (!d.empty()) fail(d);
  }
  r.final_proc = cur;
  return r;
}

std::vector<Failure> compile_and_compare(const std::vector<std::pair<uint64_t, Proc>>& procs,
                                         int* compiled) {
  std::vector<Failure> failures;
  std::vector<std::pair<uint64_t, Proc>> ok;
  for (const auto& sp : procs) {
    try {
      compile_procs_to_c({sp.second}, "soak_check");
      ok.push_back(sp);
    } catch (const CodegenError&) {
      // a located refusal is fine
    } catch (const std::exception& e) {
      failures.push_back({sp.first, std::string("emitting C threw a non-codegen error: ") +
                                        e.what() + "\n" + to_string(sp.second)});
    }
  }
  if (ok.empty()) return failures;
  std::vector<Proc> ps;
  for (const auto& sp : ok) ps.push_back(sp.second);
  std::unique_ptr<CompiledLibrary> lib;
  try {
    lib = std::make_unique<CompiledLibrary>(ps, "soak_batch");
  } catch (const std::exception& e) {
    // Find which proc's C does not compile.
    for (const auto& sp : ok) {
      try {
        CompiledLibrary one({sp.second}, "soak_one");
      } catch (const std::exception& e1) {
        failures.push_back({sp.first, std::string("the emitted C does not compile: ") + e1.what() +
                                          "\n" + to_string(sp.second)});
      }
    }
    if (failures.empty())
      failures.push_back(
          {ok.front().first, std::string("the batch does not compile: ") + e.what()});
    return failures;
  }
  for (const auto& [seed, p] : ok) {
    if (compiled) ++*compiled;
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<ArgValue> args;
      RandomArgsOptions ro;
      ro.max_size = trial == 0 ? 1 : trial == 1 ? 3 : 9;
      ro.max_tries = 60;
      ro.real_as = ScalarKind::F32;
      try {
        args = random_args(p, {}, seed * 4 + static_cast<uint64_t>(trial), ro);
      } catch (const Error&) {
        continue;
      }
      if (trial == 1) {  // integer data near its limits
        Rng r(seed + 7);
        for (ArgValue& v : args)
          if (Buffer* b = std::get_if<Buffer>(&v)) {
            if (!is_int_precision(b->kind())) continue;
            const auto [lo, hi] = int_precision_limits(b->kind());
            for (int64_t i = 0; i < b->num_elements(); ++i)
              b->set_flat(
                  i, static_cast<double>(chance(r, 50) ? hi - pick(r, 0, 2) : lo + pick(r, 0, 2)));
          }
      }
      std::vector<ArgValue> copy = deep_copy(args);
      try {
        InterpOptions io;
        io.real_as = ScalarKind::F32;
        io.max_steps = 1000000;
        interpret(p, args, io);
      } catch (const Error&) {
        continue;  // not defined on these inputs
      }
      try {
        lib->call(p.name(), copy);
      } catch (const std::exception& e) {
        failures.push_back(
            {seed, std::string("the compiled code failed where the interpreter runs: ") + e.what() +
                       "\n" + to_string(p)});
        break;
      }
      // NaN in both runs is agreement: generated float values can overflow to inf and meet
      // inf - inf. (Unwritten memory the C reads holds garbage, not NaN, and is still caught.)
      CompareOptions same_nan;
      same_nan.nan_equal = true;
      std::string d = compare_args(p, args, copy, same_nan);
      if (!d.empty()) {
        std::string ctl;
        for (size_t i = 0; i < args.size(); ++i)
          if (!std::holds_alternative<Buffer>(args[i]))
            ctl += " " + p.args()[i].name.name() + " = " + to_string(args[i]);
        failures.push_back(
            {seed, "emitted C differs from the interpreter (" +
                       std::string(trial == 1 ? "integer data near its limits, " : "") +
                       "inputs seed " + std::to_string(seed * 4 + static_cast<uint64_t>(trial)) +
                       ":" + ctl + "): " + d + "\n" + to_string(p)});
        break;
      }
    }
  }
  return failures;
}

}  // namespace exocpp::fuzz
