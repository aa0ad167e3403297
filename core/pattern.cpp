// Pattern matching (core/pattern.h): walks a proc's body, or a cursor's target, in pre-order and
// collects the statements, statement blocks or expressions a parsed pattern
// (core/pattern_parse.cpp) matches, following Exo's matcher (exo/frontend/pattern_match.py).
#include "core/pattern.h"

#include "core/externs.h"
#include "core/pattern_internal.h"

namespace exocpp {

namespace {

using pattern::EPat;
using pattern::EPatKind;
using pattern::EPatPtr;
using pattern::Pattern;
using pattern::SPat;
using pattern::SPatKind;

bool match_name(const std::string& pat, const std::string& name) {
  return pat == "_" || pat == name;
}

bool is_lone_hole(const std::vector<EPatPtr>& pats) {
  return pats.size() == 1 && pats[0]->kind == EPatKind::Hole;
}

bool match_e(const EPat& pat, const Expr& e);

// An index/argument list: a lone '_' matches a list of any length, otherwise item by item.
bool match_list(const std::vector<EPatPtr>& pats, const std::vector<Expr>& es) {
  if (is_lone_hole(pats)) return true;
  if (pats.size() != es.size()) return false;
  for (size_t i = 0; i < pats.size(); ++i)
    if (pats[i]->kind == EPatKind::Slice || !match_e(*pats[i], es[i])) return false;
  return true;
}

bool match_window(const EPat& pat, const WindowExprNode& w) {
  if (!match_name(pat.name, w.name.name())) return false;
  if (is_lone_hole(pat.args)) return true;
  if (!pat.bracketed || pat.args.size() != w.idx.size()) return false;
  for (size_t i = 0; i < w.idx.size(); ++i) {
    const EPat& p = *pat.args[i];
    const WAccess& a = w.idx[i];
    if (p.kind == EPatKind::Slice) {
      if (!a.is_interval || !match_e(*p.args[0], a.lo) || !match_e(*p.args[1], a.hi)) return false;
    } else if (a.is_interval || !match_e(p, a.lo)) {
      return false;
    }
  }
  return true;
}

bool match_e(const EPat& pat, const Expr& e) {
  switch (pat.kind) {
    case EPatKind::Hole:
      return true;
    case EPatKind::Read:
      if (auto* r = e.as<ReadNode>()) {
        // "x" (no brackets) matches x with any indices, as Exo's matcher does.
        if (!match_name(pat.name, r->name.name())) return false;
        return !pat.bracketed || match_list(pat.args, r->idx);
      }
      if (auto* w = e.as<WindowExprNode>()) return match_window(pat, *w);
      return false;
    case EPatKind::Const:
      if (auto* c = e.as<ConstNode>()) return same_constant(c->val, pat.val);
      return false;
    case EPatKind::USub:
      // "-3" also matches the constant -3.
      if (auto* c = e.as<ConstNode>(); c && pat.args[0]->kind == EPatKind::Const)
        return same_constant(c->val, -pat.args[0]->val);
      if (auto* u = e.as<USubNode>()) return match_e(*pat.args[0], u->arg);
      return false;
    case EPatKind::BinOp:
      if (auto* b = e.as<BinOpNode>())
        return b->op == pat.op && match_e(*pat.args[0], b->lhs) && match_e(*pat.args[1], b->rhs);
      return false;
    case EPatKind::Extern:
      if (auto* x = e.as<ExternNode>())
        return match_name(pat.name, x->fn->name()) && match_list(pat.args, x->args);
      return false;
    case EPatKind::Stride:
      if (auto* s = e.as<StrideExprNode>())
        return match_name(pat.name, s->name.name()) && (pat.dim < 0 || pat.dim == s->dim);
      return false;
    case EPatKind::ReadConfig:
      if (auto* rc = e.as<ReadConfigNode>())
        return match_name(pat.name, rc->config->name) && match_name(pat.field, rc->field);
      return false;
    case EPatKind::Slice:
      return false;
  }
  return false;
}

// ---- statements ----------------------------------------------------------------------------

std::optional<int> match_stmts(const std::vector<SPat>& pats, const Block& b, int lo, int hi);

bool match_stmt(const SPat& pat, const Stmt& s) {
  switch (pat.kind) {
    case SPatKind::Hole:
      return true;
    case SPatKind::Assign:
      if (auto* a = s.as<AssignNode>())
        return match_name(pat.name, a->name.name()) &&
               (!pat.bracketed || match_list(pat.idx, a->idx)) && match_e(*pat.rhs, a->rhs);
      // "w = A[_]" also names a window statement.
      if (auto* w = s.as<WindowStmtNode>())
        return !pat.bracketed && match_name(pat.name, w->name.name()) && match_e(*pat.rhs, w->rhs);
      return false;
    case SPatKind::Reduce:
      if (auto* r = s.as<ReduceNode>())
        return match_name(pat.name, r->name.name()) &&
               (!pat.bracketed || match_list(pat.idx, r->idx)) && match_e(*pat.rhs, r->rhs);
      return false;
    case SPatKind::WriteConfig:
      if (auto* w = s.as<WriteConfigNode>())
        return match_name(pat.name, w->config->name) && match_name(pat.field, w->field) &&
               match_e(*pat.rhs, w->rhs);
      return false;
    case SPatKind::Pass:
      return s.is<PassNode>();
    case SPatKind::If:
      // The body pattern matches a prefix of the body; the else branch is not constrained.
      if (auto* i = s.as<IfNode>())
        return match_e(*pat.rhs, i->cond) &&
               match_stmts(pat.body, i->body, 0, static_cast<int>(i->body.size())).has_value();
      return false;
    case SPatKind::For:
      if (auto* f = s.as<ForNode>())
        return match_name(pat.name, f->iter.name()) &&
               (!pat.loop_mode || *pat.loop_mode == f->mode) && match_e(*pat.lo, f->lo) &&
               match_e(*pat.hi, f->hi) &&
               match_stmts(pat.body, f->body, 0, static_cast<int>(f->body.size())).has_value();
      return false;
    case SPatKind::Alloc:
      if (auto* a = s.as<AllocNode>()) {
        if (!match_name(pat.name, a->name.name())) return false;
        if (pat.alloc_type && *pat.alloc_type != a->type.base) return false;
        if (!pat.alloc_mem.empty() && !match_name(pat.alloc_mem, a->mem)) return false;
        return !pat.bracketed || match_list(pat.idx, a->type.shape);
      }
      return false;
    case SPatKind::Call:
      if (auto* c = s.as<CallNode>())
        return match_name(pat.name, c->proc->name) &&
               (pat.idx.empty() || match_list(pat.idx, c->args));
      return false;
  }
  return false;
}

// Matches `pats` against a prefix of statements [lo, hi) of `b`; the end of the matched run.
// A statement hole takes statements until the next pattern matches (Exo's lookahead); a
// trailing hole takes the rest.
std::optional<int> match_stmts(const std::vector<SPat>& pats, const Block& b, int lo, int hi) {
  size_t i = 0;
  int j = lo;
  while (i < pats.size() && j < hi) {
    if (pats[i].kind == SPatKind::Hole) {
      if (i + 1 == pats.size()) return hi;
      if (match_stmt(pats[i + 1], b[j])) i += 2;
    } else if (match_stmt(pats[i], b[j])) {
      i += 1;
    } else {
      return std::nullopt;
    }
    ++j;
  }
  if (i == pats.size()) return j;
  return std::nullopt;
}

// ---- the walk ------------------------------------------------------------------------------

struct Search {
  Search(const Pattern& pt, const Proc& pr, bool ignore)
      : pat(pt), proc(pr), ignore_match_no(ignore) {}
  const Pattern& pat;
  const Proc& proc;
  bool ignore_match_no = false;
  int skip = 0;  // matches still to pass over before the "#n"-selected one
  std::vector<Cursor> out;
  bool done = false;

