// Building a Context: walk from the proc's root to the target statement, collecting the loops,
// if-branches, windows and allocations around it.
#include "checker/context.h"

namespace exocpp::checker {

Context Context::top(const Proc& proc) {
  Context c;
  c.proc_ = proc;
  return c;
}

namespace {

// Searches `blk` for `target`; on success `scopes` holds the context at the target.
bool find_in(const Block& blk, const StmtNode* target, std::vector<Scope>& scopes) {
  size_t mark = scopes.size();
  for (const Stmt& s : blk) {
    if (s.get() == target) return true;
    if (const ForNode* f = s.as<ForNode>()) {
      Scope sc{Scope::Loop};
      sc.loop = f;
      scopes.push_back(sc);
      if (find_in(f->body, target, scopes)) return true;
      scopes.pop_back();
    } else if (const IfNode* i = s.as<IfNode>()) {
      Scope sc{Scope::Cond};
      sc.cond = i->cond;
      scopes.push_back(sc);
      if (find_in(i->body, target, scopes)) return true;
      scopes.back().negated = true;
      if (find_in(i->orelse, target, scopes)) return true;
      scopes.pop_back();
    } else if (const WindowStmtNode* w = s.as<WindowStmtNode>()) {
      Scope sc{Scope::Window};
      sc.name = w->name;
      sc.window = w->rhs;
      scopes.push_back(sc);
    } else if (const AllocNode* a = s.as<AllocNode>()) {
      Scope sc{Scope::Alloc};
      sc.name = a->name;
      sc.type = a->type;
      scopes.push_back(sc);
    }
  }
  scopes.resize(mark);
  return false;
}

int count_in(const Block& blk, const StmtNode* target) {
  int n = 0;
  for (const Stmt& s : blk) {
    if (s.get() == target) ++n;
    if (const ForNode* f = s.as<ForNode>()) n += count_in(f->body, target);
    if (const IfNode* i = s.as<IfNode>())
      n += count_in(i->body, target) + count_in(i->orelse, target);
  }
  return n;
}

// Pushes the windows and allocations among the first `upto` statements of `blk`.
void bind_before(const Block& blk, int upto, std::vector<Scope>& scopes) {
  for (int i = 0; i < upto && i < static_cast<int>(blk.size()); ++i) {
    const Stmt& s = blk[static_cast<size_t>(i)];
    if (const WindowStmtNode* w = s.as<WindowStmtNode>()) {
      Scope sc{Scope::Window};
      sc.name = w->name;
      sc.window = w->rhs;
      scopes.push_back(sc);
    } else if (const AllocNode* a = s.as<AllocNode>()) {
      Scope sc{Scope::Alloc};
      sc.name = a->name;
      sc.type = a->type;
      scopes.push_back(sc);
    }
  }
}

}  // namespace

Context Context::at(const Proc& proc, const Stmt& target) {
  Context c = top(proc);
  EXOCPP_ASSERT(target.defined(), "Context::at of an undefined statement");
  if (count_in(proc.body(), target.get()) > 1)
    throw Error(
        "error", "", target.srcinfo(),
        "this statement occurs at several places in proc '" + proc.name() +
            "' (a rewrite copied it), so its context is ambiguous; name it by its location");
  bool found = find_in(proc.body(), target.get(), c.scopes_);
  EXOCPP_ASSERT(found, "Context::at: the target statement is not in proc " + proc.name());
  return c;
}

Context Context::at(const Proc& proc, const BlockPath& path, int index) {
  Context c = top(proc);
  const Block* blk = &proc.body();
  for (const PathStep& step : path) {
    EXOCPP_ASSERT(step.index >= 0 && step.index < static_cast<int>(blk->size()),
                  "Context::at: bad path");
    bind_before(*blk, step.index, c.scopes_);
    const Stmt& s = (*blk)[static_cast<size_t>(step.index)];
    if (const ForNode* f = s.as<ForNode>()) {
      Scope sc{Scope::Loop};
      sc.loop = f;
      c.scopes_.push_back(sc);
      blk = &f->body;
    } else if (const IfNode* i = s.as<IfNode>()) {
      Scope sc{Scope::Cond};
      sc.cond = i->cond;
      sc.negated = step.field == BlockField::Orelse;
      c.scopes_.push_back(sc);
      blk = step.field == BlockField::Body ? &i->body : &i->orelse;
    } else {
      EXOCPP_ASSERT(false, "Context::at: path through a statement without a body");
    }
  }
  bind_before(*blk, index, c.scopes_);
  return c;
}

Context Context::at(const Cursor& c) {
  if (!c.is_valid()) throw InvalidCursorError("cannot take the context of an invalid cursor");
  if (c.is_arg()) return top(c.proc());
  return at(c.proc(), c.loc().block, c.loc().lo);
}

Context Context::at(const Proc& proc, const Block& target) {
  EXOCPP_ASSERT(!target.empty(), "Context::at of an empty block");
  return at(proc, target.front());
}

const Type* Context::type_of(const Sym& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    if (it->name != name) continue;
    if (it->kind == Scope::Alloc) return &it->type;
    if (it->kind == Scope::Window) return &it->window.type();
  }
  for (const FnArg& a : proc_.args())
    if (a.name == name) return &a.type;
  return nullptr;
}

}  // namespace exocpp::checker
