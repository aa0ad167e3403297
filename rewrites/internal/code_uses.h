// What a block or statement does with buffers, at the level the rewrites ask it (built on
// core/uses.h, which answers for names): a buffer's uses by kind, through window statements
// onto it, read/write sets resolved to root buffers, and bindings still used later.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"
#include "core/uses.h"
#include "core/window_alias.h"

namespace exocpp::rw {

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
// What a block does with `buf`'s storage, directly or through a window statement onto it (the
// uses of each name of WindowAliases::names_of merged): the one question for "is buf used
// here".
BufferUses storage_uses(const Proc& p, const Block& b, const Sym& buf);
BufferUses storage_uses(const Proc& p, const Stmt& s, const Sym& buf);

// Buffers (by symbol) an expression or code reads; windows are resolved to the buffer they view
// through `windows` (usually WindowAliases::of_proc of the proc holding the code).
struct Access {
  std::set<Sym> reads;                  // buffers read (or passed to a call)
  std::set<Sym> writes;                 // buffers assigned, reduced into, or passed to a call
  std::set<std::string> config_reads;   // "Cfg.field"
  std::set<std::string> config_writes;  // "Cfg.field"; "*" when a call may write any
  bool has_call = false;
};
Access accesses(const Expr& e, const WindowAliases& windows);
Access accesses(const Block& b, const WindowAliases& windows);

// The memory of a buffer argument, allocation or window (that of its root buffer); "DRAM"
// when unknown.
std::string mem_of(const Proc& p, const Sym& buf);

// Names bound at the top level of `b` (allocations, windows) that `rest` mentions.
std::vector<std::string> bindings_used_after(const Block& b, const Block& rest);

// Whether expression cursor `c` is a buffer (data) argument of a call: the callee receives
// the caller's location, not a value, so the argument cannot be bound to a new name or
// replaced by an equal value without cutting the callee's writes off from the caller.
bool is_call_buffer_argument(const Cursor& c);

}  // namespace exocpp::rw
