// ============================================================================================
// delete_pass: remove every `pass` statement of a proc.
// ============================================================================================
//
//   s1 ; pass ; s2   -->   s1 ; s2
//
// A loop whose body was only `pass` does nothing and is removed with it; so is an if whose
// branches were only `pass`. A list that must not be empty (the proc body, the body of an if
// with an else branch) keeps a single `pass`. Forwarding: the removed statements' cursors become
// invalid, the others shift.
#include <optional>

#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// Whether `s` does nothing at all: a pass, or a loop or if whose statements all do nothing.
bool dead(const Stmt& s);
bool all_dead(const Block& b) {
  for (const Stmt& s : b)
    if (!dead(s)) return false;
  return true;
}
bool dead(const Stmt& s) {
  if (s.is<PassNode>()) return true;
  if (const ForNode* f = s.as<ForNode>()) return all_dead(f->body);
  if (const IfNode* n = s.as<IfNode>()) return all_dead(n->body) && all_dead(n->orelse);
  return false;
}

BlockPath child(const BlockPath& path, int i, BlockField f) {
  BlockPath c = path;
  c.push_back({i, f});
  return c;
}

// Removes the dead statements of `b`, which sits in list `path` from index `offset` on, last
// first so that the indices of the earlier ones stay valid. A statement that is not dead
// keeps at least one statement in each list that must not be empty.
void delete_dead(rw::Edit& edit, const BlockPath& path, const Block& b, int offset = 0) {
  for (int i = static_cast<int>(b.size()) - 1; i >= 0; --i) {
    const Stmt& s = b[static_cast<size_t>(i)];
    const int at = offset + i;
    if (dead(s)) {
      edit.remove(path, at, at + 1);
    } else if (const ForNode* f = s.as<ForNode>()) {
      delete_dead(edit, child(path, at, BlockField::Body), f->body);
    } else if (const IfNode* n = s.as<IfNode>()) {
      delete_dead(edit, child(path, at, BlockField::Orelse), n->orelse);
      // A dead body beside a live else branch keeps one pass.
      const bool keep_pass = all_dead(n->body);
      if (keep_pass)
        edit.insert(child(path, at, BlockField::Body), 0, {PassNode::make(s.srcinfo())});
      delete_dead(edit, child(path, at, BlockField::Body), n->body, keep_pass ? 1 : 0);
    }
  }
}

}  // namespace

Proc delete_pass(const Proc& p) {
  return rw::run_op("delete_pass", [&]() -> Proc {
    rw::Edit edit(p);
    delete_dead(edit, {}, p.body());
    if (edit.body().empty()) edit.insert({}, 0, {PassNode::make(p->srcinfo)});
    return edit.done();
  });
}

}  // namespace exocpp
