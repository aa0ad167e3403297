// delete_buffer: remove an allocation nothing uses.
//
//   buf : T ; s        -->        s          (s does not mention buf)
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

Proc delete_buffer(const Proc& p, const CursorLike& alloc) {
  return rw::run_op("delete_buffer", [&]() -> Proc {
    Cursor a = rw::resolve_alloc(p, alloc);
    if (a.is_arg())
      rw::fail(reason::kTargetWrongKind, a, "'" + a.name() + "' is an argument, not an allocation");
    const BlockPath path = a.loc().block;
    const int ai = a.loc().lo;
    const Block& list = a.list();
    const Sym buf = a.stmt().as<AllocNode>()->name;
    for (size_t k = ai + 1; k < list.size(); ++k) {
      rw::BufferUses u = rw::buffer_uses(list[k], buf);
      if (u.any())
        rw::fail(
            reason::kAllocLive, a,
            "'" + a.name() + "' is still used, e.g. by '" +
                Cursor(
                    p,
                    Loc{CursorKind::Stmt, path, static_cast<int>(k), static_cast<int>(k) + 1, {}})
                    .to_string() +
                "'");
    }
    return rw::Edit(p).remove(path, ai, ai + 1).done();
  });
}

}  // namespace exocpp
