// rearrange_dim: permute the dimensions of a buffer.
//
//   rearrange_dim(p, "x", {2, 0, 1})
//   x : T[N, M, K] ; s      -->      x : T[K, N, M] ; s[ x[a, b, c] -> x[c, a, b] ]
//
// New dimension k is old dimension permute_vector[k]. Always legal for element accesses;
// refused when x is passed whole, its stride is taken, or a window of it would have its own
// dimensions transposed.
#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/layout.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

Proc rearrange_dim(const Proc& p, const CursorLike& alloc, const std::vector<int>& permute_vector) {
  return rw::run_op("rearrange_dim", [&]() -> Proc {
    Cursor a = rw::resolve_alloc_stmt(p, alloc);
    const AllocNode* an = a.stmt().as<AllocNode>();
    const int rank = an->type.rank();
    std::vector<int> perm = permute_vector;
    std::vector<bool> seen(rank, false);
    bool ok = static_cast<int>(perm.size()) == rank;
    for (int k : perm) {
      ok = ok && k >= 0 && k < rank && !seen[k];
      if (k >= 0 && k < rank) seen[k] = true;
    }
    if (!ok) {
      std::string got;
      for (int k : perm) got += (got.empty() ? "" : ", ") + std::to_string(k);
      rw::fail(reason::kArgInvalid, a,
               "{" + got + "} is not a permutation of the " + std::to_string(rank) +
                   " dimensions of '" + a.name() + "'");
    }
    const BlockPath path = a.loc().block;
    const int ai = a.loc().lo;
    const Block& list = a.list();
    Block rest(list.begin() + ai + 1, list.end());
    rw::BufferUses uses = rw::buffer_uses(rest, an->name);
    if (uses.whole)
      rw::fail(
          reason::kBufferLayoutUse, a,
          "'" + a.name() + "' is passed whole to a call, which would see its dimensions permuted");
    if (uses.stride)
      rw::fail(reason::kBufferLayoutUse, a,
               "the code takes a stride of '" + a.name() + "', which permuting would change");
    std::string bad;  // the first window whose kept dimensions the permutation reorders
    for_each_expr(rest, [&](const Expr& e) {
      const WindowExprNode* n = e.as<WindowExprNode>();
      if (!n || n->name != an->name) return;
      int last = -1;
      for (int old : perm)
        if (n->idx[old].is_interval) {
          if (old < last && bad.empty()) bad = to_string(e);
          last = old;
        }
    });
    if (!bad.empty())
      rw::fail(reason::kBufferLayoutUse, a,
               "the window '" + bad + "' would have its dimensions transposed by the permutation");

    std::vector<Expr> shape;
    for (int k : perm) shape.push_back(an->type.shape[k]);
    Stmt new_alloc = AllocNode::make(an->name, Type(an->type.base, shape), an->mem, an->srcinfo);
    rw::AccessMap m;
    m.buf = an->name;
    m.idx = [&perm](const std::vector<Expr>& i) {
      std::vector<Expr> out;
      for (int k : perm) out.push_back(i[k]);
      return out;
    };
    m.window = [&perm](const std::vector<WAccess>& w) {
      std::vector<WAccess> out;
      for (int k : perm) out.push_back(w[k]);
      return out;
    };
    rw::Edit edit(p);
    edit.redeclare(path, ai, new_alloc, m);
    rw::require_layout_observations_kept(a, p, edit.candidate(), {{an->name}, {an->name}, {}});
    return edit.done();
  });
}

}  // namespace exocpp
