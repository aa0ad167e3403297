// The level-2 routines' argument checks: every illegal argument the reference checks, alone and
// in pairs, through the Fortran symbols and CBLAS in both layouts (and an illegal layout), must
// be reported as the reference reports it: the same routine name and argument number (for
// CBLAS its CBLAS position, a row-major call's swapped arguments translated back), the first
// illegal one only.
//
// How: both libraries are loaded with RTLD_DEEPBIND, so each calls its own xerbla_ and
// cblas_xerbla whatever this program defines, and exoblas's stop the program (as the reference
// BLAS's XERBLA does). So each call runs in a forked child whose stdout and stderr are
// captured; the report is read back from what it printed: exoblas's xerbla_ prints the
// reference BLAS's " ** On entry to SGEMV parameter number  2 had an illegal value", netlib
// CBLAS's xerbla_ (Debian's reference uses it for both interfaces) and every cblas_xerbla
// "Parameter 2 to routine SGEMV  was incorrect". That the routine returns without touching
// anything when a program's own xerbla_ returns is netlib's testers' to check (netlib_xblat2s
// ... run them against the library, with their own XERBLA).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "level2_harness.h"

namespace exoblas_test {
namespace {

// ---- Running a call in a child process ----

struct ChildRun {
  bool returned = false;  // the call returned (the child then exits 0 itself)
  int exit_status = -1;   // the status the child exited with, -1 if it did not exit
  int signal = 0;         // the signal that killed it, 0 if none
  std::string output;     // its stdout and stderr, interleaved
};

constexpr const char kReturnedMarker[] = "\n<the call returned>\n";

// Runs f in a forked child (20 seconds at most) and reports how it ended and what it printed.
ChildRun run_in_child(const std::function<void()>& f) {
  std::fflush(nullptr);  // nothing buffered to be written twice
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[1]);
    alarm(20);
    // Nothing may leave the child but through _exit or the library's own exit: an exception
    // unwinding into the test would run the rest of it, forking again, in the child.
    try {
      f();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "<exception: %s>\n", e.what());
      std::fflush(nullptr);
      _exit(4);
    } catch (...) {
      _exit(4);
    }
    std::fflush(nullptr);
    if (write(1, kReturnedMarker, sizeof kReturnedMarker - 1) < 0) _exit(3);
    _exit(0);
  }
  close(fds[1]);
  ChildRun r;
  char buf[4096];
  for (ssize_t got; (got = read(fds[0], buf, sizeof buf)) != 0;) {
    if (got < 0) break;
    r.output.append(buf, std::size_t(got));
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  const std::size_t marker = r.output.find(kReturnedMarker);
  if (marker != std::string::npos) {
    r.returned = true;
    r.output.erase(marker);
  }
  return r;
}

// ---- Reading a report ----

struct Report {
  std::string routine;  // as printed, trailing blanks dropped
  int position = 0;
  bool operator==(const Report&) const = default;
};

std::string show(const std::optional<Report>& r) {
  if (!r) return "nothing";
  return r->routine + " argument " + std::to_string(r->position);
}

// The first report in `output`, in either format: the reference BLAS's XERBLA (" ** On entry
// to SGEMV parameter number  2 had an illegal value") or netlib CBLAS's ("Parameter 2 to
// routine cblas_sgemv  was incorrect").
std::optional<Report> parse_report(const std::string& output) {
  static const std::regex fortran(
      R"( \*\* On entry to (\S+) +parameter number +(-?\d+) had an illegal value)");
  static const std::regex cblas(R"(Parameter (-?\d+) to routine (\S+) *was incorrect)");
  std::smatch match;
  if (std::regex_search(output, match, fortran)) return Report{match[1], std::stoi(match[2])};
  if (std::regex_search(output, match, cblas)) return Report{match[2], std::stoi(match[1])};
  return std::nullopt;
}

// ---- The calls ----