  void add(Loc l) {
    if (!pat.match_no || ignore_match_no) {
      out.emplace_back(proc, std::move(l));
      return;
    }
    if (skip-- == 0) {
      out.emplace_back(proc, std::move(l));
      done = true;
    }
  }

  // Statement patterns: every start position in list `path` [lo, hi), then inside each statement.
  void stmts_in(const Block& b, const BlockPath& path, int lo, int hi) {
    for (int j = lo; j < hi && !done; ++j) {
      if (auto end = match_stmts(pat.stmts, b, j, hi)) {
        bool single = pat.stmts.size() == 1;
        Loc l{single ? CursorKind::Stmt : CursorKind::Block, path, j, single ? j + 1 : *end, {}};
        add(std::move(l));
      }
      if (!done)
        descend(b[j], path, j, [&](const Block& body, const BlockPath& p) {
          stmts_in(body, p, 0, static_cast<int>(body.size()));
        });
    }
  }

  template <class F>
  void descend(const Stmt& s, const BlockPath& path, int j, F&& f) {
    auto sub = [&](const Block& body, BlockField field) {
      if (done || body.empty()) return;
      BlockPath p = path;
      p.push_back(PathStep{j, field});
      f(body, p);
    };
    if (auto* fr = s.as<ForNode>()) sub(fr->body, BlockField::Body);
    if (auto* i = s.as<IfNode>()) {
      sub(i->body, BlockField::Body);
      sub(i->orelse, BlockField::Orelse);
    }
  }

