// ============================================================================================
// stage_window: Exo's stage_window — a window passed to a call (or named by a window
// statement) copied into a new buffer for that statement.
// ============================================================================================
//
//   g(x[i, 0:16])   -->   buf: T[16] @ mem
//                         for i0 in seq(0, 16): buf[i0] = x[i, i0]       (when g reads it)
//                         g(buf[0:16])
//                         for i0 in seq(0, 16): x[i, i0] = buf[i0]       (when g writes it)
//
// It is stage_mem of the window around its statement (which proves the copies cover every
// access the statement makes and keeps the values: rewrites/stage_mem.cpp), then set_memory of
// the new buffer when a memory is named. Refused: a target that is not a window expression,
// and whatever stage_mem or set_memory refuses, under this operation's name.
#include "core/printer.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/memories.h"

namespace exocpp {

Proc stage_window(const Proc& p, const CursorLike& window, const std::string& new_name,
                  const std::string& memory) {
  return rw::run_op("stage_window", [&]() -> Proc {
    Cursor w = rw::resolve_expr(p, window);
    if (!w.expr().is<WindowExprNode>()) rw::fail_wrong_kind(w, "a window expression (x[i, 0:16])");
    Cursor stmt = w.parent();
    while (stmt.is_valid() && stmt.is_expr()) stmt = stmt.parent();
    Proc q = stage_mem(p, stmt, to_string(w.expr()), new_name);
    if (!memory.empty()) q = set_memory(q, new_name + " : _", memory);
    return q;
  });
}

}  // namespace exocpp
