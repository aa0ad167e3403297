// Shared helpers for scheduling-operation tests: parsing a proc from text, golden files, the
// interpreter equivalence check every accepted rewrite goes through, and refusal checks.
#pragma once

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "core/ir_visit.h"

namespace exocpp::testing {

// The one proc of `src` (or the proc named `name`).
inline Proc parse_proc(const std::string& src, const std::string& name = "") {
  Module m = parse_module(src);
  return name.empty() ? m.procs.back() : m.proc(name);
}

// Compares `actual` with the running test's golden file, tests/rewrites/golden/<Suite>.<Test>.txt
// (one golden per test, named after it). With UPDATE_GOLDEN=1 in the environment the file is
// (re)written instead; a missing golden file is a failure otherwise.
inline void expect_golden(const std::string& actual) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  ASSERT_NE(test, nullptr) << "expect_golden outside a test";
  const std::string name = std::string(test->test_suite_name()) + "." + test->name();
  std::string path = std::string(EXOCPP_TEST_DATA_DIR) + "/rewrites/golden/" + name + ".txt";
  const char* update = std::getenv("UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path) << actual;
    return;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << "missing golden file " << path
                         << " (run the test with UPDATE_GOLDEN=1 to create it); actual:\n"
                         << actual;
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), actual) << "golden file " << path << " differs (UPDATE_GOLDEN=1 rewrites it)";
}

// Whether the printed proc contains `needle`.
inline bool has(const Proc& p, const std::string& needle) {
  return to_string(p).find(needle) != std::string::npos;
}

// The check every accepted rewrite goes through: `before` and `after` give the same results on
// random integer-valued inputs satisfying the asserts (several seeds), and the printed `after`
// parses back to the same text.
inline void expect_equivalent(
    const Proc& before, const Proc& after, const std::map<std::string, int64_t>& sizes = {},
    CompareProcsOptions opts = [] {
      CompareProcsOptions o;
      o.trials = 4;
      return o;
    }()) {
  EXPECT_EQ(compare_procs(before, after, sizes, 1, opts), "") << "before:\n"
                                                              << before << "\nafter:\n"
                                                              << after;
  std::string printed = to_string(after);
  ParseOptions po;  // the callees of `after` are visible to the re-parse
  struct Callees : IRVisitor {
    std::vector<Proc>* out;
    std::vector<Config>* configs;
    void visit_Call(const CallNode* n, const Stmt& s) override {
      out->push_back(Proc(n->proc));
      IRVisitor::visit_Call(n, s);
    }
    // ... and so are the configs it reads and writes.
    void add(const Config& c) {
      if (std::find(configs->begin(), configs->end(), c) == configs->end()) configs->push_back(c);
    }
    void visit_WriteConfig(const WriteConfigNode* n, const Stmt& s) override {
      add(n->config);
      IRVisitor::visit_WriteConfig(n, s);
    }
    void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
      add(n->config);
      IRVisitor::visit_ReadConfig(n, e);
    }
  } callees;
  callees.out = &po.procs;
  callees.configs = &po.configs;
  callees.visit(after.body());
  EXPECT_NO_THROW({
    Module m = parse_module(printed, po);
    EXPECT_EQ(to_string(m.procs.back()), printed);
  }) << printed;
}

// Runs `f`, expecting a SchedulingError from operation `op` whose message contains `needle`: for
// the tests that guard a message's wording; the others assert the code and reason id too.
template <class F>
void expect_refused(F&& f, const std::string& op, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected " << op << " to refuse (" << needle << ")";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), op) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message does not contain '" << needle << "':\n"
        << e.what();
  }
}

// Expects `f` to throw a SchedulingError of operation `op` with this code and reason id (what a
// program decides on) and a message that contains `needle` (what the user reads: the place, the
// names, the counterexample).
template <class F>
void expect_refused(F&& f, const std::string& op, ErrorCode code, const std::string& reason_id,
                    const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected " << op << " to refuse (" << reason_id << ": " << needle << ")";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), op) << e.what();
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_EQ(e.reason_id(), reason_id) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message does not contain '" << needle << "':\n"
        << e.what();
  }
}

// Expects `f` to throw a SchedulingError of operation `op` with this code and reason id: what a
// program decides on, so tests of a named refusal assert it rather than the message's wording.
template <class F>
void expect_refused(F&& f, const std::string& op, ErrorCode code, const std::string& reason_id) {
  try {
    f();
    ADD_FAILURE() << "expected " << op << " to refuse (" << reason_id << ")";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.op(), op) << e.what();
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_EQ(e.reason_id(), reason_id) << e.what();
  }
}

// Expects `op` to be refused (by whichever operation) with a message that contains `phrase`.
inline void expect_refused(const std::function<Proc()>& op, const std::string& phrase) {
  try {
    Proc q = op();
    ADD_FAILURE() << "accepted:\n" << q;
  } catch (const SchedulingError& e) {
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
  }
}

}  // namespace exocpp::testing
