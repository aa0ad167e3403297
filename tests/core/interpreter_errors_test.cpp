// Tests of the reference interpreter's run-time errors: each fault is an InterpError at the
// source location at fault, with a message naming what went wrong (pinned exactly here).
#include <gtest/gtest.h>

#include "core/interpreter.h"
#include "core/parser.h"

namespace exocpp {
namespace {

// Runs `p` on `args` and returns the InterpError it raises ("" reason if none).
InterpError run_expecting_error(const Proc& p, std::vector<ArgValue> args,
                                const InterpOptions& opts = {}) {
  try {
    interpret(p, args, opts);
  } catch (const InterpError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InterpError from proc '" << p.name() << "'";
  return InterpError({}, "");
}

std::string where(const InterpError& e) { return e.loc().to_string(); }

const char* kCopy = R"(
def copy(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    assert N % 4 == 0
    for i in seq(0, N):
        y[i] = x[i]
)";

TEST(InterpreterErrors, FailedAssertQuotesItAndTheArguments) {
  Proc p = parse_module(kCopy).proc("copy");
  InterpError e = run_expecting_error(
      p, {int64_t(6), Buffer(ScalarKind::F32, {6}), Buffer(ScalarKind::F32, {6})});
  EXPECT_EQ(e.reason(),
            "`assert N % 4 == 0` of proc 'copy' does not hold for N = 6, "
            "x = f32[6] buffer, y = f32[6] buffer");
  EXPECT_EQ(where(e), "<string>:3:12");
}

TEST(InterpreterErrors, AssertOfCalleeIsCheckedAtTheCall) {
  Proc p = parse_module(std::string(kCopy) + R"(
def caller(x: f32[6] @ DRAM, y: f32[6] @ DRAM):
    copy(6, x, y)
)")
               .proc("caller");
  InterpError e =
      run_expecting_error(p, {Buffer(ScalarKind::F32, {6}), Buffer(ScalarKind::F32, {6})});
  EXPECT_EQ(e.reason(),
            "`assert N % 4 == 0` of proc 'copy' does not hold for N = 6, "
            "x = f32[6] buffer, y = f32[6] buffer (assert at <string>:3:12)");
  EXPECT_EQ(where(e), "<string>:8:5");
}

TEST(InterpreterErrors, OutOfBoundsReadNamesBufferIndexAndShape) {
  Proc p = parse_module(R"(
def shift(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    for i in seq(0, N):
        y[i] = x[i + 1]
)")
               .proc("shift");
  InterpError e = run_expecting_error(
      p, {int64_t(4), Buffer(ScalarKind::F32, {4}), Buffer(ScalarKind::F32, {4})});
  EXPECT_EQ(e.reason(),
            "out-of-bounds read: x[4] is outside x of shape [4] (index 0 is 4, extent 4)");
  EXPECT_EQ(where(e), "<string>:4:16");
}

TEST(InterpreterErrors, OutOfBoundsWriteNamesBufferIndexAndShape) {
  Proc p = parse_module(R"(
def shift(N: size, M: size, x: f32[N, M] @ DRAM):
    for i in seq(0, N):
        x[i, i - 1] = 0.0
)")
               .proc("shift");
  InterpError e = run_expecting_error(p, {int64_t(3), int64_t(3), Buffer(ScalarKind::F32, {3, 3})});
  EXPECT_EQ(e.reason(),
            "out-of-bounds write: x[0, -1] is outside x of shape [3, 3] (index 1 is -1, extent 3)");
  EXPECT_EQ(where(e), "<string>:4:9");
}

TEST(InterpreterErrors, OutOfBoundsWindowIsReportedAtTheWindow) {
  Proc p = parse_module(R"(
def zero(n: size, x: [f32][n] @ DRAM):
    for i in seq(0, n):
        x[i] = 0.0

def kernel(A: f32[4, 8] @ DRAM):
    zero(8, A[0, 2:10])
)")
               .proc("kernel");
  InterpError e = run_expecting_error(p, {Buffer(ScalarKind::F32, {4, 8})});
  EXPECT_EQ(e.reason(), "out-of-bounds window: A[0, 2:10] is outside A of shape [4, 8]");
}

TEST(InterpreterErrors, ShapeMismatchNamesArgumentAndBothShapes) {
  Proc p = parse_module(kCopy).proc("copy");
  InterpError e = run_expecting_error(
      p, {int64_t(4), Buffer(ScalarKind::F32, {4}), Buffer(ScalarKind::F32, {5})});
  EXPECT_EQ(e.reason(),
            "argument 'y' of proc 'copy' must have shape [4] (it is f32[N]), got shape [5]");
  EXPECT_EQ(where(e), "<string>:2:37");
}

TEST(InterpreterErrors, ElementTypeMismatchIsReported) {
  Proc p = parse_module(kCopy).proc("copy");
  InterpError e = run_expecting_error(
      p, {int64_t(4), Buffer(ScalarKind::F64, {4}), Buffer(ScalarKind::F32, {4})});
  EXPECT_EQ(e.reason(), "argument 'x' of proc 'copy' holds f32 values, got a f64 buffer");
}

TEST(InterpreterErrors, NonPositiveSizeIsReported) {
  Proc p = parse_module(kCopy).proc("copy");
  InterpError e = run_expecting_error(
      p, {int64_t(0), Buffer(ScalarKind::F32, {0}), Buffer(ScalarKind::F32, {0})});
  EXPECT_EQ(e.reason(), "argument 'N' of proc 'copy' is a size and must be positive, got 0");
}

TEST(InterpreterErrors, WrongArgumentCountIsReported) {
  Proc p = parse_module(kCopy).proc("copy");
  InterpError e = run_expecting_error(p, {int64_t(4)});
  EXPECT_EQ(e.reason(), "proc 'copy' takes 3 arguments, got 1");
}

TEST(InterpreterErrors, StridedViewForTensorArgumentIsRefused) {
  Proc p = parse_module(kCopy).proc("copy");
  Buffer big(ScalarKind::F32, {4, 2});
  Buffer column = big.window({Buffer::Slice::interval(0, 4), Buffer::Slice::point(0)});
  InterpError e = run_expecting_error(p, {int64_t(4), column, Buffer(ScalarKind::F32, {4})});
  EXPECT_EQ(e.reason(),
            "argument 'x' of proc 'copy' is a tensor, which must be a dense row-major "
            "buffer; it was given a strided window (declare the argument as a window "
            "[f32][...] to accept one)");
}

TEST(InterpreterErrors, MissingNamedArgumentIsReported) {
  Proc p = parse_module(kCopy).proc("copy");
  std::map<std::string, ArgValue> args{{"N", int64_t(4)}, {"x", Buffer(ScalarKind::F32, {4})}};
  try {
    interpret(p, args);
    ADD_FAILURE() << "expected an InterpError";
  } catch (const InterpError& e) {
    EXPECT_EQ(e.reason(), "no value given for argument 'y' of proc 'copy'");
  }
}

TEST(InterpreterErrors, ReadOfNeverWrittenConfigFieldNamesIt) {
  Proc p = parse_module(R"(
config Cfg:
    scale: f32

def use(x: f32[2] @ DRAM):
    x[0] = Cfg.scale
)")
               .proc("use");
  InterpError e = run_expecting_error(p, {Buffer(ScalarKind::F32, {2})});
  EXPECT_EQ(e.reason(), "config field Cfg.scale is read before it was ever written");
  EXPECT_EQ(where(e), "<string>:6:12");
}

TEST(InterpreterErrors, StepLimitStopsARunawayLoop) {
  Proc p = parse_module(R"(
def spin(N: size, x: f32[1] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, N):
            x[0] += 1.0
)")
               .proc("spin");
  // The outer loop cannot fit in the limit whatever its body does: refused before it starts.
  InterpError e =
      run_expecting_error(p, {int64_t(1000000), Buffer(ScalarKind::F32, {1})}, {.max_steps = 1000});
  EXPECT_EQ(e.reason(),
            "step limit exceeded: the loop over i would run 1000000 iterations of at least 1 "
            "statement each, which exceeds the step limit of 1000 statements (1 already executed): "
            "too large to interpret (raise InterpOptions::max_steps if this is intended)");
}

TEST(InterpreterErrors, StepLimitStopsARunawayCallChain) {
  // Each loop fits, but the calls inside make the run longer than the limit.
  Proc p = parse_module(R"(
def g(x: f32[1] @ DRAM):
    x[0] += 1.0
    x[0] += 1.0
    x[0] += 1.0
    x[0] += 1.0

def spin(N: size, x: f32[1] @ DRAM):
    for i in seq(0, N):
        g(x)
)")
               .proc("spin");
  InterpError e =
      run_expecting_error(p, {int64_t(500), Buffer(ScalarKind::F32, {1})}, {.max_steps = 1000});
  EXPECT_EQ(e.reason(),
            "step limit exceeded: more than 1000 statements executed "
            "(raise InterpOptions::max_steps if this is intended)");
}

TEST(InterpreterErrors, HugeAllocationIsRefused) {
  Proc p = parse_module(R"(
def big(N: size, x: f32[1] @ DRAM):
    t: f32[N, N, N] @ DRAM
    x[0] = 0.0
)")
               .proc("big");
  InterpError e = run_expecting_error(p, {int64_t(100000), Buffer(ScalarKind::F32, {1})});
  EXPECT_EQ(e.reason(),
            "allocation of 't' with shape [100000, 100000, 100000] exceeds "
            "InterpOptions::max_alloc_elements (268435456)");
}

TEST(InterpreterErrors, ControlDivisionByZeroIsReported) {
  // The type checker allows only positive constant divisors; unchecked IR may still divide by 0.
  ParseOptions unchecked;
  unchecked.typecheck = false;
  Proc p = parse_module(R"(
def div(N: size, M: index, x: f32[N] @ DRAM):
    x[N / M] = 0.0
)",
                        unchecked)
               .proc("div");
  InterpError e = run_expecting_error(p, {int64_t(4), int64_t(0), Buffer(ScalarKind::F32, {4})});
  EXPECT_EQ(e.reason(), "division by zero: 4 / 0");
}

TEST(InterpreterErrors, IntegerDataDivisionByZeroIsReported) {
  Proc p = parse_module(R"(
def div(x: i32[2] @ DRAM):
    x[0] = x[0] / x[1]
)")
               .proc("div");
  InterpError e = run_expecting_error(p, {Buffer::from_values(ScalarKind::I32, {2}, {7, 0})});
  EXPECT_EQ(e.reason(), "integer division by zero: 7 / 0");
}

TEST(InterpreterErrors, StoringNaNIntoIntegerBufferIsReported) {
  Proc p = parse_module(R"(
def conv(x: f32[1] @ DRAM, y: i32[1] @ DRAM):
    t: f32[1] @ DRAM
    y[0] = t[0]
)")
               .proc("conv");
  InterpError e =
      run_expecting_error(p, {Buffer(ScalarKind::F32, {1}), Buffer(ScalarKind::I32, {1})});
  EXPECT_EQ(e.reason(), "storing nan into 'y', a i32 buffer (an integer type cannot hold it)");
}

// Procs built directly with make() skip the parser's checks; the interpreter must still answer
// with an InterpError, never crash.
Proc proc_of(std::vector<FnArg> args, Block body) {
  auto p = std::make_shared<ProcNode>();
  p->name = "raw";
  p->args = std::move(args);
  p->body = std::move(body);
  return Proc(p);
}

TEST(InterpreterErrors, UnboundVariableInHandBuiltIRIsReported) {
  Sym x("x"), ghost("ghost");
  Stmt s =
      AssignNode::make(x, ScalarKind::F32, {ReadNode::make(ghost, {}, Type(ScalarKind::Index))},
                       ConstNode::make_float(1.0));
  Proc p = proc_of({FnArg{x, Type(ScalarKind::F32, {ConstNode::make_int(2)}), "DRAM", {}}}, {s});
  InterpError e = run_expecting_error(p, {Buffer(ScalarKind::F32, {2})});
  EXPECT_EQ(e.reason(), "'ghost' is not defined at this point of proc 'raw'");
}

TEST(InterpreterErrors, IllTypedExpressionInHandBuiltIRIsReported) {
  Sym x("x");
  Expr bad = BinOpNode::make(BinOpKind::Add, ConstNode::make_bool(true), ConstNode::make_int(1));
  Stmt s = AssignNode::make(x, ScalarKind::F32, {bad}, ConstNode::make_float(1.0));
  Proc p = proc_of({FnArg{x, Type(ScalarKind::F32, {ConstNode::make_int(2)}), "DRAM", {}}}, {s});
  InterpError e = run_expecting_error(p, {Buffer(ScalarKind::F32, {2})});
  EXPECT_EQ(e.reason(),
            "ill-typed expression where a control value is needed (run the type checker)");
}

TEST(InterpreterErrors, WrongIndexCountInHandBuiltIRIsReported) {
  Sym x("x");
  Stmt s = AssignNode::make(x, ScalarKind::F32, {}, ConstNode::make_float(1.0));
  Proc p = proc_of({FnArg{x, Type(ScalarKind::F32, {ConstNode::make_int(2)}), "DRAM", {}}}, {s});
  InterpError e = run_expecting_error(p, {Buffer(ScalarKind::F32, {2})});
  EXPECT_EQ(e.reason(), "write of 'x' with 0 indices, but it has rank 1");
}

}  // namespace
}  // namespace exocpp
