// Expression simplification. (Placeholder until the simplifier lands: returns its input.)
#include "core/simplify.h"

namespace exocpp {

Expr simplify_expr(const Expr& e) { return e; }
Stmt simplify_stmt(const Stmt& s) { return s; }
Block simplify_block(const Block& b) { return b; }

}  // namespace exocpp
