// Soundness of the checker's queries on the effects of issue 11: config fields read in loop
// bounds, indices and window statements and written in bodies and callees; window statements;
// calls with window arguments. Random small programs; for each query the checker proves, the
// transformed program it licenses (statements swapped, loop reversed, loop split, loops fused,
// loops interchanged) is built and run against the original on EVERY input of a small domain
// (N in 1..4, initial config values 0..3): brute-force enumeration through the interpreter. A
// proved query whose transformed program differs on some input is unsound.
// EXOCPP_SOUNDNESS_EFFECTS_N programs (default 1000) from EXOCPP_SOUNDNESS_SEED.
#include <exocpp/exocpp.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <random>

#include "tests/checker/checker_test_util.h"

namespace exocpp::checker::soundness {
namespace {

using Rng = std::mt19937_64;
int pick(Rng& r, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(r); }
bool chance(Rng& r, int pct) { return pick(r, 0, 99) < pct; }

long env_or(const char* name, long dflt) {
  const char* v = std::getenv(name);
  return v && *v ? std::atol(v) : dflt;
}

const char* kHeader = R"(config C:
    k: index
    n: index

def g(j: index, z: [f32][8] @ DRAM):
    assert j >= 0
    assert j < 4
    z[j] = z[j + 1] + 1.0

def q():
    C.k = 2

def h(z: [f32][4] @ DRAM):
    z[C.k] += 2.0

)";

// A statement as lines (without indentation) so that it can be re-indented.
using Lines = std::vector<std::string>;

struct Loop {
  std::string iter, lo, hi;
  std::vector<Lines> body;  // statements
};

// A top-level statement: a loop (possibly a perfect 2-nest) or one simple statement.
struct Top {
  bool is_loop = false;
  Loop loop;
  Lines simple;
};

Lines indent(const Lines& l) {
  Lines out;
  for (const std::string& s : l) out.push_back("    " + s);
  return out;
}

Lines loop_lines(const std::string& kind, const Loop& L) {
  Lines out = {"for " + L.iter + " in " + kind + "(" + L.lo + ", " + L.hi + "):"};
  for (const Lines& s : L.body)
    for (const std::string& x : indent(s)) out.push_back(x);
  return out;
}

Lines top_lines(const Top& t, const std::string& kind = "seq") {
  return t.is_loop ? loop_lines(kind, t.loop) : t.simple;
}

class Gen {
 public:
  explicit Gen(Rng& r) : r_(r) {}

