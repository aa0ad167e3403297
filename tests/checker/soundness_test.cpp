// Soundness property test: random small loop programs (2-3 nested loops or two sibling loops,
// concrete small bounds, random quasi-affine accesses to 1-2 buffers). Every query's answer is
// compared with brute-force enumeration of all iterations: the checker must never say
// "proved" where enumeration finds a conflict, and may say refuted/unknown where there is none
// only rarely. Runs EXOCPP_SOUNDNESS_N programs (default 2000) from EXOCPP_SOUNDNESS_SEED on
// EXOCPP_SOUNDNESS_THREADS threads (default: the cores, at most 8).
#include <cstdlib>
#include <iostream>
#include <map>
#include <thread>

#include "tests/checker/checker_test_util.h"
#include "tests/checker/soundness_gen.h"

namespace exocpp::checker::soundness {
namespace {

using testing::expr_in;

long env_or(const char* name, long dflt) {
  const char* v = std::getenv(name);
  return v && *v ? std::atol(v) : dflt;
}

struct Tally {
  long queries = 0, proved = 0, refuted = 0, unknown = 0;
  long unsound = 0;    // proved, but enumeration finds a conflict
  long imprecise = 0;  // refuted or unknown, but enumeration finds none
  std::vector<std::string> reports;
};

void record(Tally& t, const std::string& what, const Answer& a, bool conflict,
            const std::string& src) {
  ++t.queries;
  if (a.proved()) ++t.proved;
  if (a.refuted()) ++t.refuted;
  if (a.unknown()) ++t.unknown;
  if (a.proved() && conflict) {
    ++t.unsound;
    if (t.reports.size() < 5) t.reports.push_back("UNSOUND " + what + "\n" + src);
  }
  if (!a.proved() && !conflict) {
    ++t.imprecise;
    if (t.reports.size() < 5)
      t.reports.push_back("imprecise " + what + ": " + to_string(a) + "\n" + src);
  }
}

// Events grouped by location, so that only accesses of one location are paired.
struct Trace {
  std::vector<Event> events;
  std::map<std::pair<int, std::vector<long>>, std::vector<size_t>> by_loc;
  explicit Trace(std::vector<Event> ev) : events(std::move(ev)) {
    for (size_t k = 0; k < events.size(); ++k) by_loc[{events[k].buf, events[k].loc}].push_back(k);
  }
  // Some ordered pair (a before b in time) satisfies `pred` (conflict is the caller's test).
  template <class P>
  bool any_pair(P pred) const {
    for (const auto& [loc, ks] : by_loc)
      for (size_t x = 0; x < ks.size(); ++x)
        for (size_t y = x + 1; y < ks.size(); ++y)
          if (pred(events[ks[x]], events[ks[y]])) return true;
    return false;
  }
};

bool same_vars(const Event& a, const Event& b, const std::vector<int>& vars) {
  for (int v : vars)
    if (a.env[static_cast<size_t>(v)] != b.env[static_cast<size_t>(v)]) return false;
  return true;
}

long at(const Event& e, int var) { return e.env[static_cast<size_t>(var)]; }

// The index of the child of `body` holding `e`, or -1.
int child_of(const Event& e, const std::vector<GStmt>& body) {
  for (size_t k = 0; k < body.size(); ++k)
    if (under(e, &body[k])) return static_cast<int>(k);
  return -1;
}

void map_stmts(const std::vector<GStmt>& g, const Block& b, std::map<const GStmt*, Stmt>& m) {
  for (size_t k = 0; k < g.size() && k < b.size(); ++k) {
    m[&g[k]] = b[k];
    if (g[k].kind == GStmt::Loop) map_stmts(g[k].body, b[k].as<ForNode>()->body, m);
  }
}

struct LoopAt {
  const GStmt* loop;
  std::vector<int> outer;  // variables of the loops around it
};

void loops_of(const std::vector<GStmt>& body, std::vector<int> outer, std::vector<LoopAt>& out) {
  for (const GStmt& s : body) {
    if (s.kind != GStmt::Loop) continue;
    out.push_back({&s, outer});
    std::vector<int> inner = outer;
    inner.push_back(s.var);
    loops_of(s.body, inner, out);
  }
}

bool mentions_var(const IExpr& e, int var) {
  if (e.kind == IExpr::Var) return e.var == var;
  return (e.a && mentions_var(*e.a, var)) || (e.b && mentions_var(*e.b, var));
}

void loop_queries(const GProgram& g, const Proc& p, const Trace& tr,
                  const std::map<const GStmt*, Stmt>& ir, const LoopAt& la, std::mt19937_64& rng,
                  Tally& t, const std::string& src) {
  const GStmt& L = *la.loop;
  const Stmt& ls = ir.at(&L);
  Context ctx = Context::at(p, ls);
  const std::string name = g.var_names[static_cast<size_t>(L.var)];
  auto in_L = [&](const Event& a, const Event& b) {
    return under(a, &L) && under(b, &L) && same_vars(a, b, la.outer);
  };
  for (bool rc : {true, false}) {
    bool truth = tr.any_pair([&](const Event& a, const Event& b) {
      return in_L(a, b) && at(a, L.var) != at(b, L.var) && conflict(a, b, rc);
    });
    Answer ans = rc ? loop_iterations_commute(ctx, ls) : loop_is_parallelizable(ctx, ls);
    record(t, std::string(rc ? "loop_iterations_commute " : "loop_is_parallelizable ") + name, ans,
           truth, src);
  }
  // Interchange with the single inner loop.
  if (L.body.size() == 1 && L.body[0].kind == GStmt::Loop && !mentions_var(*L.body[0].lo, L.var) &&
      !mentions_var(*L.body[0].hi, L.var)) {
    int J = L.body[0].var;
    bool truth = tr.any_pair([&](const Event& a, const Event& b) {
      if (!in_L(a, b) || !conflict(a, b, true)) return false;
      return (at(a, L.var) < at(b, L.var) && at(a, J) > at(b, J)) ||
             (at(b, L.var) < at(a, L.var) && at(b, J) > at(a, J));
    });
    record(t, "loops_can_interchange " + name, loops_can_interchange(ctx, ls), truth, src);
  }
  // Fission at every gap; commuting of neighbouring statements of the body.
  std::vector<int> with_L = la.outer;
  with_L.push_back(L.var);
  for (size_t gap = 1; gap < L.body.size(); ++gap) {
    bool truth = tr.any_pair([&](const Event& a, const Event& b) {
      if (!in_L(a, b) || !conflict(a, b, true)) return false;
      int ca = child_of(a, L.body), cb = child_of(b, L.body);
      // `after` part at an earlier iteration than the `before` part.
      auto bad = [&](const Event& after, int c_after, const Event& before, int c_before) {
        return c_after >= static_cast<int>(gap) && c_before < static_cast<int>(gap) &&
               at(after, L.var) < at(before, L.var);
      };
      return bad(a, ca, b, cb) || bad(b, cb, a, ca);
    });
    record(t, "can_fission " + name + " at " + std::to_string(gap), can_fission(ctx, ls, gap),
           truth, src);
    const Stmt& s1 = ir.at(&L.body[gap - 1]);
    const Stmt& s2 = ir.at(&L.body[gap]);
    bool truth_c = tr.any_pair([&](const Event& a, const Event& b) {
      if (!under(a, &L) || !under(b, &L) || !same_vars(a, b, with_L) || !conflict(a, b, true))
        return false;
      int ca = child_of(a, L.body), cb = child_of(b, L.body);
      return (ca == static_cast<int>(gap) - 1 && cb == static_cast<int>(gap)) ||
             (cb == static_cast<int>(gap) - 1 && ca == static_cast<int>(gap));
    });
    record(t, "stmts_commute in " + name + " at " + std::to_string(gap),
           stmts_commute(Context::at(p, s1), s1, s2), truth_c, src);
  }
  // A random window over the loop's accesses of one buffer.
  std::uniform_int_distribution<int> pick(0, 99);
  int buf = g.nbufs == 2 ? pick(rng) % 2 : 0;
  std::vector<IExprP> lo, hi;
  std::string wtext = buf == 0 ? "x[" : "y[";
  for (int d = 0; d < g.ranks[buf]; ++d) {
    auto e = std::make_shared<IExpr>();
    long l = 0, w = 0;
    int r = pick(rng);
    if (r < 30) {
      l = -40;
      w = 140;
    } else {
      l = pick(rng) % 4;
      w = 2 + pick(rng) % 8;
    }
    auto lo_e = std::make_shared<IExpr>();
    lo_e->kind = IExpr::Const;
    lo_e->value = l;
    IExprP lo_p = lo_e;
    if (!la.outer.empty() && pick(rng) < 40) {  // offset by an enclosing iterator
      auto v = std::make_shared<IExpr>();
      v->kind = IExpr::Var;
      v->var = la.outer.back();
      auto sum = std::make_shared<IExpr>();
      sum->kind = IExpr::Add;
      sum->a = lo_p;
      sum->b = v;
      lo_p = sum;
    }
    auto hi_e = std::make_shared<IExpr>();
    hi_e->kind = IExpr::Add;
    hi_e->a = lo_p;
    auto wc = std::make_shared<IExpr>();
    wc->kind = IExpr::Const;
    wc->value = w;
    hi_e->b = wc;
    lo.push_back(lo_p);
    hi.push_back(hi_e);
    std::string lt = l < 0 ? "(0 - " + std::to_string(-l) + ")" : std::to_string(l);
    std::string lo_text =
        lo_p->kind == IExpr::Const
            ? lt
            : "(" + lt + " + " + g.var_names[static_cast<size_t>(la.outer.back())] + ")";
    wtext += (d ? ", " : "") + lo_text + ":" + lo_text + " + " + std::to_string(w);
  }
  wtext += "]";
  bool outside = false;
  for (const Event& e : tr.events) {
    if (!under(e, &L) || e.buf != buf) continue;
    for (size_t d = 0; d < lo.size(); ++d)
      if (e.loc[d] < eval(*lo[d], e.env) || e.loc[d] >= eval(*hi[d], e.env)) outside = true;
  }
  Expr w = expr_in(ctx, wtext, true);
  record(t, "window_covers " + wtext + " for " + name, window_covers(ctx, w, Block{ls}), outside,
         src);
}

void sibling_queries(const GProgram& g, const Proc& p, const Trace& tr,
                     const std::map<const GStmt*, Stmt>& ir, Tally& t, const std::string& src) {
  const GStmt& A = g.body[0];
  const GStmt& B = g.body[1];
  const Stmt& as = ir.at(&A);
  const Stmt& bs = ir.at(&B);
  Context ctx = Context::at(p, as);
  std::vector<long> none(g.var_names.size(), -999);
  bool same_bounds =
      eval(*A.lo, none) == eval(*B.lo, none) && eval(*A.hi, none) == eval(*B.hi, none);
  bool truth = !same_bounds || tr.any_pair([&](const Event& a, const Event& b) {
    // a (first loop, iteration a) runs before b (second loop, iteration b); fused, b's
    // iteration runs first when it is smaller.
    return under(a, &A) && under(b, &B) && at(b, B.var) < at(a, A.var) && conflict(a, b, true);
  });
  record(t, "can_fuse", can_fuse(ctx, as, bs), truth, src);
  bool truth_c = tr.any_pair([&](const Event& a, const Event& b) {
    return ((under(a, &A) && under(b, &B)) || (under(a, &B) && under(b, &A))) &&
           conflict(a, b, true);
  });
  record(t, "stmts_commute of the two loops", stmts_commute(ctx, as, bs), truth_c, src);
}

// Checks programs first, first + stride, ... below n; each program has its own generator seeded
// from (seed, its number), so the set of programs does not depend on the number of threads.
void check_programs(long first, long stride, long n, long seed, Tally& t, std::string& error) {
  for (long k = first; k < n; k += stride) {
    std::mt19937_64 rng(static_cast<uint64_t>(seed) * 1000003u + static_cast<uint64_t>(k));
    bool siblings = k % 4 == 3;
    GProgram g = siblings ? random_siblings(rng) : random_nest(rng);
    std::string src = g.source();
    Proc p;
    try {
      p = testing::parse_proc(src);
    } catch (const Error& e) {
      error = "generated program does not parse: " + std::string(e.what()) + "\n" + src;
      return;
    }
    std::map<const GStmt*, Stmt> ir;
    map_stmts(g.body, p.body(), ir);
    Trace tr(enumerate(g));
    std::vector<LoopAt> loops;
    loops_of(g.body, {}, loops);
    for (const LoopAt& la : loops) loop_queries(g, p, tr, ir, la, rng, t, src);
    if (siblings) sibling_queries(g, p, tr, ir, t, src);
  }
}

TEST(Soundness, RandomProgramsAgreeWithEnumeration) {
  long n = env_or("EXOCPP_SOUNDNESS_N", 2000);
  long seed = env_or("EXOCPP_SOUNDNESS_SEED", 20261122);
  long threads = env_or("EXOCPP_SOUNDNESS_THREADS",
                        std::max(1u, std::min(8u, std::thread::hardware_concurrency())));
  // One Z3 context per thread: the programs are checked in parallel.
  std::vector<Tally> tallies(static_cast<size_t>(threads));
  std::vector<std::string> errors(static_cast<size_t>(threads));
  std::vector<double> z3_seconds(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (long w = 0; w < threads; ++w)
    pool.emplace_back([&, w] {
      check_programs(w, threads, n, seed, tallies[static_cast<size_t>(w)],
                     errors[static_cast<size_t>(w)]);
      z3_seconds[static_cast<size_t>(w)] = solver_stats().solver_cpu_seconds;
    });
  for (std::thread& th : pool) th.join();
  Tally t;
  double z3 = 0;
  for (size_t w = 0; w < tallies.size(); ++w) {
    ASSERT_EQ(errors[w], "");
    const Tally& x = tallies[w];
    t.queries += x.queries;
    t.proved += x.proved;
    t.refuted += x.refuted;
    t.unknown += x.unknown;
    t.unsound += x.unsound;
    t.imprecise += x.imprecise;
    t.reports.insert(t.reports.end(), x.reports.begin(), x.reports.end());
    z3 += z3_seconds[w];
  }
  double rate = t.queries ? static_cast<double>(t.imprecise) / static_cast<double>(t.queries) : 0;
  std::cout << "[soundness] programs " << n << ", queries " << t.queries << ": proved " << t.proved
            << ", refuted " << t.refuted << ", unknown " << t.unknown << "; unsound " << t.unsound
            << "; refuted/unknown without a "
            << "conflict " << t.imprecise << " (" << 100.0 * rate << "%)\n";
  std::cout << "[soundness] " << threads << " threads, Z3 CPU time " << z3 << " s\n";
  for (const std::string& r : t.reports) std::cout << r << "\n";
  ::testing::Test::RecordProperty("queries", std::to_string(t.queries));
  ::testing::Test::RecordProperty("imprecise", std::to_string(t.imprecise));
  EXPECT_EQ(t.unsound, 0);
  EXPECT_LE(rate, 0.01);
  EXPECT_GT(t.proved, t.queries / 10);  // the programs exercise both answers
  EXPECT_GT(t.refuted, t.queries / 10);
}

}  // namespace
}  // namespace exocpp::checker::soundness
