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

static std::string render(const std::string& kind, const std::string& op, const SrcInfo& loc,
                          const std::string& reason, const std::string& cex) {
  std::string s = loc.to_string() + ": " + kind + ": ";
  if (!op.empty()) s += op + ": ";
  s += reason;
  std::string ex = loc.excerpt();
  if (!ex.empty()) s += "\n" + ex;
  if (!cex.empty()) s += "\ncounterexample: " + cex;
  return s;
}

Error::Error(std::string kind, std::string op, SrcInfo loc, std::string reason,
             std::string counterexample)
    : std::runtime_error(render(kind, op, loc, reason, counterexample)),
      kind_(std::move(kind)),
      op_(std::move(op)),
      loc_(std::move(loc)),
      reason_(std::move(reason)),
      counterexample_(std::move(counterexample)) {}

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

}  // namespace exocpp