  std::string index(const std::vector<std::string>& iters) {
    std::string i =
        iters.empty() ? ""
                      : iters[static_cast<size_t>(pick(r_, 0, static_cast<int>(iters.size()) - 1))];
    switch (pick(r_, 0, 9)) {
      case 0:
        return std::to_string(pick(r_, 0, 3));
      case 1:
        return "C.k";
      case 2:
        return i.empty() ? "C.k" : i + " + C.k";
      case 3:
        return i.empty() ? "1" : i + " + 1";
      default:
        return i.empty() ? "2" : i;
    }
  }
  std::string buf() {
    static const char* bufs[] = {"x", "y", "u", "v"};
    return bufs[pick(r_, 0, 3)];
  }
  std::string rhs(const std::vector<std::string>& iters) {
    std::string a = chance(r_, 20) ? "2.0" : buf() + "[" + index(iters) + "]";
    if (chance(r_, 75)) return a;
    return a + " + " + buf() + "[" + index(iters) + "]";
  }
  // One statement or a window statement followed by its use (two statements).
  std::vector<Lines> simple(const std::vector<std::string>& iters) {
    switch (pick(r_, 0, 10)) {
      case 0:
      case 8:
      case 9:
        return {{buf() + "[" + index(iters) + "] = " + rhs(iters)}};
      case 1:
      case 2:
      case 10:
        return {{buf() + "[" + index(iters) + "] += " + rhs(iters)}};
      case 3: {  // (a config write may not depend on a loop variable: the front end refuses it)
        if (chance(r_, 30)) return {{"q()"}};
        std::string v = std::to_string(pick(r_, 0, 3));
        return {{chance(r_, 70) ? "C.k = " + v : "C.n = " + v}};
      }
      case 4: {
        std::string w = "w" + std::to_string(windows_++);
        std::string b = buf(), e = index(iters);
        std::vector<Lines> out = {{w + " = " + b + "[" + e + ":" + e + " + 4]"}};
        if (chance(r_, 50))
          out.push_back({w + "[" + std::to_string(pick(r_, 0, 3)) + "] = " + rhs(iters)});
        else
          out.push_back({buf() + "[" + index(iters) + "] += " + w + "[" +
                         std::to_string(pick(r_, 0, 3)) + "]"});
        return out;
      }
      case 5: {
        std::string a = chance(r_, 50) ? "C.k" : iters.empty() ? "1" : iters.back();
        std::string e = index(iters);
        return {{"g(" + a + ", " + buf() + "[" + e + ":" + e + " + 8])"}};
      }
      case 6: {
        std::string e = index(iters);
        return {{"h(" + buf() + "[" + e + ":" + e + " + 4])"}};
      }
      default:
        return {{buf() + "[" + index(iters) + "] = " + rhs(iters)}};
    }
  }
  std::pair<std::string, std::string> bounds() {
    switch (pick(r_, 0, 3)) {
      case 0:
        return {"0", "N"};
      case 1:
        return {"0", "C.n"};
      case 2:
        return {"C.k", "4"};
      default:
        return {"1", "3"};
    }
  }
  Loop loop(const std::string& iter, std::vector<std::string> iters, bool allow_nest) {
    Loop L;
    L.iter = iter;
    std::tie(L.lo, L.hi) = bounds();
    iters.push_back(iter);
    if (allow_nest && chance(r_, 30)) {
      Loop inner = loop("j", iters, false);
      L.body.push_back(loop_lines("seq", inner));
      return L;
    }
    int n = pick(r_, 1, 3);
    while (static_cast<int>(L.body.size()) < n)
      for (Lines& s : simple(iters)) L.body.push_back(s);
    return L;
  }
  Top top() {
    Top t;
    if (chance(r_, 75)) {
      t.is_loop = true;
      t.loop = loop("i", {}, true);
    } else {
      std::vector<Lines> s;
      do s = simple({});
      while (s.size() != 1);
      t.simple = s[0];
    }
    return t;
  }

