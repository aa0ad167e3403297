// ============================================================================================
// make_instr: turn a proc into a hardware instruction.
// ============================================================================================
//
//   def f(args): s   -->   @instr("c_instr")
//                          def f(args): s          (c_global emitted once, before its use)
//
// The body stays: it is the instruction's meaning, which replace() unifies with and the
// interpreter runs. The template's holes must name arguments: `{x}` (the argument itself) or
// `{x_data}` (a buffer's data pointer); other braces are C text and must balance. Nothing inside
// the proc moves, so every cursor forwards to itself, and the instruction stays equivalent
// to the proc it was made from (call_eqv may swap one for the other).
#include "core/printer.h"
#include "core/typecheck.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/subprocs.h"

namespace exocpp {

namespace {

// Refuses a template codegen could not emit (core's instr_template_problem, which the parser
// and the type checker ask too).
void check_template(const Proc& p, const std::string& c_instr) {
  if (std::string why = instr_template_problem(*p.get(), c_instr); !why.empty())
    rw::fail(reason::kArgInvalid, p->srcinfo,
             "the @instr template of '" + p.name() + "' cannot be emitted: " + why);
}

}  // namespace

Proc make_instr(const Proc& p, const std::string& c_instr, const std::string& c_global) {
  return rw::run_op("make_instr", [&]() -> Proc {
    check_template(p, c_instr);
    rw::Edit edit(p);
    edit.node().instr = InstrInfo{c_instr, c_global, "", "", ""};
    return edit.done();
  });
}

}  // namespace exocpp
