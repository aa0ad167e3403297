// ============================================================================================
// set_memory: change the memory of an allocation or data argument.
// ============================================================================================
//
//   x : T @ M   -->   x : T @ mem
//
// Legality: the memory is registered (by name), the target is a data buffer, and no plain code
// (code outside @instr procs) of the proc reads or writes the buffer (or a window of it) when
// the memory does not allow that (Memory::can_read() false): only instruction calls may take
// it then. The type checker decides this on the candidate proc and names the access at fault.
#include "rewrites/config_util.h"
#include "rewrites/memories.h"

namespace exocpp {

namespace {
const char* kOp = "set_memory";

std::string registered() {
  std::string have;
  for (const std::string& n : memory_names()) have += (have.empty() ? "" : ", ") + n;
  return have;
}

Proc apply(const Proc& p, const CursorLike& target, const std::string& mem) {
  Cursor c = rw::resolve_alloc(kOp, p, target);
  if (c.is_arg() && !c.arg().type.is_data())
    rw::fail(kOp, c, "'" + c.name() + "' is a control argument; only data buffers live in a memory");
  ProcNode candidate = rw::with_declaration(c, [&](Type&, std::string& m) { m = mem; });
  rw::typecheck_candidate(kOp, candidate, "'" + c.name() + "' cannot live in " + mem);
  if (c.is_arg()) return derive_proc(p, std::make_shared<const ProcNode>(std::move(candidate)), fwd_identity());
  return derive_proc(p, std::move(candidate.body), fwd_identity());
}
}  // namespace

Proc set_memory(const Proc& p, const CursorLike& alloc_or_arg, const Memory& mem) {
  return rw::run_op(kOp, [&]() -> Proc {
    if (!find_memory(mem.name()))
      rw::fail(kOp, p->srcinfo, "memory " + mem.name() + " is not registered (register_memory); registered: " +
                                    registered());
    return apply(p, alloc_or_arg, mem.name());
  });
}

Proc set_memory(const Proc& p, const CursorLike& alloc_or_arg, const std::string& mem_name) {
  return rw::run_op(kOp, [&]() -> Proc {
    if (!find_memory(mem_name))
      rw::fail(kOp, p->srcinfo, "unknown memory '" + mem_name + "' (registered memories: " + registered() + ")");
    return apply(p, alloc_or_arg, mem_name);
  });
}

}  // namespace exocpp
