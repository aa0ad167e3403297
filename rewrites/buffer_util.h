// Private helpers of the buffer operations (rewrites/buffers.h): the names in scope at a
// target, what a block does with a buffer, rewriting every access of a buffer, and moving a
// statement with its cursors.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"
#include "core/ir_visit.h"
#include "core/parser.h"
#include "core/uses.h"
#include "rewrites/common.h"

namespace exocpp::rw {

// The variables visible at `c` (a statement, block, gap or expression cursor): the proc's
// arguments, the loops around it and the allocations and windows before it.

// Parses `text` (a user's expression) in the scope of `c`.
Expr parse_at(const Cursor& c, const std::string& text, bool allow_window = false);

// What a block does with buffer `buf`.
struct BufferUses {
  bool read = false;        // x[..] in an expression (not as a whole)
  bool write = false;       // x[..] = .., or an element or window of x passed to a call
  bool reduce = false;      // x[..] += ..
  bool window = false;      // x[a:b, ..] window expression
  bool whole = false;       // x passed whole (a call argument)
  bool stride = false;      // stride(x, d)
  std::vector<Stmt> stmts;  // the innermost statements mentioning x, in order
  bool any() const { return !stmts.empty(); }
};
BufferUses buffer_uses(const Block& b, const Sym& buf);
BufferUses buffer_uses(const Stmt& s, const Sym& buf);
// The names through which code of `p` reaches `buf`'s storage: buf itself and every window
// statement onto it (`w = buf[...]`, and windows of those), in order.
std::vector<Sym> names_of_storage(const Proc& p, const Sym& buf);
// What a block does with `buf`'s storage, directly or through a window statement onto it (the
// uses of each name of names_of_storage merged): the one question for "is buf used here".
BufferUses storage_uses(const Proc& p, const Block& b, const Sym& buf);
BufferUses storage_uses(const Proc& p, const Stmt& s, const Sym& buf);

// Rewrites every access of `buf` (reads, writes, reductions, windows); a hook left empty keeps
// that kind of access as it is (renamed to `new_name` when set). Indices are simplified.
struct AccessMap {
  Sym buf;
  Sym new_name;  // invalid: keep the name
  std::function<std::vector<Expr>(const std::vector<Expr>&)> idx;
  std::function<std::vector<WAccess>(const std::vector<WAccess>&)> window;
  std::function<Expr(const StrideExprNode*)> stride;
};
Block map_accesses(const Block& b, const AccessMap& m);
Stmt map_accesses(const Stmt& s, const AccessMap& m);

// Forwarding of "statement `from_idx` of list `from` moved to position `to_idx` of list `to`"
// where `to` and `to_idx` are given in the coordinates after the removal.
ForwardFn fwd_move_stmt(BlockPath from, int from_idx, BlockPath to, int to_idx);

// 0, as an index expression.
Expr zero();
Expr add(const Expr& a, const Expr& b);  // simplified a + b
Expr sub(const Expr& a, const Expr& b);  // simplified a - b

}  // namespace exocpp::rw

namespace exocpp::rw {
// The memory of a buffer argument, allocation or window (that of its root buffer); "DRAM"
// when unknown.
std::string mem_of(const Proc& p, const Sym& buf);
// A loop-variable name based on `base` ("i0", then "i0_1", ...) not bound anywhere in `p` nor
// in `taken`; the chosen name is added to `taken`.
Sym fresh_iter(const Proc& p, const std::string& base, std::vector<std::string>& taken);
}  // namespace exocpp::rw

namespace exocpp::rw {
// For the reshaping operations (defined in expand_dim.cpp): the allocation named by `alloc`
// (an argument is refused), and an integer expression parsed at it.
Cursor resolve_alloc_stmt(const std::string& op, const Proc& p, const CursorLike& alloc);
Expr parse_index_at(const std::string& op, const Cursor& a, const std::string& text,
                    const std::string& what);
}  // namespace exocpp::rw

namespace exocpp::rw {
// expand_dim on parsed expressions (for autolift_alloc too): a new dimension of size `dim`,
// first (or last when `append`), that existing accesses index with `idx`.
Proc expand_dim_with(const std::string& op, const Proc& p, const Cursor& alloc, const Expr& dim,
                     const Expr& idx, bool append);
}  // namespace exocpp::rw

namespace exocpp::rw {
// Refuses a buffer extent that is not built from the proc's arguments and constants (the type
// checker's rule for shapes): `what` names it in the message.
void require_size_expr(const std::string& op, const Cursor& where, const Expr& e,
                       const std::string& what);
}  // namespace exocpp::rw
