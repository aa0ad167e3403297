// Rendering of source excerpts and error reports.
#include "core/errors.h"

#include <sstream>

namespace exocpp {

std::string SourceFile::line_text(int line) const {
  if (line < 1) return "";
  size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return "";
    ++pos;
  }
  size_t end = text.find('\n', pos);
  std::string s = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return s;
}

std::string SrcInfo::to_string() const {
  if (!known()) return "<unknown>";
  std::ostringstream os;
  os << file->name << ":" << line << ":" << col;
  return os.str();
}

std::string SrcInfo::excerpt() const {
  if (!known()) return "";
  std::string text = file->line_text(line);
  std::string out = "    " + text + "\n    ";
  for (int i = 1; i < col && i <= static_cast<int>(text.size()); ++i)
    out += text[i - 1] == '\t' ? '\t' : ' ';
  out += "^";
  return out;
}

namespace {
std::string trimmed(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b);
}

// The excerpt of a report: the source line with a caret, or, when the code now reads
// differently (a rewrite renamed or rebuilt it), the current text with where it was written.
std::string excerpt(const SrcInfo& loc, const std::string& current) {
  if (current.empty()) return loc.excerpt();
  if (loc.known()) {
    std::string line = loc.file->line_text(loc.line);
    std::string from_col =
        loc.col >= 1 && loc.col <= static_cast<int>(line.size()) ? line.substr(loc.col - 1) : "";
    if (from_col.rfind(current, 0) == 0 || trimmed(line).rfind(current, 0) == 0)
      return loc.excerpt();
    return "    " + current + "\n    ^\n    (written at " + loc.to_string() + " as `" +
           trimmed(line) + "`)";
  }
  return "    " + current + "\n    ^";
}
}  // namespace

static std::string render(const std::string& kind, const std::string& op, const SrcInfo& loc,
                          const std::string& reason, const std::string& cex,
                          const std::string& current) {
  std::string s = loc.to_string() + ": " + kind + ": ";
  if (!op.empty()) s += op + ": ";
  s += reason;
  std::string ex = excerpt(loc, current);
  if (!ex.empty()) s += "\n" + ex;
  if (!cex.empty()) s += "\ncounterexample: " + cex;
  return s;
}

Error::Error(std::string kind, std::string op, SrcInfo loc, std::string reason,
             std::string counterexample, std::string current)
    : std::runtime_error(render(kind, op, loc, reason, counterexample, current)),
      kind_(std::move(kind)),
      op_(std::move(op)),
      loc_(std::move(loc)),
      reason_(std::move(reason)),
      counterexample_(std::move(counterexample)),
      current_(std::move(current)) {}

const char* to_string(ErrorCode c) {
  switch (c) {
    case ErrorCode::NotFound:
      return "not found";
    case ErrorCode::BadArgument:
      return "bad argument";
    case ErrorCode::NotProved:
      return "not proved";
    case ErrorCode::Unknown:
      return "unknown";
    case ErrorCode::Unsupported:
      return "unsupported";
  }
  return "unknown";
}

std::span<const Reason> all_reasons() {
#define EXOCPP_REASON_ENTRY(name, id, code, meaning) reason::name,
  static constexpr Reason kAll[] = {EXOCPP_FOR_EACH_REASON(EXOCPP_REASON_ENTRY)};
#undef EXOCPP_REASON_ENTRY
  return kAll;
}

}  // namespace exocpp
