// Configuration-state operations (Exo's config_ops): bind an expression to a config field,
// insert a config write, delete a redundant or dead one. Legality follows Exo's rule for
// inserting or deleting a config write (Check_DeleteConfigWrite), decided by
// checker/queries_config.h: the change must not alter what any later read of the field sees —
// the field already holds the value written, or no later code reads it before a write replaces
// it. When the written value reaches the end of the proc unread, only the config state the
// caller sees afterwards changes, which Exo (and exocpp) allows.
#pragma once

#include <string>

#include "core/ir.h"
#include "rewrites/target.h"

namespace exocpp {

//   s[ e ]   -->   config.field = e ; s[ config.field ]
// `expr` names a scalar expression; the write goes right before the statement holding it.
Proc bind_config(const Proc& p, const CursorLike& expr, const Config& config,
                 const std::string& field);

//   s1 ; config.field = e ; s3   -->   s1 ; s3
Proc delete_config(const Proc& p, const CursorLike& write_stmt);

//   s1 ; <gap> ; s3   -->   s1 ; config.field = rhs ; s3
// `rhs` is parsed in the scope of the gap.
Proc write_config(const Proc& p, const CursorLike& gap, const Config& config,
                  const std::string& field, const std::string& rhs);

}  // namespace exocpp
