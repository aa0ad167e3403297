// exoblas's level 2 (routine.h): one file per family in level2/.
#include "routine.h"

namespace exoblas {

std::vector<Routine> banded();
std::vector<Routine> gemv();
std::vector<Routine> ger();
std::vector<Routine> symv();
std::vector<Routine> syr();
std::vector<Routine> trmv();

std::vector<Routine> level2() {
  std::vector<Routine> out;
  for (auto family : {gemv, ger, symv, syr, trmv, banded})
    for (Routine& r : family()) out.push_back(std::move(r));
  return out;
}

}  // namespace exoblas