// Every argument a level-2 routine checks, legal by default for every routine and layout.
struct Args {
  char trans = 'N', uplo = 'U', diag = 'N';
  int m = 2, n = 2, kl = 1, ku = 1, k = 1, lda = 4, incx = 1, incy = 1;
};

enum class Routine {
  kGemv,
  kGbmv,
  kSymv,
  kSbmv,
  kSpmv,
  kTrmv,
  kTbmv,
  kTpmv,
  kTrsv,
  kTbsv,
  kTpsv,
  kGer,
  kSyr,
  kSpr,
  kSyr2,
  kSpr2
};

// One illegal argument: how to make it so, and its position in the Fortran routine (the
// CBLAS position is one more: the layout comes first).
struct Check {
  const char* what;
  void (*make_illegal)(Args&);
  int position;
};

struct RoutineChecks {
  Routine routine;
  const char* name;  // "gemv"
  std::vector<Check> checks;
};

// The reference's checks (BLAS/SRC/?gemv.f ... of LAPACK 3.11), in its order. The illegal
// values are netlib's testers': '/' for an option, -1 for a size, 0 for an increment, and the
// smallest legal leading dimension less one.
const std::vector<RoutineChecks>& routine_checks() {
  auto trans = [](Args& a) { a.trans = '/'; };
  auto uplo = [](Args& a) { a.uplo = '/'; };
  auto diag = [](Args& a) { a.diag = '/'; };
  auto m = [](Args& a) { a.m = -1; };
  auto n = [](Args& a) { a.n = -1; };
  auto kl = [](Args& a) { a.kl = -1; };
  auto ku = [](Args& a) { a.ku = -1; };
  auto k = [](Args& a) { a.k = -1; };
  auto lda_full = [](Args& a) { a.lda = 1; };  // max(1, m or n) = 2
  auto lda_gb = [](Args& a) { a.lda = 2; };    // kl + ku + 1 = 3
  auto lda_band = [](Args& a) { a.lda = 1; };  // k + 1 = 2
  auto incx = [](Args& a) { a.incx = 0; };
  auto incy = [](Args& a) { a.incy = 0; };
  static const std::vector<RoutineChecks> checks = {
      {Routine::kGemv,
       "gemv",
       {{"trans", trans, 1},
        {"m", m, 2},
        {"n", n, 3},
        {"lda", lda_full, 6},
        {"incx", incx, 8},
        {"incy", incy, 11}}},
      {Routine::kGbmv,
       "gbmv",
       {{"trans", trans, 1},
        {"m", m, 2},
        {"n", n, 3},
        {"kl", kl, 4},
        {"ku", ku, 5},
        {"lda", lda_gb, 8},
        {"incx", incx, 10},
        {"incy", incy, 13}}},
      {Routine::kSymv,
       "symv",
       {{"uplo", uplo, 1},
        {"n", n, 2},
        {"lda", lda_full, 5},
        {"incx", incx, 7},
        {"incy", incy, 10}}},
      {Routine::kSbmv,
       "sbmv",
       {{"uplo", uplo, 1},
        {"n", n, 2},
        {"k", k, 3},
        {"lda", lda_band, 6},
        {"incx", incx, 8},
        {"incy", incy, 11}}},
      {Routine::kSpmv,
       "spmv",
       {{"uplo", uplo, 1}, {"n", n, 2}, {"incx", incx, 6}, {"incy", incy, 9}}},
      {Routine::kTrmv,
       "trmv",
       {{"uplo", uplo, 1},
        {"trans", trans, 2},
        {"diag", diag, 3},
        {"n", n, 4},
        {"lda", lda_full, 6},
        {"incx", incx, 8}}},
      {Routine::kTbmv,
       "tbmv",
       {{"uplo", uplo, 1},
        {"trans", trans, 2},
        {"diag", diag, 3},
        {"n", n, 4},
        {"k", k, 5},
        {"lda", lda_band, 7},
        {"incx", incx, 9}}},
      {Routine::kTpmv,
       "tpmv",
       {{"uplo", uplo, 1}, {"trans", trans, 2}, {"diag", diag, 3}, {"n", n, 4}, {"incx", incx, 7}}},
      {Routine::kTrsv,
       "trsv",
       {{"uplo", uplo, 1},
        {"trans", trans, 2},
        {"diag", diag, 3},
        {"n", n, 4},
        {"lda", lda_full, 6},
        {"incx", incx, 8}}},
      {Routine::kTbsv,
       "tbsv",
       {{"uplo", uplo, 1},
        {"trans", trans, 2},
        {"diag", diag, 3},
        {"n", n, 4},
        {"k", k, 5},
        {"lda", lda_band, 7},
        {"incx", incx, 9}}},
      {Routine::kTpsv,
       "tpsv",
       {{"uplo", uplo, 1}, {"trans", trans, 2}, {"diag", diag, 3}, {"n", n, 4}, {"incx", incx, 7}}},
      {Routine::kGer,
       "ger",
       {{"m", m, 1}, {"n", n, 2}, {"incx", incx, 5}, {"incy", incy, 7}, {"lda", lda_full, 9}}},
      {Routine::kSyr,
       "syr",
       {{"uplo", uplo, 1}, {"n", n, 2}, {"incx", incx, 5}, {"lda", lda_full, 7}}},
      {Routine::kSpr, "spr", {{"uplo", uplo, 1}, {"n", n, 2}, {"incx", incx, 5}}},
      {Routine::kSyr2,
       "syr2",
       {{"uplo", uplo, 1},
        {"n", n, 2},
        {"incx", incx, 5},
        {"incy", incy, 7},
        {"lda", lda_full, 9}}},
      {Routine::kSpr2,
       "spr2",
       {{"uplo", uplo, 1}, {"n", n, 2}, {"incx", incx, 5}, {"incy", incy, 7}}},
  };
  return checks;
}

