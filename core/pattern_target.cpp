// Targets of scheduling operations (core/pattern.h, find_target): the shorthand grammar of each
// target kind and the kind check, in one place for every operation.
#include <regex>

#include "core/parser.h"
#include "core/pattern.h"
#include "core/printer.h"

namespace exocpp {

namespace {

// "name" or "name #n" -> {name, n}; "a b" or "a b #n" -> {a, b, n}.
struct Shorthand {
  std::vector<std::string> names;
  std::optional<size_t> count;
};

std::optional<Shorthand> parse_shorthand(const std::string& text) {
  static const std::regex re(
      R"(^\s*([A-Za-z_]\w*)(?:\s+([A-Za-z_]\w*))?\s*(?:#\s*([0-9]{1,9}))?\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return std::nullopt;
  Shorthand s;
  s.names.push_back(m[1].str());
  if (m[2].matched) s.names.push_back(m[2].str());
  if (m[3].matched) s.count = std::stoul(m[3].str());
  return s;
}

std::string count_suffix(const std::optional<size_t>& n) {
  return n ? " #" + std::to_string(*n) : std::string();
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// A statement kind as a noun phrase: "an assignment", "a loop".
const char* statement_noun(StmtKind k) {
  switch (k) {
    case StmtKind::Assign:
      return "an assignment";
    case StmtKind::Reduce:
      return "a reduction";
    case StmtKind::WriteConfig:
      return "a config write";
    case StmtKind::Pass:
      return "a pass";
    case StmtKind::If:
      return "an if";
    case StmtKind::For:
      return "a loop";
    case StmtKind::Alloc:
      return "an allocation";
    case StmtKind::Call:
      return "a call";
    case StmtKind::WindowStmt:
      return "a window statement";
  }
  return "a statement";
}

// What a cursor points at, for a refusal: "an assignment 'x = 1.0'", "an expression 'i + 1'".
std::string describe_found(const Cursor& c) {
  switch (c.kind()) {
    case CursorKind::Stmt: {
      std::string text = c.to_string();
      if (auto nl = text.find('\n'); nl != std::string::npos) text = text.substr(0, nl);
      return std::string(statement_noun(c.stmt().kind())) + " '" + text + "'";
    }
    case CursorKind::Block:
      return "a block of " + std::to_string(c.size()) + " statements";
    case CursorKind::Gap:
      return "a gap between statements";
    case CursorKind::Expr:
      return "an expression '" + c.to_string() + "'";
    case CursorKind::Arg:
      return "the argument '" + c.name() + "'";
    default:
      return std::string("a ") + to_string(c.kind());
  }
}

[[noreturn]] void wrong_kind(const Cursor& c, TargetKind kind, const std::string& described,
                             const std::string& op, const std::string& why = "") {
  throw SchedulingError(op, reason::kTargetWrongKind, c.is_arg() ? c.proc()->srcinfo : c.srcinfo(),
                        std::string("expected ") + describe(kind) + ", but " + described + " is " +
                            describe_found(c) + why,
                        "", c.current_line());
}

bool is_loop(const Cursor& c) { return c.is_stmt() && c.stmt().is<ForNode>(); }

// A loop whose body is exactly one loop (over `inner`, when given).
bool is_nest(const Cursor& c, const std::string& inner = "") {
  if (!is_loop(c)) return false;
  const ForNode* f = c.stmt().as<ForNode>();
  if (f->body.size() != 1 || !f->body[0].is<ForNode>()) return false;
  return inner.empty() || f->body[0].as<ForNode>()->iter.name() == inner;
}

Cursor find_nest(const Proc& p, const std::string& text, const Shorthand& s,
                 const std::string& op) {
  std::vector<Cursor> nests;
  for (const Cursor& c : find_all(p, "for " + s.names[0] + " in _: _"))
    if (is_nest(c, s.names[1])) nests.push_back(c);
  size_t n = s.count.value_or(0);
  if (n < nests.size()) return nests[n];
  std::string what = "loop over " + s.names[0] + " whose only statement is a loop over " +
                     s.names[1] + " in proc '" + p.name() + "'";
  if (!s.count)
    throw SchedulingError(op, reason::kTargetNoMatch, p->srcinfo,
                          "no " + what + " (pattern " + quoted(text) + ")");
  throw SchedulingError(
      op, reason::kTargetCount, p->srcinfo,
      "pattern " + quoted(text) + " asks for match #" + std::to_string(n) +
          " (counting from 0), but there " +
          (nests.size() == 1 ? "is only 1 " : "are only " + std::to_string(nests.size()) + " ") +
          what);
}

}  // namespace

const char* describe(TargetKind k) {
  switch (k) {
    case TargetKind::Any:
      return "a target";
    case TargetKind::Stmt:
      return "a statement";
    case TargetKind::Loop:
      return "a loop";
    case TargetKind::LoopNest:
      return "a nest of two loops (a loop whose body is exactly one loop)";
    case TargetKind::Block:
      return "a block of statements";
    case TargetKind::Gap:
      return "a gap between statements";
    case TargetKind::Alloc:
      return "an allocation or argument";
    case TargetKind::Expr:
      return "an expression";
  }
  return "a target";
}

Cursor as_target(const Cursor& found, TargetKind kind, const std::string& described,
                 const std::string& op) {
  Cursor c = found;
  bool stmt_kind = kind == TargetKind::Stmt || kind == TargetKind::Loop ||
                   kind == TargetKind::LoopNest || kind == TargetKind::Gap ||
                   kind == TargetKind::Alloc;
  if (stmt_kind && c.is_block() && c.size() == 1) c = c[0];
  switch (kind) {
    case TargetKind::Any:
      return c;
    case TargetKind::Stmt:
      if (!c.is_stmt()) wrong_kind(c, kind, described, op);
      return c;
    case TargetKind::Loop:
      if (!is_loop(c)) wrong_kind(c, kind, described, op);
      return c;
    case TargetKind::LoopNest:
      if (!is_loop(c)) wrong_kind(c, kind, described, op);
      if (!is_nest(c)) {
        const ForNode* f = c.stmt().as<ForNode>();
        throw SchedulingError(
            op, reason::kTargetWrongKind, c.srcinfo(),
            std::string("expected ") + describe(kind) + ", but the body of loop " + f->iter.name() +
                " (" + described + ") is not one loop" +
                (f->body.size() == 1
                     ? ""
                     : ": it holds " + std::to_string(f->body.size()) + " statements"));
      }
      return c;
    case TargetKind::Block:
      if (c.is_stmt()) return c.as_block();
      if (!c.is_block()) wrong_kind(c, kind, described, op);
      return c;
    case TargetKind::Gap:
      if (c.is_stmt()) return c.after();
      if (!c.is_gap()) wrong_kind(c, kind, described, op);
      return c;
    case TargetKind::Alloc:
      if (c.is_arg() || (c.is_stmt() && c.stmt().kind() == StmtKind::Alloc)) return c;
      wrong_kind(c, kind, described, op);
    case TargetKind::Expr:
      if (!c.is_expr()) wrong_kind(c, kind, described, op);
      return c;
  }
  return c;
}

Cursor find_target(const Proc& p, const std::string& pattern, TargetKind kind,
                   const std::string& op) {
  // "_" (anything) and keywords ("pass") are patterns, never names; Any and Expr take patterns as
  // written.
  std::optional<Shorthand> s;
  if (kind != TargetKind::Any && kind != TargetKind::Expr) s = parse_shorthand(pattern);
  if (s && (s->names[0] == "_" || is_keyword(s->names[0]))) s.reset();  // "pass" is a statement
  if (s && s->names.size() == 2) {
    if (kind != TargetKind::LoopNest)
      throw SchedulingError(op, reason::kTargetWrongKind, p->srcinfo,
                            std::string("expected ") + describe(kind) + ", but " + quoted(pattern) +
                                " names a nest of two loops");
    return find_nest(p, pattern, *s, op);
  }
  std::string resolved = pattern;
  if (s) {
    const std::string& name = s->names[0];
    switch (kind) {
      case TargetKind::Loop:
      case TargetKind::LoopNest:
      case TargetKind::Stmt:
      case TargetKind::Block:
      case TargetKind::Gap:
        resolved = "for " + name + " in _: _" + count_suffix(s->count);
        break;
      case TargetKind::Alloc:
        if (!s->count)
          for (const Cursor& a : proc_args(p))
            if (a.arg().name.name() == name) return a;
        resolved = name + ": _" + count_suffix(s->count);
        break;
      case TargetKind::Any:
      case TargetKind::Expr:
        break;
    }
  }
  Cursor c;
  try {
    c = find(p, resolved);
  } catch (const SchedulingError& e) {
    std::string text = e.reason();
    if (resolved != pattern) text += " (" + quoted(pattern) + " names " + describe(kind) + ")";
    throw SchedulingError(op, e, text);
  }
  return as_target(c, kind, quoted(pattern), op);
}

}  // namespace exocpp
