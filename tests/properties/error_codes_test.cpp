// Typed refusals (core/errors.h ErrorCode): each kind of refusal carries its code and a stable
// reason id, so programs decide on them rather than on message text; an error from the front
// end is nested in the operation's SchedulingError.
#include <set>

#include "rewrites/rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kLoop = R"(def f(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i] = 1.0
)";

// The SchedulingError `f` throws (a test failure when it throws none).
template <class F>
SchedulingError refusal(F&& f) {
  try {
    f();
  } catch (const SchedulingError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a SchedulingError";
  return SchedulingError("", reason::kTargetNoMatch, {}, "");
}

TEST(ErrorCodes, NoMatchIsNotFound) {
  Proc p = parse_proc(kLoop);
  SchedulingError e = refusal([&] { divide_loop(p, "j", 4, {"jo", "ji"}); });
  EXPECT_EQ(e.code(), ErrorCode::NotFound);
  EXPECT_EQ(e.reason_id(), "target.no_match");
  EXPECT_EQ(e.op(), "divide_loop");
}

TEST(ErrorCodes, ACountPastTheMatchesIsNotFound) {
  Proc p = parse_proc(kLoop);
  SchedulingError e = refusal([&] { divide_loop(p, "i #1", 4, {"io", "ii"}); });
  EXPECT_EQ(e.code(), ErrorCode::NotFound);
  EXPECT_EQ(e.reason_id(), "target.count");
}

TEST(ErrorCodes, ACursorWhoseTargetWasRemovedIsNotFound) {
  Proc p = parse_proc(R"(def f(x: f32[4] @ DRAM):
    pass
    x[0] = 1.0
)");
  Cursor gone = p.find("pass");
  Proc q = delete_pass(p);
  SchedulingError e = refusal([&] { insert_pass(q, gone); });
  EXPECT_EQ(e.code(), ErrorCode::NotFound);
  EXPECT_EQ(e.reason_id(), "target.removed");
}

TEST(ErrorCodes, ATargetOfTheWrongKindIsABadArgument) {
  Proc p = parse_proc(kLoop);
  SchedulingError e = refusal([&] { unroll_loop(p, "x[_] = _"); });
  EXPECT_EQ(e.code(), ErrorCode::BadArgument);
  EXPECT_EQ(e.reason_id(), "target.wrong_kind");
}

TEST(ErrorCodes, AFactorOutOfRangeIsABadArgument) {
  Proc p = parse_proc(kLoop);
  SchedulingError e = refusal([&] { divide_loop(p, "i", 0, {"io", "ii"}); });
  EXPECT_EQ(e.code(), ErrorCode::BadArgument);
  EXPECT_EQ(e.reason_id(), "arg.range");
}

TEST(ErrorCodes, AnInvalidNewNameIsABadArgument) {
  Proc p = parse_proc(kLoop);
  SchedulingError e = refusal([&] { divide_loop(p, "i", 4, {"for", "ii"}); });
  EXPECT_EQ(e.code(), ErrorCode::BadArgument);
  EXPECT_EQ(e.reason_id(), "arg.name");
}

TEST(ErrorCodes, AnExpressionOfTheWrongTypeIsABadArgument) {
  Proc p = parse_proc(kLoop);
  SchedulingError e = refusal([&] { cut_loop(p, "i", "N > 2"); });
  EXPECT_EQ(e.code(), ErrorCode::BadArgument);
  EXPECT_EQ(e.reason_id(), "arg.expression");
}

TEST(ErrorCodes, AMalformedExpressionNestsTheParseError) {
  Proc p = parse_proc(kLoop);
  bool nested_parse_error = false;
  try {
    cut_loop(p, "i", "N +* 2");
    ADD_FAILURE() << "expected a refusal";
  } catch (const SchedulingError& e) {  // by reference: a copy would lose the nesting
    EXPECT_EQ(e.code(), ErrorCode::BadArgument);
    EXPECT_EQ(e.op(), "cut_loop");
    try {
      std::rethrow_if_nested(e);
    } catch (const ParseError&) {
      nested_parse_error = true;
    }
  }
  EXPECT_TRUE(nested_parse_error);
}

TEST(ErrorCodes, ARefutedConditionIsNotProvedWithACounterexample) {
  Proc p = parse_proc(kLoop);
  SchedulingError e = refusal([&] { divide_loop(p, "i", 4, {"io", "ii"}, {.perfect = true}); });
  EXPECT_EQ(e.code(), ErrorCode::NotProved);
  EXPECT_EQ(e.reason_id(), "checker.refuted");
  EXPECT_FALSE(e.counterexample().empty());
}

TEST(ErrorCodes, AnUndecidedConditionIsUnknown) {
  Proc p = parse_proc(R"(config Cfg:
    k: index

def f(x: f32[8] @ DRAM, y: f32[8] @ DRAM):
    x[Cfg.k] = 1.0
    y[0] = x[0]
)");
  SchedulingError e = refusal([&] { reorder_stmts(p, p.body_cursor()); });
  EXPECT_EQ(e.code(), ErrorCode::Unknown);
  EXPECT_EQ(e.reason_id(), "checker.unknown");
}

TEST(ErrorCodes, EveryCodeHasAName) {
  for (ErrorCode c : {ErrorCode::NotFound, ErrorCode::BadArgument, ErrorCode::NotProved,
                      ErrorCode::Unknown, ErrorCode::Unsupported})
    EXPECT_FALSE(std::string(to_string(c)).empty());
  EXPECT_STREQ(to_string(ErrorCode::NotProved), "not proved");
}

// The reason table (core/reasons.h): each id is `family.name` in lower case, given once, with a
// meaning.
TEST(ErrorCodes, EveryReasonIdIsUniqueAndWellFormed) {
  std::set<std::string> seen;
  for (const Reason& r : all_reasons()) {
    const std::string id = r.id;
    EXPECT_TRUE(seen.insert(id).second) << id << " is listed twice";
    const size_t dot = id.find('.');
    EXPECT_TRUE(dot != std::string::npos && dot > 0 && dot + 1 < id.size() &&
                id.find('.', dot + 1) == std::string::npos)
        << id;
    for (char ch : id) EXPECT_TRUE(ch == '.' || ch == '_' || (ch >= 'a' && ch <= 'z')) << id;
    EXPECT_FALSE(std::string(r.meaning).empty()) << id;
  }
}

// A refusal takes its code from its reason: the two cannot disagree.
TEST(ErrorCodes, ARefusalTakesItsCodeFromItsReason) {
  SchedulingError e("op", reason::kLoopTooManyCopies, {}, "text");
  EXPECT_EQ(e.code(), ErrorCode::Unsupported);
  EXPECT_EQ(e.reason_id(), "loop.too_many_copies");
}

}  // namespace

