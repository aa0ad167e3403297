// Private helper of the sub-procedure operations (rewrites/subprocs.h): substituting a call's
// arguments into its callee's code (inline_proc's body, call_eqv's asserts).
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir.h"
#include "core/ir_visit.h"

namespace exocpp::rw {

// Rewrites code of `callee` as it reads at a call with arguments `actuals`:
//   control argument a      -> its expression
//   buffer argument a       -> the caller's buffer (a whole-buffer argument) or, for a window
//                              argument A[i, lo:hi], accesses composed with it:
//                              a[j] -> A[i, lo + j], a[x:y] -> A[i, lo + x : lo + y],
//                              stride(a, 0) -> stride(A, 1), a (whole) -> A[i, lo:hi]
//   a name the callee binds -> the symbol given by `renames` (if any)
// Every index expression that changed is simplified.
class CallSubst : public IRMutator {
 public:
  CallSubst(const ProcNode& callee, const std::vector<Expr>& actuals,
            std::unordered_map<Sym, Sym, SymHash> renames = {});

 protected:
  Expr mutate_Read(const ReadNode* n, const Expr& e) override;
  Expr mutate_WindowExpr(const WindowExprNode* n, const Expr& e) override;
  Expr mutate_StrideExpr(const StrideExprNode* n, const Expr& e) override;
  Stmt mutate_Assign(const AssignNode* n, const Stmt& s) override;
  Stmt mutate_Reduce(const ReduceNode* n, const Stmt& s) override;
  Stmt mutate_For(const ForNode* n, const Stmt& s) override;
  Stmt mutate_Alloc(const AllocNode* n, const Stmt& s) override;
  Stmt mutate_WindowStmt(const WindowStmtNode* n, const Stmt& s) override;

 private:
  // The buffer (and composed indices) an access `name[idx]` of the callee becomes.
  Sym target(const Sym& name) const;
  std::vector<Expr> indices(const Sym& name, const std::vector<Expr>& idx) const;
  std::vector<Expr> mutate_idx(const std::vector<Expr>& idx);
  const WindowExprNode* window_of(const Sym& name) const;

  std::unordered_map<Sym, Expr, SymHash> actual_;  // callee argument -> call expression
  std::unordered_map<Sym, Sym, SymHash> renames_;
};

}  // namespace exocpp::rw
