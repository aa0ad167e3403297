// ============================================================================================
// delete_pass: remove every `pass` statement of a proc.
// ============================================================================================
//
//   s1 ; pass ; s2   -->   s1 ; s2
//
// A loop whose body was only `pass` does nothing and is removed with it; so is an if whose
// branches were only `pass`. A list that must not be empty (the proc body, the body of an if
// with an else branch) keeps a single `pass`. Forwarding: the removed statements' cursors become
// invalid, the others shift (the edits are recorded one by one, last statement first).
#include <optional>

#include "rewrites/internal/operation.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

class PassDeleter {
 public:
  std::vector<ForwardFn> edits;

  // The list with its dead statements removed (possibly empty).
  Block run(const Block& b, const BlockPath& path) {
    Block out(b.begin(), b.end());
    for (int i = static_cast<int>(b.size()) - 1; i >= 0; --i) {
      const Stmt& s = b[static_cast<size_t>(i)];
      std::optional<Stmt> keep = rebuild(s, path, i);
      if (!keep) {
        edits.push_back(fwd_replace(path, i, i + 1, 0));
        out.erase(out.begin() + i);
      } else {
        out[static_cast<size_t>(i)] = *keep;
      }
    }
    return out;
  }

 private:
  // The statement with its bodies cleaned, or nullopt when it does nothing at all.
  std::optional<Stmt> rebuild(const Stmt& s, const BlockPath& path, int i) {
    switch (s.kind()) {
      case StmtKind::Pass:
        return std::nullopt;
      case StmtKind::For: {
        auto f = s.as<ForNode>();
        Block body = run(f->body, child(path, i, BlockField::Body));
        if (body.empty()) return std::nullopt;
        return ForNode::make(f->iter, f->lo, f->hi, std::move(body), f->mode, s.srcinfo());
      }
      case StmtKind::If: {
        auto n = s.as<IfNode>();
        Block orelse = run(n->orelse, child(path, i, BlockField::Orelse));
        Block body = run(n->body, child(path, i, BlockField::Body));
        if (body.empty() && orelse.empty()) return std::nullopt;
        if (body.empty()) {
          body.push_back(PassNode::make(s.srcinfo()));
          edits.push_back(fwd_replace(child(path, i, BlockField::Body), 0, 0, 1));
        }
        return IfNode::make(n->cond, std::move(body), std::move(orelse), s.srcinfo());
      }
      case StmtKind::Assign:
      case StmtKind::Reduce:
      case StmtKind::WriteConfig:
      case StmtKind::Alloc:
      case StmtKind::Call:
      case StmtKind::WindowStmt:
        return s;
    }
    return s;
  }

  static BlockPath child(const BlockPath& path, int i, BlockField f) {
    BlockPath c = path;
    c.push_back({i, f});
    return c;
  }
};

}  // namespace

Proc delete_pass(const Proc& p) {
  return rw::run_op("delete_pass", [&]() -> Proc {
    PassDeleter d;
    Block body = d.run(p.body(), {});
    if (body.empty()) {
      body.push_back(PassNode::make(p->srcinfo));
      d.edits.push_back(fwd_replace({}, 0, 0, 1));
    }
    ForwardFn fwd = fwd_identity();
    for (ForwardFn& e : d.edits) fwd = fwd_compose(fwd, std::move(e));
    return derive_proc(p, std::move(body), fwd);
  });
}

}  // namespace exocpp
