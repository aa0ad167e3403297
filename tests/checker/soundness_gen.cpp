// Generator, printer and brute-force enumerator of the soundness test's random programs.
#include "tests/checker/soundness_gen.h"

#include <algorithm>

namespace exocpp::checker::soundness {

long floor_div(long a, long b) {
  long q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
long floor_mod(long a, long b) { return a - b * floor_div(a, b); }

long eval(const IExpr& e, const std::vector<long>& env) {
  switch (e.kind) {
    case IExpr::Const:
      return e.value;
    case IExpr::Var:
      return env[static_cast<size_t>(e.var)];
    case IExpr::Add:
      return eval(*e.a, env) + eval(*e.b, env);
    case IExpr::Sub:
      return eval(*e.a, env) - eval(*e.b, env);
    case IExpr::Scale:
      return e.value * eval(*e.a, env);
    case IExpr::Prod:
      return eval(*e.a, env) * eval(*e.b, env);
    case IExpr::Div:
      return floor_div(eval(*e.a, env), e.value);
    case IExpr::Mod:
      return floor_mod(eval(*e.a, env), e.value);
  }
  return 0;
}

std::string text(const IExpr& e, const std::vector<std::string>& n) {
  switch (e.kind) {
    case IExpr::Const:
      return std::to_string(e.value);
    case IExpr::Var:
      return n[static_cast<size_t>(e.var)];
    case IExpr::Add:
      return "(" + text(*e.a, n) + " + " + text(*e.b, n) + ")";
    case IExpr::Sub:
      return "(" + text(*e.a, n) + " - " + text(*e.b, n) + ")";
    case IExpr::Scale:
      return "(" + std::to_string(e.value) + " * " + text(*e.a, n) + ")";
    case IExpr::Prod:
      return "(" + text(*e.a, n) + " * " + text(*e.b, n) + ")";
    case IExpr::Div:
      return "(" + text(*e.a, n) + " / " + std::to_string(e.value) + ")";
    case IExpr::Mod:
      return "(" + text(*e.a, n) + " % " + std::to_string(e.value) + ")";
  }
  return "?";
}

namespace {

IExprP mk(IExpr::Kind k, long v, int var, IExprP a = nullptr, IExprP b = nullptr) {
  auto e = std::make_shared<IExpr>();
  e->kind = k;
  e->value = v;
  e->var = var;
  e->a = std::move(a);
  e->b = std::move(b);
  return e;
}
IExprP cst(long v) { return mk(IExpr::Const, v, -1); }

struct Gen {
  std::mt19937_64& rng;
  GProgram prog;

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

  // c0 + sum(c_v * v), sometimes with a product of two variables, sometimes / or % by a
  // small constant.
  IExprP affine(const std::vector<int>& vars) {
    IExprP e = cst(pick(0, 3));
    for (int v : vars) {
      int c = pick(-1, 2);
      if (c == 0) continue;
      IExprP term = std::abs(c) == 1 ? mk(IExpr::Var, 0, v)
                                     : mk(IExpr::Scale, std::abs(c), -1, mk(IExpr::Var, 0, v));
      e = mk(c > 0 ? IExpr::Add : IExpr::Sub, 0, -1, e, term);
    }
    if (vars.size() >= 2 && chance(0.05))
      e = mk(IExpr::Add, 0, -1, e,
             mk(IExpr::Prod, 0, -1, mk(IExpr::Var, 0, vars[0]), mk(IExpr::Var, 0, vars[1])));
    double r = std::uniform_real_distribution<double>(0, 1)(rng);
    if (r < 0.15)
      e = mk(IExpr::Div, pick(2, 3), -1, e);
    else if (r < 0.3)
      e = mk(IExpr::Mod, pick(2, 4), -1, e);
    return e;
  }

  GAccess access(const std::vector<int>& vars) {
    GAccess a;
    a.buf = pick(0, prog.nbufs - 1);
    for (int d = 0; d < prog.ranks[a.buf]; ++d) a.idx.push_back(affine(vars));
    return a;
  }

  GStmt assign(const std::vector<int>& vars) {
    GStmt s;
    s.kind = chance(0.3) ? GStmt::Reduce : GStmt::Assign;
    s.lhs = access(vars);
    int nreads = pick(0, 2);
    for (int k = 0; k < nreads; ++k) s.reads.push_back(access(vars));
    s.constant = pick(1, 2);  // equal constants commute, different ones do not
    if (!vars.empty() && chance(0.2)) {
      s.guard = std::make_shared<GCond>();
      s.guard->parity = chance(0.3);
      s.guard->lhs = affine(vars);
      s.guard->rhs = cst(pick(1, 4));
    }
    return s;
  }

  GStmt loop(std::vector<int> vars, int depth_left) {
    GStmt s;
    s.kind = GStmt::Loop;
    s.var = static_cast<int>(prog.var_names.size());
    prog.var_names.push_back("i" + std::to_string(s.var));
    int lo = pick(0, 2);
    s.lo = cst(lo);
    s.hi = cst(lo + pick(1, 4));
    if (!vars.empty() && chance(0.1))
      s.hi = mk(IExpr::Add, 0, -1, mk(IExpr::Var, 0, vars.back()), cst(pick(1, 3)));
    vars.push_back(s.var);
    if (depth_left <= 1) {
      int n = pick(1, 3);
      for (int k = 0; k < n; ++k) s.body.push_back(assign(vars));
    } else {
      if (chance(0.3)) s.body.push_back(assign(vars));
      s.body.push_back(loop(vars, depth_left - 1));
      if (chance(0.3)) s.body.push_back(assign(vars));
    }
    return s;
  }

  void buffers() {
    prog.nbufs = pick(1, 2);
    prog.ranks[0] = pick(1, 2);
    prog.ranks[1] = pick(1, 2);
  }
};

std::string access_text(const GAccess& a, const std::vector<std::string>& names) {
  std::string s = a.buf == 0 ? "x[" : "y[";
  for (size_t d = 0; d < a.idx.size(); ++d) s += (d ? ", " : "") + text(*a.idx[d], names);
  return s + "]";
}

void print(const GStmt& s, const std::vector<std::string>& n, int indent, std::string& out) {
  std::string pad(static_cast<size_t>(indent) * 4, ' ');
  if (s.kind == GStmt::Loop) {
    out += pad + "for " + n[static_cast<size_t>(s.var)] + " in seq(" + text(*s.lo, n) + ", " +
           text(*s.hi, n) + "):\n";
    for (const GStmt& b : s.body) print(b, n, indent + 1, out);
    return;
  }
  if (s.guard) {
    if (s.guard->parity)
      out += pad + "if " + text(*s.guard->lhs, n) + " % 2 == 0:\n";
    else
      out += pad + "if " + text(*s.guard->lhs, n) + " < " + text(*s.guard->rhs, n) + ":\n";
    pad += "    ";
  }
  std::string rhs;
  for (const GAccess& r : s.reads) rhs += (rhs.empty() ? "" : " + ") + access_text(r, n);
  if (rhs.empty()) rhs = std::to_string(s.constant) + ".0";
  out += pad + access_text(s.lhs, n) + (s.kind == GStmt::Reduce ? " += " : " = ") + rhs + "\n";
}

void run(const GStmt& s, std::vector<long>& env, std::vector<const GStmt*>& path,
         std::vector<Event>& out) {
  path.push_back(&s);
  if (s.kind == GStmt::Loop) {
    long lo = eval(*s.lo, env), hi = eval(*s.hi, env);
    for (long v = lo; v < hi; ++v) {
      env[static_cast<size_t>(s.var)] = v;
      for (const GStmt& b : s.body) run(b, env, path, out);
    }
    env[static_cast<size_t>(s.var)] = -999;
  } else {
    bool on = true;
    if (s.guard) {
      long l = eval(*s.guard->lhs, env);
      on = s.guard->parity ? floor_mod(l, 2) == 0 : l < eval(*s.guard->rhs, env);
    }
    if (on) {
      auto emit = [&](const GAccess& a, bool write, bool reduce) {
        Event e;
        e.write = write;
        e.reduce = reduce;
        e.buf = a.buf;
        for (const IExprP& i : a.idx) e.loc.push_back(eval(*i, env));
        e.env = env;
        e.path = path;
        out.push_back(std::move(e));
      };
      for (const GAccess& r : s.reads) emit(r, false, false);
      emit(s.lhs, s.kind == GStmt::Assign, s.kind == GStmt::Reduce);
      if (s.kind == GStmt::Assign && s.reads.empty()) out.back().stored_constant = s.constant;
    }
  }
  path.pop_back();
}

}  // namespace

std::string GProgram::source() const {
  auto shape = [](int rank) {
    return rank == 1 ? std::string("f32[64]") : std::string("f32[64, 64]");
  };
  std::string s = "def p(x: " + shape(ranks[0]) + " @ DRAM";
  if (nbufs == 2) s += ", y: " + shape(ranks[1]) + " @ DRAM";
  s += "):\n";
  for (const GStmt& b : body) print(b, var_names, 1, s);
  return s;
}

GProgram random_nest(std::mt19937_64& rng) {
  Gen g{rng, {}};
  g.buffers();
  g.prog.body.push_back(g.loop({}, g.pick(2, 3)));
  return std::move(g.prog);
}

GProgram random_siblings(std::mt19937_64& rng) {
  Gen g{rng, {}};
  g.buffers();
  GStmt a = g.loop({}, g.pick(1, 2));
  GStmt b = g.loop({}, g.pick(1, 2));
  if (g.chance(0.8)) {  // usually the same bounds, so that fusion is a question of dependences
    b.lo = a.lo;
    b.hi = a.hi;
  }
  g.prog.body.push_back(std::move(a));
  g.prog.body.push_back(std::move(b));
  return std::move(g.prog);
}

std::vector<Event> enumerate(const GProgram& p) {
  std::vector<Event> out;
  std::vector<long> env(p.var_names.size(), -999);
  std::vector<const GStmt*> path;
  for (const GStmt& s : p.body) run(s, env, path, out);
  return out;
}

bool conflict(const Event& a, const Event& b, bool reduces_commute) {
  if (a.buf != b.buf || a.loc != b.loc) return false;
  bool aw = a.write || a.reduce, bw = b.write || b.reduce;
  if (!aw && !bw) return false;
  if (a.reduce && b.reduce) return !reduces_commute;
  if (reduces_commute && a.stored_constant != 0 && a.stored_constant == b.stored_constant)
    return false;
  return true;
}

bool under(const Event& e, const GStmt* s) {
  return std::find(e.path.begin(), e.path.end(), s) != e.path.end();
}

}  // namespace exocpp::checker::soundness
