// FormattedExprStr (core/formatted_expr.h): the holes' expressions are kept in a registry
// under reserved names, which the string carries to the operation that parses it.
#include "core/formatted_expr.h"

#include <cctype>
#include <map>
#include <mutex>

#include "core/errors.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/uses.h"

namespace exocpp {

namespace {

constexpr char kHolePrefix[] = "_fexpr_hole_";

struct HoleRegistry {
  std::mutex mu;
  std::map<std::string, Expr> holes;
  uint64_t next = 0;
};
HoleRegistry& registry() {
  static HoleRegistry r;
  return r;
}

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Replaces each read of a hole's symbol by the hole's expression.
class FillHoles : public IRMutator {
 public:
  explicit FillHoles(const std::map<uint64_t, Expr>& by_sym) : by_sym_(by_sym) {}
  using IRMutator::mutate;

 protected:
  Expr mutate_Read(const ReadNode* n, const Expr& e) override {
    auto it = by_sym_.find(n->name.id());
    if (it != by_sym_.end() && n->idx.empty()) return it->second;
    return IRMutator::mutate_Read(n, e);
  }

 private:
  const std::map<uint64_t, Expr>& by_sym_;
};

}  // namespace

FormattedExprStr::FormattedExprStr(const std::string& fmt, const std::vector<Cursor>& holes) {
  size_t used = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    const bool hole = fmt[i] == '_' && (i == 0 || !is_name_char(fmt[i - 1])) &&
                      (i + 1 == fmt.size() || !is_name_char(fmt[i + 1]));
    if (!hole) {
      text_ += fmt[i];
      continue;
    }
    if (used == holes.size())
      throw ParseError(SrcInfo{}, "FormattedExprStr: the string `" + fmt +
                                      "` contains more holes (`_`) than the " +
                                      std::to_string(holes.size()) + " expression(s) given");
    const Cursor& c = holes[used++];
    if (!c.is_valid() || !c.is_expr())
      throw TypeError(SrcInfo{}, "FormattedExprStr: the cursor given to fill hole " +
                                     std::to_string(used) + " of `" + fmt +
                                     "` must be an expression cursor, but it is " +
                                     (c.is_valid() ? "`" + c.to_string() + "`" : "invalid"));
    HoleRegistry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    const std::string name = kHolePrefix + std::to_string(r.next++) + "_";
    r.holes[name] = c.expr();
    text_ += name;
  }
  if (used != holes.size())
    throw ParseError(SrcInfo{}, "FormattedExprStr: the string `" + fmt + "` contains " +
                                    std::to_string(used) + " hole(s) (`_`) but " +
                                    std::to_string(holes.size()) + " expressions were given");
}

std::string show_holes(const std::string& text) {
  if (text.find(kHolePrefix) == std::string::npos) return text;
  std::string out = text;
  HoleRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (const auto& [name, e] : r.holes)
    for (size_t at = out.find(name); at != std::string::npos; at = out.find(name, at))
      out.replace(at, name.size(), "(" + to_string(e) + ")");
  return out;
}

Expr parse_expr_with_holes(const std::string& text, const std::vector<ScopeVar>& scope,
                           const ParseOptions& opts, bool allow_window) {
  if (text.find(kHolePrefix) == std::string::npos)
    return parse_expr(text, scope, opts, allow_window);
  std::vector<ScopeVar> with_holes = scope;
  std::map<uint64_t, Expr> by_sym;
  {
    HoleRegistry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    for (const auto& [name, e] : r.holes) {
      if (text.find(name) == std::string::npos) continue;
      Sym s(name);
      with_holes.push_back({s, e.type()});
      by_sym[s.id()] = e;
    }
  }
  for (const auto& [id, e] : by_sym) {
    for (const Sym& v : uses_of(e).read) {
      bool found = false;
      for (const ScopeVar& sv : scope) found = found || sv.sym == v;
      if (!found)
        throw ParseError(SrcInfo{}, "the expression `" + to_string(e) +
                                        "` filling a hole of a FormattedExprStr reads '" +
                                        v.name() +
                                        "', which is not found in the current environment");
    }
  }
  Expr parsed = parse_expr(text, with_holes, opts, allow_window);
  return FillHoles(by_sym).mutate(parsed);
}

}  // namespace exocpp
