// ============================================================================================
// set_memory: change the memory of an allocation or data argument.
// ============================================================================================
//
//   x : T @ M   -->   x : T @ mem
//
// Legality: the memory is registered (by name), the target is a data buffer, and the proc
// still type-checks. As in Exo, a buffer may be put in a memory plain code cannot touch
// (Memory::can_read() false, e.g. AVX512 registers) while its copy loops are still plain code:
// the usual order is stage_mem, set_memory, then replace those loops by instructions. Plain
// code left touching such a buffer is refused where it stands: by codegen (a CodegenError
// naming the access) and by typecheck() of the finished proc.
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/memories.h"

namespace exocpp {

namespace {

std::string registered() {
  std::string have;
  for (const std::string& n : memory_names()) have += (have.empty() ? "" : ", ") + n;
  return have;
}

Proc apply(const Proc& p, const CursorLike& target, const std::string& mem) {
  Cursor c = rw::resolve_alloc(p, target);
  if (c.is_arg() && !c.arg().type.is_data())
    rw::fail(reason::kTargetWrongKind, c,
             "'" + c.name() + "' is a control argument; only data buffers live in a memory");
  rw::Edit edit(p);
  edit.declaration(c, [&](Type&, std::string& m) { m = mem; });
  rw::typecheck_candidate(edit.node(), "'" + c.name() + "' cannot live in " + mem);
  return edit.done();
}
}  // namespace

Proc set_memory(const Proc& p, const CursorLike& alloc_or_arg, const Memory& mem) {
  return rw::run_op("set_memory", [&]() -> Proc {
    if (!find_memory(mem.name()))
      rw::fail(reason::kArgUndefined, p->srcinfo,
               "memory " + mem.name() +
                   " is not registered (register_memory); registered: " + registered());
    return apply(p, alloc_or_arg, mem.name());
  });
}

Proc set_memory(const Proc& p, const CursorLike& alloc_or_arg, const std::string& mem_name) {
  return rw::run_op("set_memory", [&]() -> Proc {
    if (!find_memory(mem_name))
      rw::fail(reason::kArgUndefined, p->srcinfo,
               "unknown memory '" + mem_name + "' (registered memories: " + registered() + ")");
    return apply(p, alloc_or_arg, mem_name);
  });
}

}  // namespace exocpp
