// The port of Exo's examples/cursors/cursors.py (examples/exo_ports/cursors.cpp): the cursors the
// tutorial finds and navigates name the loops it says they do, forwarding a cursor implicitly and
// explicitly gives the same proc, and every scheduled proc computes what gemv computes.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <string>

#include "cursors.h"

using namespace exocpp;

namespace {

const exo_ports::CursorsPort& port() {
  static const exo_ports::CursorsPort p = exo_ports::cursors();
  return p;
}

// Sizes the tutorial's asserts allow (multiples of 8; a size is positive), smallest first.
const int64_t kSizes[][2] = {{8, 8}, {8, 16}, {24, 8}};

}  // namespace

TEST(ExoPortCursors, FindLoopAndFindNameTheSameLoop) {
  EXPECT_TRUE(port().i_loop == port().i_loop2);
  EXPECT_EQ(port().i_loop.name(), "i");
}

TEST(ExoPortCursors, NavigationReachesTheInnerLoopAndBack) {
  EXPECT_EQ(port().j_loop.name(), "j");
  EXPECT_TRUE(port().j_loop_parent == port().i_loop);
  EXPECT_FALSE(port().j_loop == port().i_loop);
}

TEST(ExoPortCursors, CursorsOfDifferentProcsAreNotEqual) {
  // The forwarded cursor names the j tiles' loop of g, not a place of gemv.
  EXPECT_FALSE(port().j_in_g == port().j_loop);
  EXPECT_TRUE(port().j_in_g.proc().same_as(port().g));
}

TEST(ExoPortCursors, ForwardedCursorNamesTheOuterLoopOfTheDividedLoop) {
  // Exo forwards a cursor to a divided loop to the outer loop of the pair.
  EXPECT_EQ(port().j_in_g.name(), "jo");
}

TEST(ExoPortCursors, ImplicitAndExplicitForwardingGiveTheSameProc) {
  EXPECT_EQ(to_string(port().g1), to_string(port().g2));
}

TEST(ExoPortCursors, Tile2DPutsTheJTilesAboveTheInnerILoop) {
  std::string text = to_string(port().final_g);
  size_t io = text.find("for io in"), jo = text.find("for jo in"), ii = text.find("for ii in"),
         ji = text.find("for ji in");
  ASSERT_NE(ji, std::string::npos) << text;
  EXPECT_LT(io, jo) << text;
  EXPECT_LT(jo, ii) << text;
  EXPECT_LT(ii, ji) << text;
}

TEST(ExoPortCursors, Tile2DComputesGemv) {
  for (const auto& s : kSizes)
    EXPECT_EQ(compare_procs(port().gemv, port().final_g, {{"M", s[0]}, {"N", s[1]}}), "")
        << "M = " << s[0] << ", N = " << s[1] << "\n"
        << port().final_g;
}

TEST(ExoPortCursors, StepByStepScheduleComputesGemv) {
  for (const auto& s : kSizes)
    EXPECT_EQ(compare_procs(port().gemv, port().g1, {{"M", s[0]}, {"N", s[1]}}), "")
        << "M = " << s[0] << ", N = " << s[1] << "\n"
        << port().g1;
}

TEST(ExoPortCursors, Tile2DIsTheStepByStepScheduleUnderAnotherName) {
  // The tutorial's user-defined operation runs the same steps as its section 4.
  EXPECT_EQ(to_string(rename(port().g1, "gemv")), to_string(port().final_g));
}

TEST(ExoPortCursors, GeneratedCAgreesWithTheInterpreter) {
  EXPECT_EQ(compare_compiled_with_interpreter(port().final_g, {{"M", 16}, {"N", 8}}, 1), "");
}
