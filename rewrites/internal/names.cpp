// New names and fresh symbols (rewrites/internal/names.h).
#include "rewrites/internal/names.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/uses.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"

namespace exocpp::rw {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char ch : s)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) return false;
  return true;
}

std::vector<std::string> bound_names(const Proc& p) {
  std::set<std::string> names;
  for (const FnArg& a : p.args()) names.insert(a.name.name());
  for (const Sym& s : uses_of(p.body()).bound) names.insert(s.name());
  return {names.begin(), names.end()};
}

namespace {
// The procs `p` calls, transitively (each once), and the configs they and `p` use.
struct Referenced {
  std::vector<const ProcNode*> procs;
  std::set<std::string> configs;
};
class RefCollector : public IRVisitor {
 public:
  Referenced out;
  std::set<const ProcNode*> seen;
  void proc(const ProcNode& n) { visit_proc(n); }

 protected:
  void visit_Call(const CallNode* n, const Stmt& s) override {
    if (n->proc && seen.insert(n->proc.get()).second) {
      out.procs.push_back(n->proc.get());
      proc(*n->proc);
    }
    IRVisitor::visit_Call(n, s);
  }
  void visit_WriteConfig(const WriteConfigNode* n, const Stmt& s) override {
    if (n->config) out.configs.insert(n->config->name);
    IRVisitor::visit_WriteConfig(n, s);
  }
  void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
    if (n->config) out.configs.insert(n->config->name);
    IRVisitor::visit_ReadConfig(n, e);
  }
};
Referenced referenced(const Proc& p) {
  RefCollector c;
  c.seen.insert(p.get());
  c.proc(*p.get());
  return c.out;
}

// Syntax and keywords; returns the reason the name is refused, or "".
std::string name_syntax_problem(const std::string& name) {
  if (name.empty()) return "a name cannot be empty";
  if (!is_identifier(name))
    return "it is not a name of the procedure language (a letter or '_', then letters, digits and "
           "'_')";
  if (is_keyword(name)) return "it is a keyword of the procedure language";
  return "";
}

std::string quoted_name(const std::string& name) {
  std::string q;
  for (char ch : name) {
    if (ch == '\n')
      q += "\\n";
    else if (ch == '\t')
      q += "\\t";
    else if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
      q += "?";
    else
      q += ch;
  }
  return "'" + q + "'";
}
}  // namespace

void check_new_name(const Proc& p, const std::string& name, const Cursor& where,
                    const std::string& what) {
  auto refuse = [&](const std::string& why) {
    std::string msg = quoted_name(name) + " is not a valid " + what + ": " + why;
    if (where.is_valid()) fail(reason::kArgName, where, msg);
    fail(reason::kArgName, p->srcinfo, msg);
  };
  if (std::string why = name_syntax_problem(name); !why.empty()) refuse(why);
  Referenced refs = referenced(p);
  for (const ProcNode* q : refs.procs)
    if (q->name == name) refuse("proc '" + p.name() + "' calls a proc of that name");
  if (refs.configs.count(name)) refuse("proc '" + p.name() + "' uses a config of that name");
}

void check_new_proc_name(const Proc& p, const std::string& name, const SrcInfo& where,
                         bool other_than_self) {
  auto refuse = [&](const std::string& why) {
    fail(reason::kArgName, where, quoted_name(name) + " is not a valid proc name: " + why);
  };
  if (std::string why = name_syntax_problem(name); !why.empty()) refuse(why);
  if (other_than_self && name == p.name())
    refuse("it is the name of proc '" + p.name() + "' itself");
  Referenced refs = referenced(p);
  for (const ProcNode* q : refs.procs)
    if (q->name == name) refuse("proc '" + p.name() + "' calls another proc of that name");
  if (refs.configs.count(name)) refuse("proc '" + p.name() + "' uses a config of that name");
}

void check_callee_name(const Proc& p, const Proc& callee, const Cursor& where) {
  auto refuse = [&](const std::string& why) {
    fail(reason::kArgName, where,
         "proc '" + p.name() + "' cannot call '" + callee.name() + "': " + why);
  };
  if (callee.name() == p.name()) refuse("it has the same name as the caller (rename one of them)");
  for (const ProcNode* q : referenced(callee).procs)
    if (q->name == p.name())
      refuse("it calls a proc named '" + p.name() + "' like the caller (rename one of them)");
}

Sym fresh_name(const Proc& p, const std::string& name, const Cursor& where, NameScope scope) {
  check_new_name(p, name, where);
  // A name may repeat in sibling scopes (stage_mem's copy loops do), but it must neither shadow
  // a name visible at `where` nor be shadowed by one bound in the new name's scope: the rest of
  // the statement list from `where` on, or only the statements `where` covers.
  auto clash = [&] {
    fail(reason::kArgName, where,
         "the name '" + name + "' is already used in proc '" + p.name() +
             "' where it would be visible");
  };
  Cursor at = where.is_valid() ? where : proc_body(p);
  for (const ScopeVar& v : scope_at(at))
    if (v.sym.name() == name) clash();
  if (!at.is_arg()) {
    const Block& list = at.list();
    size_t end = list.size();
    if (scope == NameScope::Statements)
      end = std::min(end, static_cast<size_t>(std::max(at.loc().hi, at.loc().lo + 1)));
    for (size_t i = static_cast<size_t>(std::max(at.loc().lo, 0)); i < end; ++i)
      for (const Sym& s : uses_of(list[i]).bound)
        if (s.name() == name) clash();
  } else {
    for (const std::string& n : bound_names(p))
      if (n == name) clash();
  }
  return Sym(name);
}

Sym fresh_iter(const Proc& p, const std::string& base, std::vector<std::string>& taken) {
  std::vector<std::string> bound = bound_names(p);
  auto used = [&](const std::string& n) {
    return std::find(bound.begin(), bound.end(), n) != bound.end() ||
           std::find(taken.begin(), taken.end(), n) != taken.end();
  };
  std::string name = base;
  for (int k = 1; used(name); ++k) name = base + "_" + std::to_string(k);
  taken.push_back(name);
  return Sym(name);
}

std::string unused_name(const Proc& p, const std::string& base) {
  std::vector<std::string> none;
  return fresh_iter(p, base, none).name();
}

}  // namespace exocpp::rw
