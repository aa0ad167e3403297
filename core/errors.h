// The error hierarchy. User errors derive from exocpp::Error; bugs in exocpp itself are
// InternalError, which is deliberately *not* an exocpp::Error.
#pragma once

#include <stdexcept>
#include <string>

#include "core/reasons.h"
#include "core/srcinfo.h"

namespace exocpp {

// Base of every user-facing error. what() is the full rendered report:
//
//   gemm.exo:4:9: error: divide_loop: the loop bound N is not divisible by 4
//       for i in seq(0, N):
//           ^
//   counterexample: N = 5
class Error : public std::runtime_error {
 public:
  // `current` is the target as the proc being rewritten prints it now (a scheduling error's
  // statement after earlier rewrites); when it differs from the source line at `loc`, the report
  // quotes it, with the source line as where it was written.
  Error(std::string kind, std::string op, SrcInfo loc, std::string reason,
        std::string counterexample = "", std::string current = "");

  const std::string& kind() const { return kind_; }  // "parse error", "type error", ...
  const std::string& op() const { return op_; }      // operation name, may be empty
  const SrcInfo& loc() const { return loc_; }
  const std::string& reason() const { return reason_; }
  const std::string& counterexample() const { return counterexample_; }
  const std::string& current() const { return current_; }

 private:
  std::string kind_, op_;
  SrcInfo loc_;
  std::string reason_, counterexample_, current_;
};

class ParseError : public Error {
 public:
  ParseError(SrcInfo loc, std::string reason)
      : Error("parse error", "", std::move(loc), std::move(reason)) {}
};

class TypeError : public Error {
 public:
  TypeError(SrcInfo loc, std::string reason, std::string op = "")
      : Error("type error", std::move(op), std::move(loc), std::move(reason)) {}
};

class SchedulingError : public Error {
 public:
  // A refusal for `why` (core/reasons.h), which gives its code and reason id.
  SchedulingError(std::string op, const Reason& why, SrcInfo loc, std::string reason,
                  std::string counterexample = "", std::string current = "")
      : Error("scheduling error", std::move(op), std::move(loc), std::move(reason),
              std::move(counterexample), std::move(current)),
        code_(why.code),
        reason_id_(why.id) {}
  // The refusal `cause` told again under operation `op` with the text `reason`: its place,
  // counterexample, code and reason id stay.
  SchedulingError(std::string op, const SchedulingError& cause, std::string reason)
      : Error("scheduling error", std::move(op), cause.loc(), std::move(reason),
              cause.counterexample(), cause.current()),
        code_(cause.code_),
        reason_id_(cause.reason_id_) {}

  ErrorCode code() const { return code_; }
  // The stable name of the reason (core/reasons.h): "target.wrong_kind", "checker.refuted".
  const std::string& reason_id() const { return reason_id_; }

 private:
  ErrorCode code_;
  std::string reason_id_;
};

class CodegenError : public Error {
 public:
  CodegenError(SrcInfo loc, std::string reason)
      : Error("codegen error", "", std::move(loc), std::move(reason)) {}
};

// A run-time failure in the reference interpreter: out-of-bounds access, failed assert,
// bad argument.
class InterpError : public Error {
 public:
  InterpError(SrcInfo loc, std::string reason)
      : Error("interpreter error", "interpret", std::move(loc), std::move(reason)) {}
};

// Compiled code refused its arguments where the proc was entered: an index argument held a
// value outside its declared range (docs/language.md, "Index arguments"). Nothing was written.
class ArgumentRangeError : public Error {
 public:
  ArgumentRangeError(SrcInfo loc, std::string reason)
      : Error("argument error", "run", std::move(loc), std::move(reason)) {}
};

// A violated invariant inside exocpp: a bug, never the user's fault.
class InternalError : public std::logic_error {
 public:
  explicit InternalError(const std::string& msg) : std::logic_error("internal error: " + msg) {}
};

#define EXOCPP_ASSERT(cond, msg)                                                             \
  do {                                                                                       \
    if (!(cond))                                                                             \
      throw ::exocpp::InternalError(std::string(__FILE__) + ":" + std::to_string(__LINE__) + \
                                    ": " + (msg));                                           \
  } while (0)

}  // namespace exocpp