// Calls routine r of `api` with `a` on zero-filled arrays larger than any legal call with these
// sizes reads, so that a check a library misses shows as a call that returned, not a crash.
template <class T>
void call(const Level2Api<T>& api, Routine r, const Args& a) {
  static std::vector<T> A(64), x(64), y(64);
  const T alpha = T(1), beta = T(0);
  switch (r) {
    case Routine::kGemv:
      return api.gemv(a.trans, a.m, a.n, alpha, A.data(), a.lda, x.data(), a.incx, beta, y.data(),
                      a.incy);
    case Routine::kGbmv:
      return api.gbmv(a.trans, a.m, a.n, a.kl, a.ku, alpha, A.data(), a.lda, x.data(), a.incx, beta,
                      y.data(), a.incy);
    case Routine::kSymv:
      return api.symv(a.uplo, a.n, alpha, A.data(), a.lda, x.data(), a.incx, beta, y.data(),
                      a.incy);
    case Routine::kSbmv:
      return api.sbmv(a.uplo, a.n, a.k, alpha, A.data(), a.lda, x.data(), a.incx, beta, y.data(),
                      a.incy);
    case Routine::kSpmv:
      return api.spmv(a.uplo, a.n, alpha, A.data(), x.data(), a.incx, beta, y.data(), a.incy);
    case Routine::kTrmv:
      return api.trmv(a.uplo, a.trans, a.diag, a.n, A.data(), a.lda, x.data(), a.incx);
    case Routine::kTbmv:
      return api.tbmv(a.uplo, a.trans, a.diag, a.n, a.k, A.data(), a.lda, x.data(), a.incx);
    case Routine::kTpmv:
      return api.tpmv(a.uplo, a.trans, a.diag, a.n, A.data(), x.data(), a.incx);
    case Routine::kTrsv:
      return api.trsv(a.uplo, a.trans, a.diag, a.n, A.data(), a.lda, x.data(), a.incx);
    case Routine::kTbsv:
      return api.tbsv(a.uplo, a.trans, a.diag, a.n, a.k, A.data(), a.lda, x.data(), a.incx);
    case Routine::kTpsv:
      return api.tpsv(a.uplo, a.trans, a.diag, a.n, A.data(), x.data(), a.incx);
    case Routine::kGer:
      return api.ger(a.m, a.n, alpha, x.data(), a.incx, y.data(), a.incy, A.data(), a.lda);
    case Routine::kSyr:
      return api.syr(a.uplo, a.n, alpha, x.data(), a.incx, A.data(), a.lda);
    case Routine::kSpr:
      return api.spr(a.uplo, a.n, alpha, x.data(), a.incx, A.data());
    case Routine::kSyr2:
      return api.syr2(a.uplo, a.n, alpha, x.data(), a.incx, y.data(), a.incy, A.data(), a.lda);
    case Routine::kSpr2:
      return api.spr2(a.uplo, a.n, alpha, x.data(), a.incx, y.data(), a.incy, A.data());
  }
}

