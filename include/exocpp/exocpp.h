// The public API of exocpp: everything a schedule script or a hardware library may use, and
// nothing else (the checker's queries, the rewrites' shared internals in rewrites/internal/ and
// the code generator's pieces are not part of it; tests and tools include them directly).
#pragma once

#include "checker/frontend_checks.h"
#include "core/cursor.h"
#include "core/cursor_inspection.h"
#include "core/errors.h"
#include "core/externs.h"
#include "core/interpreter.h"
#include "core/ir.h"
#include "core/memory.h"
#include "core/parser.h"
#include "core/pattern.h"
#include "core/printer.h"
#include "core/test_inputs.h"
#include "core/typecheck.h"
#include "driver/driver.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/configs.h"
#include "rewrites/loops.h"
#include "rewrites/memories.h"
#include "rewrites/replace.h"
#include "rewrites/stmts.h"
#include "rewrites/subprocs.h"
#include "rewrites/target.h"
#include "rewrites/validate.h"
