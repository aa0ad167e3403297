// ============================================================================================
// make_instr: turn a proc into a hardware instruction.
// ============================================================================================
//
//   def f(args): s   -->   @instr("c_instr")
//                          def f(args): s          (c_global emitted once, before its use)
//
// The body stays: it is the instruction's meaning, which replace() unifies with and the
// interpreter runs. The template's holes must name arguments: `{x}` (the argument itself) or
// `{x_data}` (a buffer's data pointer); `{{` and `}}` stand for literal braces. Nothing inside
// the proc moves, so every cursor forwards to itself, and the instruction stays equivalent
// to the proc it was made from (call_eqv may swap one for the other).
#include "rewrites/subprocs.h"

namespace exocpp {

namespace {
const char* kOp = "make_instr";

std::string arg_list(const ProcNode& p) {
  std::string out;
  for (const FnArg& a : p.args) out += (out.empty() ? "" : ", ") + a.name.name();
  return out.empty() ? "(none)" : out;
}

// Refuses a hole of `c_instr` that names no argument, and unpaired braces.
void check_template(const Proc& p, const std::string& c_instr) {
  auto is_arg = [&](const std::string& n) {
    for (const FnArg& a : p.args())
      if (a.name.name() == n) return true;
    return false;
  };
  for (size_t i = 0; i < c_instr.size(); ++i) {
    const char ch = c_instr[i];
    if ((ch == '{' || ch == '}') && i + 1 < c_instr.size() && c_instr[i + 1] == ch) {
      ++i;  // an escaped brace
      continue;
    }
    if (ch == '}')
      rw::fail(kOp, p->srcinfo, "the template has a '}' at offset " + std::to_string(i) +
                                    " that closes no hole (write '}}' for a literal brace)");
    if (ch != '{') continue;
    size_t close = c_instr.find('}', i + 1);
    if (close == std::string::npos)
      rw::fail(kOp, p->srcinfo, "the template has a '{' at offset " + std::to_string(i) +
                                    " that is never closed (write '{{' for a literal brace)");
    const std::string hole = c_instr.substr(i + 1, close - i - 1);
    const std::string suffix = "_data";
    bool ok = is_arg(hole);
    if (!ok && hole.size() > suffix.size() && hole.compare(hole.size() - suffix.size(), suffix.size(), suffix) == 0) {
      const std::string base = hole.substr(0, hole.size() - suffix.size());
      ok = is_arg(base);
      for (const FnArg& a : p.args())
        if (a.name.name() == base && a.type.is_control())
          rw::fail(kOp, p->srcinfo, "the template hole {" + hole + "} asks for the data pointer of '" + base +
                                        "', which is a control value (" + to_string(a.type) + "), not a buffer");
    }
    if (!ok)
      rw::fail(kOp, p->srcinfo, "the template hole {" + hole + "} names no argument of '" + p.name() +
                                    "' (arguments: " + arg_list(*p.get()) + "; use {x} or {x_data})");
    i = close;
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