 private:
  Rng& r_;
  int windows_ = 0;
};

std::string program(const std::vector<Lines>& stmts) {
  std::string s = std::string(kHeader) +
                  "def p(N: size, x: f32[16] @ DRAM, y: f32[16] @ DRAM, u: f32[16] @ DRAM, v: "
                  "f32[16] @ DRAM):\n    assert N <= 4\n";
  for (const Lines& st : stmts)
    for (const std::string& l : st) s += "    " + l + "\n";
  return s;
}

// Does `b` (a transformed version of `a`) give a different result on some input of the domain?
// `reverse_par`: b's par loops run in reverse. Inputs on which `a` fails are skipped.
bool differs_somewhere(const Proc& a, const Proc& b, bool reverse_par, std::string& witness) {
  for (int64_t n = 1; n <= 4; ++n)
    for (int64_t k = 0; k <= 3; ++k)
      for (int64_t cn = 0; cn <= 3; ++cn) {
        ConfigState init;
        init.set("C", "k", k);
        init.set("C", "n", cn);
        std::vector<ArgValue> args =
            random_args(a, {{"N", n}}, static_cast<uint64_t>(n * 16 + k * 4 + cn));
        std::vector<ArgValue> args_b = deep_copy(args);
        ConfigState ca = init, cb = init;
        InterpOptions ia, ib;
        ia.configs = &ca;
        ib.configs = &cb;
        ib.reverse_par = reverse_par;
        try {
          interpret(a, args, ia);
        } catch (const Error&) {
          continue;
        }
        std::string d;
        try {
          interpret(b, args_b, ib);
          d = compare_args(a, args, args_b);
          if (d.empty()) d = compare_configs(ca, cb);
        } catch (const Error& e) {
          d = std::string("the transformed program fails: ") + e.what();
        }
        if (!d.empty()) {
          witness = "N = " + std::to_string(n) + ", C.k = " + std::to_string(k) +
                    ", C.n = " + std::to_string(cn) + ": " + d;
          return true;
        }
      }
  return false;
}

struct Tally {
  long queries = 0, proved = 0, unsound = 0;
  std::map<std::string, std::pair<long, long>> by_query;  // query: (asked, proved)
  std::vector<std::string> reports;
};

void check(Tally& t, const std::string& what, const Answer& ans, const std::string& original,
           const std::string& transformed, bool reverse_par = false) {
  ++t.queries;
  auto& q = t.by_query[what.substr(0, what.find(' '))];
  ++q.first;
  if (!ans.proved()) return;
  ++t.proved;
  ++q.second;
  Proc a = testing::parse_proc(original), b = testing::parse_proc(transformed);
  std::string witness;
  if (differs_somewhere(a, b, reverse_par, witness)) {
    ++t.unsound;
    if (t.reports.size() < 5)
      t.reports.push_back("UNSOUND " + what + " (" + witness + ")\n" + original +
                          "--- transformed:\n" + transformed);
  }
}

void check_program(Rng& rng, Tally& t) {
  Gen gen(rng);
  Top s1 = gen.top(), s2 = gen.top();
  if (s1.is_loop && s2.is_loop && chance(rng, 40)) {  // bounds that allow fusion
    s2.loop.lo = s1.loop.lo;
    s2.loop.hi = s1.loop.hi;
  }
  const std::string src = program({top_lines(s1), top_lines(s2)});
  Proc p;
  try {
    p = testing::parse_proc(src);
  } catch (const Error& e) {
    ADD_FAILURE() << "generated program does not parse: " << e.what() << "\n" << src;
    return;
  }
  const Stmt& a = p.body()[0];
  const Stmt& b = p.body()[1];
  Context ctx = Context::at(p, a);
  check(t, "stmts_commute", stmts_commute(ctx, a, b), src, program({top_lines(s2), top_lines(s1)}));
  if (!s1.is_loop) return;
  const Loop& L = s1.loop;
  check(t, "loop_iterations_commute", loop_iterations_commute(ctx, a), src,
        program({top_lines(s1, "par"), top_lines(s2)}), true);
  check(t, "loop_is_parallelizable", loop_is_parallelizable(ctx, a), src,
        program({top_lines(s1, "par"), top_lines(s2)}), true);
  for (size_t gap = 1; gap < L.body.size(); ++gap) {
    Loop first = L, second = L;
    first.body.assign(L.body.begin(), L.body.begin() + static_cast<long>(gap));
    second.body.assign(L.body.begin() + static_cast<long>(gap), L.body.end());
    check(t, "can_fission at " + std::to_string(gap), can_fission(ctx, a, gap), src,
          program({loop_lines("seq", first), loop_lines("seq", second), top_lines(s2)}));
  }
  if (L.body.size() == 1 && L.body[0][0].rfind("for j in seq(", 0) == 0) {
    // for i: for j: body  -->  for j: for i: body
    Lines inner = L.body[0];
    Lines swapped = {inner[0].substr(0, inner[0].size()),
                     "    for i in seq(" + L.lo + ", " + L.hi + "):"};
    for (size_t k = 1; k < inner.size(); ++k) swapped.push_back("    " + inner[k]);
    check(t, "loops_can_interchange", loops_can_interchange(ctx, a), src,
          program({swapped, top_lines(s2)}));
  }
  if (s2.is_loop) {
    Loop fused = L;
    for (const Lines& s : s2.loop.body) fused.body.push_back(s);
    check(t, "can_fuse", can_fuse(ctx, a, b), src, program({loop_lines("seq", fused)}));
  }
}

TEST(SoundnessEffects, ConfigBoundsWindowsAndCallsAgreeWithEnumeration) {
  ValidationScope off(false);
  long n = env_or("EXOCPP_SOUNDNESS_EFFECTS_N", 1000);
  long seed = env_or("EXOCPP_SOUNDNESS_SEED", 20261122);
  Tally t;
  for (long k = 0; k < n; ++k) {
    Rng rng(static_cast<uint64_t>(seed) * 7919u + static_cast<uint64_t>(k));
    check_program(rng, t);
  }
  std::cout << "[soundness effects] programs " << n << ", queries " << t.queries << ", proved "
            << t.proved << ", unsound " << t.unsound << "\n";
  for (const auto& [q, n] : t.by_query)
    std::cout << "  " << q << ": " << n.second << " of " << n.first << " proved\n";
  for (const std::string& r : t.reports) std::cout << r << "\n";
  EXPECT_EQ(t.unsound, 0);
  EXPECT_GT(t.proved, t.queries / 20);  // the programs exercise proofs, not only refusals
  for (const auto& [q, n] : t.by_query) EXPECT_GT(n.second, 0) << q << " never proved";
}

}  // namespace
}  // namespace exocpp::checker::soundness
