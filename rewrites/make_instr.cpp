// ============================================================================================
// make_instr: turn a proc into a hardware instruction.
// ============================================================================================
//
//   def f(args): s   -->   @instr("c_instr")
//                          def f(args): s          (c_global emitted once, before its use)
//
// The body stays: it is the instruction's meaning, which replace() unifies with and the
// interpreter runs. The template's holes must name arguments: `{x}` (the argument itself) or
// `{x_data}` (a buffer's data pointer); other braces are C text. Nothing inside
// the proc moves, so every cursor forwards to itself, and the instruction stays equivalent
// to the proc it was made from (call_eqv may swap one for the other).
#include <cctype>

#include "core/printer.h"
#include "rewrites/subprocs.h"

namespace exocpp {

namespace {
const char* kOp = "make_instr";

std::string arg_list(const ProcNode& p) {
  std::string out;
  for (const FnArg& a : p.args) out += (out.empty() ? "" : ", ") + a.name.name();
  return out.empty() ? "(none)" : out;
}

// Refuses a hole of `c_instr` that codegen could not fill. A hole is `{` identifier `}`, as
// codegen (codegen/c_stmt.cpp) reads templates; other braces (C blocks) are text.
void check_template(const Proc& p, const std::string& c_instr) {
  auto arg_named = [&](const std::string& n) -> const FnArg* {
    for (const FnArg& a : p.args())
      if (a.name.name() == n) return &a;
    return nullptr;
  };
  auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  for (size_t i = c_instr.find('{'); i != std::string::npos; i = c_instr.find('{', i + 1)) {
    size_t j = i + 1;
    while (j < c_instr.size() && ident(c_instr[j])) ++j;
    if (j == i + 1 || j >= c_instr.size() || c_instr[j] != '}') continue;  // not a hole
    const std::string hole = c_instr.substr(i + 1, j - i - 1);
    if (arg_named(hole)) continue;
    const std::string suffix = "_data";
    if (hole.size() > suffix.size() && hole.compare(hole.size() - suffix.size(), suffix.size(), suffix) == 0) {
      const std::string base = hole.substr(0, hole.size() - suffix.size());
      if (const FnArg* a = arg_named(base)) {
        if (!a->type.is_control()) continue;
        rw::fail(kOp, p->srcinfo, "the template hole {" + hole + "} asks for the data pointer of '" + base +
                                      "', which is a control value (" + to_string(a->type) + "), not a buffer");
      }
    }
    rw::fail(kOp, p->srcinfo, "the template hole {" + hole + "} names no argument of '" + p.name() +
                                  "' (arguments: " + arg_list(*p.get()) + "; use {x} or {x_data})");
  }
}

}  // namespace

Proc make_instr(const Proc& p, const std::string& c_instr, const std::string& c_global) {
  return rw::run_op(kOp, [&]() -> Proc {
    check_template(p, c_instr);
    auto node = std::make_shared<ProcNode>(*p.get());
    node->instr = InstrInfo{c_instr, c_global};
    return derive_proc(p, std::shared_ptr<const ProcNode>(std::move(node)), fwd_identity());
  });
}

}  // namespace exocpp