  // Expression patterns: each statement's expressions (pre-order), then its bodies.
  void exprs_in(const Block& b, const BlockPath& path, int lo, int hi) {
    for (int j = lo; j < hi && !done; ++j) {
      std::vector<Expr> kids = expr_children(b[j]);
      for (size_t k = 0; k < kids.size() && !done; ++k)
        expr_walk(kids[k], path, j, {static_cast<int>(k)});
      descend(b[j], path, j, [&](const Block& body, const BlockPath& p) {
        exprs_in(body, p, 0, static_cast<int>(body.size()));
      });
    }
  }

  void expr_walk(const Expr& e, const BlockPath& path, int j, std::vector<int> steps) {
    if (match_e(*pat.expr, e)) add(Loc{CursorKind::Expr, path, j, j + 1, steps});
    std::vector<Expr> kids = expr_children(e);
    for (size_t k = 0; k < kids.size() && !done; ++k) {
      steps.push_back(static_cast<int>(k));
      expr_walk(kids[k], path, j, steps);
      steps.pop_back();
    }
  }

  void run(const Cursor& scope) {
    skip = pat.match_no.value_or(0);
    const Loc& l = scope.loc();
    switch (scope.kind()) {
      case CursorKind::Stmt:
      case CursorKind::Block: {
        const Block& b = block_at(proc.body(), l.block);
        if (pat.is_expr)
          exprs_in(b, l.block, l.lo, l.hi);
        else
          stmts_in(b, l.block, l.lo, l.hi);
        return;
      }
      case CursorKind::Expr:
        if (pat.is_expr) expr_walk(scope.expr(), l.block, l.lo, l.expr);
        return;
      case CursorKind::Gap:
      case CursorKind::Arg:
      case CursorKind::Invalid:
        return;
    }
  }
};

std::vector<Cursor> search(const Cursor& scope, const Pattern& pat, bool ignore_match_no = false) {
  if (!scope.is_valid()) throw InvalidCursorError("find: the cursor to search in is invalid");
  Search s(pat, scope.proc(), ignore_match_no);
  s.run(scope);
  return std::move(s.out);
}

std::string scope_name(const Cursor& scope) {
  if (scope.kind() == CursorKind::Block && scope.loc().block.empty() && scope.loc().lo == 0 &&
      scope.loc().hi == static_cast<int>(scope.proc().body().size()))
    return "proc '" + scope.proc().name() + "'";
  return "'" + scope.to_string() + "' (in proc '" + scope.proc().name() + "')";
}

Cursor find_in(const Cursor& scope, const std::string& text) {
  Pattern pat = pattern::parse_pattern(text);
  std::vector<Cursor> found = search(scope, pat);
  if (!found.empty()) return found.front();
  SrcInfo where =
      scope.kind() == CursorKind::Block && scope.loc().block.empty() && scope.loc().lo == 0
          ? scope.proc()->srcinfo
          : scope.srcinfo();
  if (!pat.match_no)
    throw SchedulingError("find", reason::kTargetNoMatch, where,
                          "no match for pattern '" + pat.text + "' in " + scope_name(scope));
  size_t n = search(scope, pat, /*ignore_match_no=*/true).size();
  throw SchedulingError("find", reason::kTargetCount, where,
                        "pattern '" + text + "' asks for match #" + std::to_string(*pat.match_no) +
                            " (counting from 0), but '" + pat.text + "' has only " +
                            std::to_string(n) + " match" + (n == 1 ? "" : "es") + " in " +
                            scope_name(scope));
}

}  // namespace

std::vector<Cursor> find_all(const Proc& p, const std::string& pattern) {
  return find_all(proc_body(p), pattern);
}
std::vector<Cursor> find_all(const Cursor& scope, const std::string& pattern) {
  return search(scope, pattern::parse_pattern(pattern));
}
Cursor find(const Proc& p, const std::string& pattern) { return find_in(proc_body(p), pattern); }
Cursor find(const Cursor& scope, const std::string& pattern) { return find_in(scope, pattern); }

Cursor find_loop(const Proc& p, const std::string& pattern) {
  return find_target(p, pattern, TargetKind::Loop);
}

Cursor find_alloc_or_arg(const Proc& p, const std::string& name) {
  return find_target(p, name, TargetKind::Alloc);
}

Cursor Proc::find(const std::string& pattern) const { return exocpp::find(*this, pattern); }
std::vector<Cursor> Proc::find_all(const std::string& pattern) const {
  return exocpp::find_all(*this, pattern);
}
Cursor Proc::find_loop(const std::string& pattern) const {
  return exocpp::find_loop(*this, pattern);
}
Cursor Proc::find_alloc_or_arg(const std::string& name) const {
  return exocpp::find_alloc_or_arg(*this, name);
}

}  // namespace exocpp
