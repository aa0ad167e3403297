// The public API of exocpp: everything a schedule script or a hardware library may use.
#pragma once

#include "checker/checker.h"
#include "core/cursor.h"
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
