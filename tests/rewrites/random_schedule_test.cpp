// Randomized soundness test of the scheduling operations: random sequences of operations on
// random small procs. Every accepted step must preserve the interpreter result (compare_procs
// against the original proc) and print/parse back to the same text; a refused step
// (SchedulingError) is fine; anything else (another exception, an InternalError, a crash) is a
// bug. The seed is fixed; EXOCPP_RANDOM_SCHEDULE_N sets the number of procs (default 150).
#include <cstdlib>
#include <functional>
#include <map>
#include <random>

#include "rewrite_test_util.h"
#include "rewrites/stmts.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/loops.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// ---- random procs ----------------------------------------------------------------------------

class ProcGen {
 public:
  explicit ProcGen(uint32_t seed) : rng_(seed) {}

  std::string proc() {
    std::string s = "def f(N: size, A: f32[N + 2] @ DRAM, B: f32[N + 2] @ DRAM, s: f32 @ DRAM):\n";
    int n = pick(1, 3);
    for (int k = 0; k < n; ++k) s += stmt(1, {}, 2);
    return s;
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  std::string pad(int depth) { return std::string(static_cast<size_t>(4 * depth), ' '); }

  std::string index(const std::vector<std::string>& iters) {
    if (iters.empty()) return std::to_string(pick(0, 1));
    const std::string& i = iters[static_cast<size_t>(pick(0, static_cast<int>(iters.size()) - 1))];
    switch (pick(0, 3)) {
      case 0: return i + " + 1";
      case 1: return i + " + 0";
      default: return i;
    }
  }
  std::string leaf(const std::vector<std::string>& iters) {
    switch (pick(0, 4)) {
      case 0: return "A[" + index(iters) + "]";
      case 1: return "B[" + index(iters) + "]";
      case 2: return "s";
      case 3: return pick(0, 1) ? "2.0" : "0.0";
      default: return visible_.empty() ? "1.0" : visible_[static_cast<size_t>(pick(0, static_cast<int>(visible_.size()) - 1))];
    }
  }
  // Sums of leaves and of leaves scaled by a constant (no product of two reads: values must stay
  // small integers, exact in f32 whatever the evaluation order).
  std::string rhs(const std::vector<std::string>& iters, int depth = 0) {
    if (depth >= 2 || pick(0, 2) == 0) {
      if (pick(0, 2) == 0) return (pick(0, 1) ? "2.0 * " : "0.5 * ") + leaf(iters);
      return leaf(iters);
    }
    const char* ops[] = {" + ", " - "};
    std::string l = rhs(iters, depth + 1), r = rhs(iters, depth + 1);
    if (pick(0, 1)) r = "(" + r + ")";
    return l + ops[pick(0, 1)] + r;
  }
  std::string target(const std::vector<std::string>& iters) {
    switch (pick(0, 3)) {
      case 0: return "s";
      case 1: return "B[" + index(iters) + "]";
      default: return "A[" + index(iters) + "]";
    }
  }

  std::string stmt(int depth, std::vector<std::string> iters, int budget, int force = -1) {
    int kind = force >= 0 ? force : budget > 0 ? pick(0, 9) : pick(0, 3);
    std::string p = pad(depth);
    switch (kind) {
      case 0: return p + target(iters) + " = " + rhs(iters) + "\n";
      case 1: return p + target(iters) + " += " + rhs(iters) + "\n";
      case 2: return p + "pass\n";
      case 3: {
        std::string t = "t" + std::to_string(locals_++);
        std::string out = p + t + ": f32 @ DRAM\n" + p + t + " = " + rhs(iters) + "\n";
        visible_.push_back(t);
        out += p + target(iters) + " += " + (pick(0, 1) ? "2.0 * " : "") + t + "\n";
        return out;
      }
      case 4:
      case 5: {
        std::string i = "i" + std::to_string(loops_++);
        std::string lo = pick(0, 3) == 0 ? "N" : "0";
        std::string hi = pick(0, 3) == 0 ? "2" : "N";  // constant bounds can be unrolled
        if (hi == "2") lo = "0";
        if (lo == "N" && budget > 1 && pick(0, 1)) lo = "0";
        std::string out = p + "for " + i + " in seq(" + lo + ", " + hi + "):\n";
        iters.push_back(i);
        if (budget > 1 && pick(0, 2) == 0) {  // a perfect nest (tile2d, reorder_loops)
          size_t saved = visible_.size();
          out += stmt(depth + 1, iters, budget - 1, 4);
          visible_.resize(saved);
          return out;
        }
        int n = pick(1, 3);
        size_t saved = visible_.size();
        for (int k = 0; k < n; ++k) out += stmt(depth + 1, iters, budget - 1);
        visible_.resize(saved);
        return out;
      }
      case 8: {  // an accumulation with a constant factor (lift_reduce_constant)
        std::string i = "i" + std::to_string(loops_++);
        std::string x = pick(0, 1) ? "s" : "B[" + index(iters) + "]";
        std::string c = pick(0, 1) ? "2.0" : "0.5";
        std::string out = p + x + " = 0.0\n" + p + "for " + i + " in seq(0, N):\n";
        iters.push_back(i);
        out += pad(depth + 1) + x + " += " + c + " * " + leaf(iters) + "\n";
        if (pick(0, 1)) out += pad(depth + 1) + x + " += " + c + " * " + leaf(iters) + "\n";
        return out;
      }
      case 9: {  // an accumulating assignment (fold_into_reduce, split_write, merge_writes)
        std::string x = target(iters);
        std::string out = p + x + " = " + x + " + " + rhs(iters) + "\n";
        if (pick(0, 1)) out += p + x + (pick(0, 1) ? " += " : " = ") + rhs(iters) + "\n";
        return out;
      }
      default: {
        std::string cond = iters.empty() ? (pick(0, 1) ? "N > 2" : "N < 1")
                                         : iters.back() + (pick(0, 1) ? " < N" : " < 2");
        std::string out = p + "if " + cond + ":\n";
        size_t saved = visible_.size();
        out += stmt(depth + 1, iters, budget - 1);
        visible_.resize(saved);
        if (pick(0, 1)) {
          out += p + "else:\n" + stmt(depth + 1, iters, budget - 1);
          visible_.resize(saved);
        }
        return out;
      }
    }
  }

  std::mt19937 rng_;
  int locals_ = 0;
  std::vector<std::string> visible_;
  int loops_ = 0;
};

// ---- random targets --------------------------------------------------------------------------

void collect(const Cursor& block, std::vector<Cursor>& stmts, std::vector<Cursor>& blocks) {
  blocks.push_back(block);
  for (int i = 0; i < block.size(); ++i) {
    Cursor s = block[i];
    stmts.push_back(s);
    StmtKind k = s.stmt().kind();
    if (k == StmtKind::For || k == StmtKind::If) collect(s.body(), stmts, blocks);
    if (k == StmtKind::If && s.orelse().is_valid()) collect(s.orelse(), stmts, blocks);
  }
}

void collect_exprs(const Cursor& c, std::vector<Cursor>& out) {
  for (int i = 0; i < c.num_children(); ++i) {
    Cursor e = c.child(i);
    out.push_back(e);
    collect_exprs(e, out);
  }
}

struct Targets {
  std::vector<Cursor> stmts, blocks, exprs;
  explicit Targets(const Proc& p) {
    collect(p.body_cursor(), stmts, blocks);
    for (const Cursor& s : stmts) collect_exprs(s, exprs);
  }
};

using Step = std::function<Proc(const Proc&, std::mt19937&)>;

template <class T>
const T& choose(const std::vector<T>& v, std::mt19937& rng) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

Cursor any_stmt(const Proc& p, std::mt19937& rng) { return choose(Targets(p).stmts, rng); }
Cursor any_expr(const Proc& p, std::mt19937& rng) {
  Targets t(p);
  if (t.exprs.empty()) return any_stmt(p, rng);  // refused: not an expression
  return choose(t.exprs, rng);
}

std::vector<std::pair<std::string, Step>> steps() {
  return {
      {"insert_pass", [](const Proc& p, std::mt19937& r) { return insert_pass(p, any_stmt(p, r)); }},
      {"delete_pass", [](const Proc& p, std::mt19937&) { return delete_pass(p); }},
      {"reorder_stmts", [](const Proc& p, std::mt19937& r) { return reorder_stmts(p, any_stmt(p, r)); }},
      {"parallelize_loop", [](const Proc& p, std::mt19937& r) { return parallelize_loop(p, any_stmt(p, r)); }},
      {"commute_expr", [](const Proc& p, std::mt19937& r) { return commute_expr(p, {any_expr(p, r)}); }},
      {"left_reassociate_expr",
       [](const Proc& p, std::mt19937& r) { return left_reassociate_expr(p, any_expr(p, r)); }},
      {"rewrite_expr",
       [](const Proc& p, std::mt19937& r) {
         static const std::vector<std::string> forms = {"0", "1", "N", "N - 1", "i0", "i0 + 1", "i1", "N + 0", "True"};
         return rewrite_expr(p, any_expr(p, r), choose(forms, r));
       }},
      {"merge_writes", [](const Proc& p, std::mt19937& r) { return merge_writes(p, any_stmt(p, r)); }},
      {"split_write", [](const Proc& p, std::mt19937& r) { return split_write(p, any_stmt(p, r)); }},
      {"fold_into_reduce", [](const Proc& p, std::mt19937& r) { return fold_into_reduce(p, any_stmt(p, r)); }},
      {"inline_assign", [](const Proc& p, std::mt19937& r) { return inline_assign(p, any_stmt(p, r)); }},
      {"lift_reduce_constant",
       [](const Proc& p, std::mt19937& r) {
         Targets t(p);
         Cursor b = choose(t.blocks, r);
         int lo = std::uniform_int_distribution<int>(0, b.size() - 1)(r);
         return lift_reduce_constant(p, b.slice(lo, std::min(b.size(), lo + 2)));
       }},
      {"eliminate_dead_code",
       [](const Proc& p, std::mt19937& r) { return eliminate_dead_code(p, any_stmt(p, r)); }},
      {"simplify", [](const Proc& p, std::mt19937&) { return simplify(p); }},
      {"divide_loop",
       [](const Proc& p, std::mt19937& r) {
         static const Tail tails[] = {Tail::Guard, Tail::Cut, Tail::CutAndGuard};
         int q = std::uniform_int_distribution<int>(2, 3)(r);
         std::string n = std::to_string(r() % 100000);
         return divide_loop(p, any_stmt(p, r), q, {"o" + n, "n" + n}, {.tail = tails[r() % 3], .perfect = r() % 4 == 0});
       }},
      {"reorder_loops", [](const Proc& p, std::mt19937& r) { return reorder_loops(p, any_stmt(p, r)); }},
      {"fission", [](const Proc& p, std::mt19937& r) { return fission(p, any_stmt(p, r)); }},
      {"fuse",
       [](const Proc& p, std::mt19937& r) {
         Cursor s = any_stmt(p, r);
         Cursor n = s.next();
         return fuse(p, s, n.is_valid() ? n : s);
       }},
      {"remove_loop", [](const Proc& p, std::mt19937& r) { return remove_loop(p, any_stmt(p, r)); }},
      {"unroll_loop", [](const Proc& p, std::mt19937& r) { return unroll_loop(p, any_stmt(p, r)); }},
      {"lift_scope", [](const Proc& p, std::mt19937& r) { return lift_scope(p, any_stmt(p, r)); }},
      {"cut_loop", [](const Proc& p, std::mt19937& r) { return cut_loop(p, any_stmt(p, r), r() % 2 ? "1" : "N - 1"); }},
      {"shift_loop", [](const Proc& p, std::mt19937& r) { return shift_loop(p, any_stmt(p, r), r() % 2 ? "1" : "0"); }},
      {"tile2d",
       [](const Proc& p, std::mt19937& r) {
         std::string n = std::to_string(r() % 100000);
         return tile2d(p, any_stmt(p, r), {2, 3}, {"a" + n, "b" + n, "c" + n, "d" + n}, {.perfect = r() % 4 == 0});
       }},
      {"lift_alloc", [](const Proc& p, std::mt19937& r) { return lift_alloc(p, any_stmt(p, r)); }},
      {"sink_alloc", [](const Proc& p, std::mt19937& r) { return sink_alloc(p, any_stmt(p, r)); }},
      {"autolift_alloc", [](const Proc& p, std::mt19937& r) { return autolift_alloc(p, any_stmt(p, r)); }},
      {"delete_buffer", [](const Proc& p, std::mt19937& r) { return delete_buffer(p, any_stmt(p, r)); }},
      {"compute_at",
       [](const Proc& p, std::mt19937& r) {
         Cursor s = any_stmt(p, r);
         Cursor n = s.next();
         return compute_at(p, s, n.is_valid() ? n : s);
       }},
  };
}

int iterations() {
  const char* env = std::getenv("EXOCPP_RANDOM_SCHEDULE_N");
  if (env && std::atoi(env) > 0) return std::atoi(env);
  return 600;
}

TEST(RandomSchedule, AcceptedStepsPreserveResults) {
  auto ops = steps();
  std::mt19937 rng(20261122);
  int accepted = 0, refused = 0;
  std::map<std::string, int> accepted_by_op;
  const int n = iterations();
  CompareProcsOptions compare_opts;
  compare_opts.inputs.max_size = 4;  // small sizes keep every value a small exact integer
  compare_opts.inputs.lo = -2;
  compare_opts.inputs.hi = 2;
  for (int k = 0; k < n; ++k) {
    ProcGen gen(static_cast<uint32_t>(rng()));
    std::string src = gen.proc();
    Proc original;
    try {
      original = parse_proc(src);
    } catch (const Error& e) {
      ADD_FAILURE() << "generated proc does not parse: " << e.what() << "\n" << src;
      continue;
    }
    Proc cur = original;
    std::string trace;
    for (int s = 0; s < 8; ++s) {
      const auto& [name, step] = choose(ops, rng);
      Proc next;
      try {
        next = step(cur, rng);
      } catch (const SchedulingError&) {
        ++refused;
        continue;
      } catch (const std::exception& e) {
        FAIL() << name << " threw a non-scheduling error: " << e.what() << "\nproc:\n" << cur << "\ntrace:" << trace;
      }
      ++accepted;
      ++accepted_by_op[name];
      trace += " " + name;
      std::string diff = compare_procs(original, next, {}, 1, compare_opts);
      ASSERT_EQ(diff, "") << "after" << trace << "\noriginal:\n" << original << "\nresult:\n" << next;
      std::string printed = to_string(next);
      Module m = parse_module(printed);
      ASSERT_EQ(to_string(m.procs.back()), printed) << "after" << trace;
      cur = next;
    }
  }
  EXPECT_GT(accepted, n);  // the test exercises the operations, not only their refusals
  std::cout << "[ random schedule ] " << accepted << " accepted steps, " << refused << " refused;";
  for (const auto& [name, count] : accepted_by_op) std::cout << " " << name << "=" << count;
  std::cout << "\n";
}

}  // namespace
