// Private to the pattern matcher: the pattern AST that core/pattern_parse.cpp builds from a
// pattern string and core/pattern.cpp matches against the IR (see core/pattern.h for the
// language).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir.h"

namespace exocpp::pattern {

// An expression pattern. Names are matched by their printed name; "_" matches any name.
struct EPat;
using EPatPtr = std::shared_ptr<const EPat>;

enum class EPatKind : uint8_t {
  Hole,        // _                       any expression
  Read,        // x, x[i, _]              args: the index patterns (empty: any index list)
  Const,       // 3, 2.0, True            val
  USub,        // -e                      args[0]
  BinOp,       // a + b                   op, args[0], args[1]
  Extern,      // select(_, _, _, _)      name, args
  Stride,      // stride(A, 0)            name, dim (-1: any)
  ReadConfig,  // Cfg.f                   name, field
  Slice,       // lo:hi (only as an index of a window)   args[0], args[1]
};

struct EPat {
  EPatKind kind = EPatKind::Hole;
  std::string name;
  std::string field;
  std::vector<EPatPtr> args;
  bool bracketed = false;  // Read: written with [...] (an empty list then matches none)
  BinOpKind op = BinOpKind::Add;
  double val = 0;
  int dim = -1;
};

// A statement pattern.
enum class SPatKind : uint8_t { Hole, Assign, Reduce, WriteConfig, Pass, If, For, Alloc, Call };

struct SPat {
  SPatKind kind = SPatKind::Hole;
  std::string name;                      // target, loop variable, allocated buffer, callee, config
  std::string field;                     // WriteConfig
  std::vector<EPatPtr> idx;              // Assign/Reduce indices, Alloc sizes, Call arguments
  bool bracketed = false;                // Assign/Reduce written x[...]; Alloc written with a shape
  EPatPtr rhs;                           // Assign/Reduce/WriteConfig rhs, If condition
  EPatPtr lo, hi;                        // For bounds
  std::vector<SPat> body;                // For/If body (a sequence, may hold holes)
  std::optional<ScalarKind> alloc_type;  // Alloc: the element type, when not "_"
  std::string alloc_mem;                 // Alloc: "@ MEM", when given
  std::optional<LoopMode> loop_mode;     // For: seq(...) or par(...), when given
};

// A parsed pattern string: either one expression pattern or a sequence of statement patterns.
struct Pattern {
  std::string text;  // the pattern as written (without "#n")
  bool is_expr = false;
  EPatPtr expr;                 // when is_expr
  std::vector<SPat> stmts;      // otherwise, at least one non-hole
  std::optional<int> match_no;  // "#n"
};

// Parses a pattern string; throws ParseError ("in pattern '...': ...") when it is malformed.
Pattern parse_pattern(const std::string& text);

}  // namespace exocpp::pattern
