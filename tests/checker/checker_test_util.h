// Helpers for the checker tests: parse a proc, find its statements, parse expressions in the
// scope of a statement, and print an Answer on failure.
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "core/parser.h"
#include "core/printer.h"

namespace exocpp::checker::testing {

// The last proc of `src` (earlier procs are callees).
inline Proc parse_proc(const std::string& src) {
  Module m = parse_module(src);
  return m.procs.back();
}

// The same, without the type checker (for IR only a buggy rewrite could build).
inline Proc parse_proc_unchecked(const std::string& src) {
  ParseOptions o;
  o.typecheck = false;
  Module m = parse_module(src, o);
  return m.procs.back();
}

// The n-th statement (pre-order) satisfying `pred`; fails the test when absent.
template <class Pred>
bool find_nth(const Block& b, Pred pred, int& n, Stmt& out) {
  for (const Stmt& s : b) {
    if (pred(s) && n-- == 0) {
      out = s;
      return true;
    }
    if (const ForNode* f = s.as<ForNode>())
      if (find_nth(f->body, pred, n, out)) return true;
    if (const IfNode* i = s.as<IfNode>())
      if (find_nth(i->body, pred, n, out) || find_nth(i->orelse, pred, n, out)) return true;
  }
  return false;
}

// The loop over `iter` (the n-th such loop).
inline Stmt loop(const Proc& p, const std::string& iter, int n = 0) {
  Stmt out;
  bool ok = find_nth(
      p.body(),
      [&](const Stmt& s) { return s.is<ForNode>() && s.as<ForNode>()->iter.name() == iter; }, n,
      out);
  EXPECT_TRUE(ok) << "no loop " << iter;
  return out;
}

// The n-th statement of a kind.
inline Stmt nth(const Proc& p, StmtKind k, int n = 0) {
  Stmt out;
  bool ok = find_nth(
      p.body(), [&](const Stmt& s) { return s.kind() == k; }, n, out);
  EXPECT_TRUE(ok) << "no statement #" << n << " of kind " << to_string(k);
  return out;
}

// Names visible in `ctx` (arguments, enclosing loops, windows, allocations) for parse_expr.
inline std::vector<ScopeVar> scope_of(const Context& ctx) {
  std::vector<ScopeVar> vs;
  for (const FnArg& a : ctx.proc().args()) vs.push_back({a.name, a.type});
  for (const Scope& s : ctx.scopes()) {
    if (s.kind == Scope::Loop) vs.push_back({s.loop->iter, Type(ScalarKind::Index)});
    if (s.kind == Scope::Alloc) vs.push_back({s.name, s.type});
    if (s.kind == Scope::Window) vs.push_back({s.name, s.window.type()});
  }
  return vs;
}

inline Expr expr_in(const Context& ctx, const std::string& text, bool window = false) {
  return parse_expr(text, scope_of(ctx), {}, window);
}

}  // namespace exocpp::checker::testing

namespace exocpp::checker::testing {

// The integers captured by `re` in `text`; empty when it does not match.
inline std::vector<long> captures(const std::string& text, const std::string& re) {
  std::smatch m;
  std::vector<long> out;
  if (!std::regex_search(text, m, std::regex(re))) return out;
  for (size_t k = 1; k < m.size(); ++k) out.push_back(std::stol(m[k].str()));
  return out;
}

}  // namespace exocpp::checker::testing
