// The tuning run as an SVG image (search/plot.h): one dot per timed candidate, the best so far
// as one path, the plain proc's time as a line, and a title escaped for XML.
#include "search/plot.h"

#include <gtest/gtest.h>

#include <string>

using namespace exocpp;
using namespace exocpp::search;

namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TuneResult run_of(std::initializer_list<double> seconds) {
  TuneResult r;
  r.plain_seconds = 4e-3;
  for (double s : seconds) r.timed.push_back({Trace{}, Proc{}, s});
  return r;
}

TEST(BestTimeSvg, ADotPerCandidateAndOneBestPath) {
  std::string svg = best_time_svg(run_of({3e-3, 5e-3, 1e-3, 2e-3}), "scale N=512");
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_EQ(count(svg, "<circle "), 4u);
  EXPECT_EQ(count(svg, "<path "), 1u);
  EXPECT_NE(svg.find("plain 4 ms"), std::string::npos) << svg;
  EXPECT_NE(svg.find("best 1 ms"), std::string::npos) << svg;
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(BestTimeSvg, TheTitleIsEscaped) {
  std::string svg = best_time_svg(run_of({1e-3}), "a<b & \"c\"");
  EXPECT_NE(svg.find("a&lt;b &amp; &quot;c&quot;"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("a<b"), std::string::npos);
}

TEST(BestTimeSvg, ARunWithNothingTimedDrawsOnlyThePlainProc) {
  std::string svg = best_time_svg(run_of({}), "nothing");
  EXPECT_EQ(count(svg, "<circle "), 0u);
  EXPECT_EQ(count(svg, "<path "), 0u);
  EXPECT_NE(svg.find("plain 4 ms"), std::string::npos) << svg;
}

TEST(BestTimeSvg, APlainProcNotTimedIsLeftOut) {
  TuneResult r = run_of({2e-3, 1e-3});
  r.plain_seconds = 0;
  std::string svg = best_time_svg(r, "untimed plain");
  EXPECT_EQ(svg.find("plain "), std::string::npos) << svg;
  EXPECT_NE(svg.find("best 1 ms"), std::string::npos) << svg;
}

}  // namespace