// "SGEMV" (Fortran) or "cblas_sgemv".
std::string reported_name(Api api, const char* precision, const char* routine) {
  std::string s = std::string(precision) + routine;
  if (api != Api::kFortran) return "cblas_" + s;
  for (char& c : s) c = char(std::toupper((unsigned char)c));
  return s;
}

// The illegal call `text` of routine r on the reference and on the library: both must report
// the same, `expected` when given; the library must then have stopped the program, with
// status 1 for a Fortran call (xerbla_) and 255 for a CBLAS one (cblas_xerbla's exit(-1)).
template <class T>
void compare_report(Mismatches& m, const Level2Api<T>& ref, const Level2Api<T>& lib, int lib_status,
                    Routine r, const Args& a, const std::string& text,
                    const std::optional<Report>& expected) {
  const ChildRun want_run = run_in_child([&] { call(ref, r, a); });
  const ChildRun got_run = run_in_child([&] { call(lib, r, a); });
  const std::optional<Report> want = parse_report(want_run.output);
  const std::optional<Report> got = parse_report(got_run.output);
  if (!got || !want || !(*got == *want)) {
    m.add(text + ": the library reports " + show(got) + ", the reference " + show(want) +
          " (the library printed \"" + got_run.output + "\")");
  } else if (expected && !(*got == *expected)) {
    m.add(text + ": both report " + show(got) + ", not " + show(expected));
  }
  if (got_run.returned || got_run.exit_status != lib_status) {
    m.add(text + ": the library " +
          (got_run.returned ? std::string("returned")
           : got_run.signal ? "was killed by signal " + std::to_string(got_run.signal)
                            : "exited with status " + std::to_string(got_run.exit_status)) +
          " after reporting, not exited with status " + std::to_string(lib_status));
  }
}

std::string args_text(const std::string& name, Api api, const std::string& illegal) {
  std::string s = name;
  if (api == Api::kCblasColMajor) s += "[col-major]";
  if (api == Api::kCblasRowMajor) s += "[row-major]";
  return s + " with " + illegal;
}

