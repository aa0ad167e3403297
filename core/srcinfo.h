// Source locations: every IR node carries the file, line and column it came from.
#pragma once

#include <memory>
#include <string>

namespace exocpp {

// The text of one parsed source (a file or a string), shared by every node parsed from it so
// that an error can quote the offending line long after parsing.
struct SourceFile {
  std::string name;  // file path, or "<string>"
  std::string text;

  // The text of 1-based line `line`, without its newline; empty if out of range.
  std::string line_text(int line) const;
};

struct SrcInfo {
  std::shared_ptr<const SourceFile> file;
  int line = 0;  // 1-based; 0 = unknown
  int col = 0;   // 1-based; 0 = unknown

  bool known() const { return file != nullptr && line > 0; }
  // "gemm.exo:4:9", or "<unknown>" when no location is known.
  std::string to_string() const;
  // The source line followed by a caret line under `col`; empty when unknown.
  std::string excerpt() const;
};

}  // namespace exocpp
