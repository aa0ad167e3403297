// What a piece of IR refers to: the one answer to "which names does this code read or write,
// which config fields, which procs does it call". Every layer asks it here instead of writing
// its own visitor.
#pragma once

#include <set>
#include <string>
#include <utility>

#include "core/ir.h"

namespace exocpp {

// A config field, as `Cfg.field`.
using ConfigFieldRef = std::pair<const ConfigNode*, std::string>;

struct Uses {
  // Symbols read: scalar variables, buffer elements, buffers windowed, strided or passed whole.
  std::set<Sym> read;
  // Buffers assigned or reduced into by the code itself (not through a call); `reduced` holds
  // those reduced into (`x += e` reads x as well as writing it).
  std::set<Sym> written, reduced;
  // Buffers passed to a call as data arguments (whole or windowed): the callee may write them.
  std::set<Sym> passed;
  // Config fields read by expressions of the code, and written by it or any proc it calls
  // (transitively; each callee is summarised once).
  std::set<ConfigFieldRef> config_reads, config_writes;
  // Symbols the code binds: loop variables, allocations, window statements.
  std::set<Sym> bound;
  // Procs called directly.
  std::set<const ProcNode*> callees;
  // Whether an expression reads a buffer element or a config field (so it is not a fact about
  // control variables alone).
  bool reads_data = false;

  // Whether the code reads or writes `s` (a binding of `s` alone does not count).
  bool mentions(const Sym& s) const { return read.count(s) > 0 || written.count(s) > 0; }
};

Uses uses_of(const Expr& e);
Uses uses_of(const Block& b);
Uses uses_of(const Stmt& s);
Uses uses_of(const Type& t);  // the expressions of its shape

// uses_of(x).mentions(s).
bool mentions(const Expr& e, const Sym& s);
bool mentions(const Block& b, const Sym& s);
bool mentions(const Type& t, const Sym& s);

}  // namespace exocpp
