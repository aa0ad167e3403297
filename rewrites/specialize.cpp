// specialize: duplicate a block under a chain of conditions, so each copy can be scheduled
// for its case.
//
//   B   -->   if c0: B
//             else:
//                 if c1: B
//                 else: B          (n conditions give n + 1 copies; the last is the default)
//
// Checks: at least one condition; each parses as a boolean expression in the block's scope and
// cannot fault where the block starts (its reads in bounds, no integer division of data:
// require_safe_to_evaluate_at).
// Every copy binds fresh names. No legality question arises: exactly one copy runs. But an
// allocation or window statement at the top of the block whose name is used after the block
// would be out of scope there (each copy lives inside a branch): refused.
// Forwarding: the block maps to its first copy (cursors inside it follow into that copy);
// statements after it shift.
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

Proc specialize(const Proc& p, const CursorLike& block, const std::vector<std::string>& conds) {
  return rw::run_op("specialize", [&]() -> Proc {
    Cursor c = rw::resolve_block(p, block);
    if (conds.empty()) rw::fail(reason::kArgInvalid, c, "expected at least one condition");
    std::vector<Expr> cs;
    for (const std::string& t : conds) cs.push_back(parse_condition(c[0], t, "the condition"));
    // A condition that reads data (`x[i] > 0.0`, `rowptr[i] + 16 <= rowptr[i + 1]`) reads it
    // where the block starts, whether or not the block would have.
    for (const Expr& cond : cs)
      rw::require_safe_to_evaluate_at(c[0], c[0], cond,
                                      "where the block starts, since the condition is evaluated "
                                      "there");

    Block b = c.stmts();
    const Block& list = c.list();
    Block after(list.begin() + c.loc().hi, list.end());
    for (const Stmt& s : b) {
      Sym name;
      if (const AllocNode* a = s.as<AllocNode>()) name = a->name;
      if (const WindowStmtNode* w = s.as<WindowStmtNode>()) name = w->name;
      if (!name.valid()) continue;
      rw::BufferUses later = rw::buffer_uses(after, name);
      if (later.any())
        rw::fail(reason::kScopeEscapes, later.stmts.front().srcinfo(),
                 "the block declares '" + name.name() +
                     "', which is used after it (here); each copy would declare it inside a branch "
                     "of the `if`. Include those uses in the block "
                     "(or move the declaration out of it first)");
    }
    // The block becomes the first branch of the chain of ifs; the others hold fresh copies.
    const SrcInfo& si = b.front().srcinfo();
    const BlockPath& path = c.loc().block;
    return rw::Edit(p)
        .wrap(path, c.loc().lo, c.loc().hi,
              [&](const Block& block) {
                Block chain = alpha_rename(block);
                for (size_t k = cs.size(); k-- > 1;)
                  chain = {IfNode::make(cs[k], alpha_rename(block), chain, si)};
                return IfNode::make(cs[0], block, chain, si);
              })
        .done();
  });
}

}  // namespace exocpp