// A refusal on a statement an earlier rewrite rebuilt quotes the statement as it reads now and
// says where it was written, so the caret never points at source text that no longer exists.
TEST(ErrorMessages, ARefusalQuotesTheCurrentCodeOfARewrittenStatement) {
  Proc p = parse_proc(kLoop);
  Proc q = divide_loop(p, "i", 4, {"io", "ii"});
  SchedulingError e = refusal([&] { unroll_loop(q, "io"); });
  std::string msg = e.what();
  EXPECT_EQ(e.current(), "for io in seq(0, (N + 3) / 4):") << msg;
  EXPECT_NE(msg.find("    for io in seq("), std::string::npos) << msg;
  EXPECT_NE(msg.find("(written at"), std::string::npos) << msg;
  EXPECT_NE(msg.find("as `for i in seq(0, N):`"), std::string::npos) << msg;
}

// A refusal on a statement as it was written keeps the plain source excerpt.
TEST(ErrorMessages, ARefusalOnUnchangedCodeQuotesTheSourceLine) {
  Proc p = parse_proc(kLoop);
  SchedulingError e = refusal([&] { unroll_loop(p, "i"); });
  std::string msg = e.what();
  EXPECT_NE(msg.find("for i in seq(0, N):"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("(written at"), std::string::npos) << msg;
}

namespace {

TEST(ErrorCodes, AnUndefinedProcIsABadArgumentWithItsOwnReason) {
  SchedulingError e = refusal([&] { divide_loop(Proc(), "i", 4, {"io", "ii"}); });
  EXPECT_EQ(e.code(), ErrorCode::BadArgument);
  EXPECT_EQ(e.reason_id(), "arg.undefined_proc");
}

}  // namespace

namespace {

TEST(ErrorCodes, AStatementOfTheWrongKindForTheOperationIsABadArgument) {
  Proc p = parse_proc(kLoop);
  SchedulingError e = refusal([&] { inline_assign(p, "for i in _: _"); });
  EXPECT_EQ(e.code(), ErrorCode::BadArgument);
  EXPECT_EQ(e.reason_id(), "target.wrong_kind");
}

TEST(ErrorCodes, StatementsThatMustBeAdjacentButAreNotAreABadArgument) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N] @ DRAM):
    for i in seq(0, N):
        x[i] = 1.0
    pass
    for j in seq(0, N):
        x[j] = 2.0
)");
  SchedulingError e = refusal([&] { fuse(p, "i", "j"); });
  EXPECT_EQ(e.code(), ErrorCode::BadArgument);
  EXPECT_EQ(e.reason_id(), "target.not_adjacent");
}

TEST(ErrorCodes, ALoopNotStartingAtZeroHasItsReason) {
  Proc p = parse_proc(R"(def f(N: size, x: f32[N + 1] @ DRAM):
    for i in seq(1, N + 1):
        x[i] = 1.0
)");
  SchedulingError e = refusal([&] { divide_loop(p, "i", 4, {"io", "ii"}); });
  EXPECT_EQ(e.code(), ErrorCode::NotProved);
  EXPECT_EQ(e.reason_id(), "loop.lower_bound_not_zero");
}

TEST(ErrorCodes, ALoopWithoutConstantBoundsCannotBeUnrolled) {
  Proc p = parse_proc(kLoop);
  SchedulingError e = refusal([&] { unroll_loop(p, "i"); });
  EXPECT_EQ(e.code(), ErrorCode::NotProved);
  EXPECT_EQ(e.reason_id(), "loop.bound_not_constant");
}

}  // namespace
