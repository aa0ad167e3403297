// exoblas's level 1 (routine.h): one file per routine in level1/.
#include "routine.h"

namespace exoblas {

Routine asum();
Routine axpy();
Routine copy();
Routine dot();
Routine dsdot();
Routine iamax();
Routine nrm2();
Routine rot();
Routine rotg();
Routine rotm();
Routine rotmg();
Routine scal();
Routine swap();

std::vector<Routine> level1() {
  return {asum(), axpy(), copy(), dot(),   dsdot(), iamax(), nrm2(),
          rot(),  rotg(), rotm(), rotmg(), scal(),  swap()};
}

}  // namespace exoblas
