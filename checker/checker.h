// The checker's public interface: contexts, effects, legality queries and front-end checks.
// See docs/checker.md for the model and how a rewrite uses it.
#pragma once

#include "checker/answer.h"
#include "checker/context.h"
#include "checker/effects.h"
#include "checker/frontend_checks.h"
#include "checker/queries.h"