// Each illegal argument alone (`pairs` false) or each pair of them (true), through `api`.
template <class T>
void illegal_arguments(Api api, bool pairs) {
  const Level2Api<T> ref = level2_api<T>(reference_blas(), api);
  const Level2Api<T> lib = level2_api<T>(blas_under_test(), api);
  const int lib_status = api == Api::kFortran ? 1 : 255;
  const int shift = api == Api::kFortran ? 0 : 1;
  Mismatches m;
  for (const RoutineChecks& rc : routine_checks()) {
    const std::string name = reported_name(api, precision_prefix<T>(), rc.name);
    const std::size_t count = rc.checks.size();
    for (std::size_t i = 0; i < count; ++i) {
      for (std::size_t j = pairs ? i + 1 : i; j < (pairs ? count : i + 1); ++j) {
        Args a;
        rc.checks[i].make_illegal(a);
        std::string illegal = std::string("an illegal ") + rc.checks[i].what;
        if (pairs) {
          rc.checks[j].make_illegal(a);
          illegal += " and " + std::string(rc.checks[j].what);
        }
        // A pair in a row-major call is reported in the order of the Fortran call's swapped
        // arguments: the reference says which.
        std::optional<Report> expected;
        if (!pairs || api != Api::kCblasRowMajor)
          expected = Report{name, rc.checks[i].position + shift};
        compare_report(m, ref, lib, lib_status, rc.routine, a, args_text(name, api, illegal),
                       expected);
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}

TEST(Level2Errors, SingleFortranRoutinesReportEachIllegalArgument) {
  illegal_arguments<float>(Api::kFortran, false);
}
TEST(Level2Errors, DoubleFortranRoutinesReportEachIllegalArgument) {
  illegal_arguments<double>(Api::kFortran, false);
}
TEST(Level2Errors, SingleFortranRoutinesReportTheFirstOfTwoIllegalArguments) {
  illegal_arguments<float>(Api::kFortran, true);
}
TEST(Level2Errors, DoubleFortranRoutinesReportTheFirstOfTwoIllegalArguments) {
  illegal_arguments<double>(Api::kFortran, true);
}
TEST(Level2Errors, SingleCblasColMajorRoutinesReportEachIllegalArgument) {
  illegal_arguments<float>(Api::kCblasColMajor, false);
}
TEST(Level2Errors, DoubleCblasColMajorRoutinesReportEachIllegalArgument) {
  illegal_arguments<double>(Api::kCblasColMajor, false);
}
TEST(Level2Errors, SingleCblasColMajorRoutinesReportTheFirstOfTwoIllegalArguments) {
  illegal_arguments<float>(Api::kCblasColMajor, true);
}
TEST(Level2Errors, DoubleCblasColMajorRoutinesReportTheFirstOfTwoIllegalArguments) {
  illegal_arguments<double>(Api::kCblasColMajor, true);
}
// Row-major calls swap m and n (kl and ku, x and y of ger) for the Fortran routine; the report
// names the CBLAS argument all the same.
TEST(Level2Errors, SingleCblasRowMajorRoutinesReportEachIllegalArgument) {
  illegal_arguments<float>(Api::kCblasRowMajor, false);
}
TEST(Level2Errors, DoubleCblasRowMajorRoutinesReportEachIllegalArgument) {
  illegal_arguments<double>(Api::kCblasRowMajor, false);
}
TEST(Level2Errors, SingleCblasRowMajorRoutinesReportTheFirstOfTwoIllegalArguments) {
  illegal_arguments<float>(Api::kCblasRowMajor, true);
}
TEST(Level2Errors, DoubleCblasRowMajorRoutinesReportTheFirstOfTwoIllegalArguments) {
  illegal_arguments<double>(Api::kCblasRowMajor, true);
}

// A layout neither row- nor column-major is argument 1, whatever else is illegal.
template <class T>
void illegal_layout() {
  const Level2Api<T> ref = cblas2_api<T>(reference_blas(), 7);
  const Level2Api<T> lib = cblas2_api<T>(blas_under_test(), 7);
  Mismatches m;
  for (const RoutineChecks& rc : routine_checks()) {
    const std::string name = reported_name(Api::kCblasColMajor, precision_prefix<T>(), rc.name);
    for (bool with_other : {false, true}) {
      Args a;
      if (with_other) rc.checks.back().make_illegal(a);
      compare_report(m, ref, lib, 255, rc.routine, a,
                     name + " with layout 7" +
                         (with_other ? " and an illegal " + std::string(rc.checks.back().what)
                                     : std::string()),
                     Report{name, 1});
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2Errors, SingleCblasRoutinesReportAnIllegalLayout) { illegal_layout<float>(); }
TEST(Level2Errors, DoubleCblasRoutinesReportAnIllegalLayout) { illegal_layout<double>(); }

// The leading dimension must be at least 1 even when the matrix is empty (the reference's
// LDA < MAX(1, M) and LDA < K + 1): lda = 0 is reported, not taken for an empty matrix's quick
// return.
template <class T>
void zero_leading_dimension(Api api) {
  const Level2Api<T> ref = level2_api<T>(reference_blas(), api);
  const Level2Api<T> lib = level2_api<T>(blas_under_test(), api);
  const int shift = api == Api::kFortran ? 0 : 1;
  struct Case {
    Routine routine;
    const char* name;
    int position;
  };
  const Case cases[] = {
      {Routine::kGemv, "gemv", 6}, {Routine::kGbmv, "gbmv", 8}, {Routine::kSymv, "symv", 5},
      {Routine::kSbmv, "sbmv", 6}, {Routine::kTrmv, "trmv", 6}, {Routine::kTbmv, "tbmv", 7},
      {Routine::kTrsv, "trsv", 6}, {Routine::kTbsv, "tbsv", 7}, {Routine::kGer, "ger", 9},
      {Routine::kSyr, "syr", 7},   {Routine::kSyr2, "syr2", 9}};
  Mismatches m;
  for (const Case& c : cases) {
    Args a;
    a.m = a.n = a.kl = a.ku = a.k = a.lda = 0;
    const std::string name = reported_name(api, precision_prefix<T>(), c.name);
    compare_report(m, ref, lib, api == Api::kFortran ? 1 : 255, c.routine, a,
                   args_text(name, api, "lda 0 and no rows and columns (kl = ku = k = 0)"),
                   Report{name, c.position + shift});
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2Errors, SingleFortranRoutinesReportZeroLeadingDimensions) {
  zero_leading_dimension<float>(Api::kFortran);
}
TEST(Level2Errors, DoubleFortranRoutinesReportZeroLeadingDimensions) {
  zero_leading_dimension<double>(Api::kFortran);
}
TEST(Level2Errors, SingleCblasRoutinesReportZeroLeadingDimensions) {
  zero_leading_dimension<float>(Api::kCblasColMajor);
  zero_leading_dimension<float>(Api::kCblasRowMajor);
}
TEST(Level2Errors, DoubleCblasRoutinesReportZeroLeadingDimensions) {
  zero_leading_dimension<double>(Api::kCblasColMajor);
  zero_leading_dimension<double>(Api::kCblasRowMajor);
}

// What exoblas prints: the reference BLAS's XERBLA message for a Fortran call (its name
// trimmed, as XERBLA's LEN_TRIM does), netlib cblas_xerbla's for a CBLAS one, with the bad
// option's value for the options CBLAS checks itself.
TEST(Level2Errors, ReportsArePrintedAsTheReferenceFormatsThem) {
  const Level2Api<float> f = fortran2_api<float>(blas_under_test());
  const Level2Api<double> c = cblas2_api<double>(blas_under_test(), kCblasRowMajor);
  struct Case {
    std::function<void()> call;
    std::string output;
    int status;
  };
  Args ger_m;
  ger_m.m = -1;
  Args trans;
  trans.trans = '/';
  Args lda;
  lda.lda = 1;
  const std::vector<Case> cases = {
      {[&] { call(f, Routine::kGer, ger_m); },
       " ** On entry to SGER parameter number  1 had an illegal value\n", 1},
      {[&] { call(f, Routine::kTbsv, lda); },
       " ** On entry to STBSV parameter number  7 had an illegal value\n", 1},
      {[&] { call(c, Routine::kGer, ger_m); }, "Parameter 2 to routine cblas_dger was incorrect\n",
       255},
      {[&] { call(c, Routine::kGemv, trans); },
       "Parameter 2 to routine cblas_dgemv was incorrect\nIllegal TransA setting, -1\n", 255},
  };
  for (const Case& k : cases) {
    const ChildRun r = run_in_child(k.call);
    EXPECT_EQ(r.output, k.output);
    EXPECT_FALSE(r.returned);
    EXPECT_EQ(r.exit_status, k.status) << "for " << k.output;
  }
}

}  // namespace
}  // namespace exoblas_test
