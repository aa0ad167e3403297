// Names an operation introduces: the one validator of new names (syntax, keywords, clashes with
// procs, configs and bindings) and fresh symbols.
#pragma once

#include <string>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"

namespace exocpp::rw {

// The one validator of every name an operation introduces. A new name must be a name of the
// procedure language (is_identifier), not one of its keywords (`for`, `if`, ...), and not the
// name of a proc or config `p` refers to (directly or through its callees): otherwise the
// printed proc would not parse back, or would mean something else. Throws SchedulingError
// naming `op`, the bad name and `what` it was meant to be ("new name": "'for' is not a valid
// new name: it is a keyword ...").
void check_new_name(const Proc& p, const std::string& name, const Cursor& where,
                    const std::string& what = "new name");
// The same for a new proc name (rename, extract_subproc): it must also differ from `p`'s own
// name when `other_than_self` (a second proc beside `p`) and from every proc `p` calls,
// transitively, since codegen emits them into one library.
void check_new_proc_name(const Proc& p, const std::string& name, const SrcInfo& where,
                         bool other_than_self);
// A call of `callee` about to be put into `p` (replace, call_eqv, insert_noop_call): refused
// when `callee`, or a proc it calls, has `p`'s name, since a printed module cannot define both
// and C cannot emit both.
void check_callee_name(const Proc& p, const Proc& callee, const Cursor& where);
// Where a new binding is visible: from `where` to the end of its statement list (a buffer or
// window put before `where`), or only inside the statements `where` covers (a loop that
// replaces or wraps them: divide_loop's, mult_loops', add_loop's).
enum class NameScope { RestOfList, Statements };
// A fresh symbol named `name`: check_new_name, and `name` must not be used in `p` where the
// new binding would be visible (argument, loop, buffer): throws SchedulingError then, because
// a printed proc must not be ambiguous. The name may repeat in sibling scopes.
Sym fresh_name(const Proc& p, const std::string& name, const Cursor& where,
               NameScope scope = NameScope::RestOfList);
// A name of the procedure language: a letter or '_', then letters, digits and '_'.
bool is_identifier(const std::string& s);
// Every name bound in `p` (arguments, loop variables, allocations, windows).
std::vector<std::string> bound_names(const Proc& p);
// A loop-variable name based on `base` ("i0", then "i0_1", ...) not bound anywhere in `p` nor
// in `taken`; the chosen name is added to `taken`.
Sym fresh_iter(const Proc& p, const std::string& base, std::vector<std::string>& taken);
// `base`, or `base_1`, `base_2`, ...: a name bound nowhere in `p`, for a buffer a composite
// introduces (the composite's primitive then validates it as a new name).
std::string unused_name(const Proc& p, const std::string& base);

}  // namespace exocpp::rw
