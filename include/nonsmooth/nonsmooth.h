/* nonsmooth.h — umbrella header of the numerics library. */
#ifndef NONSMOOTH_H
#define NONSMOOTH_H
#include "ns_version.h"
#include "ns_config.h"
#include "ns_status.h"
#include "ns_kind.h"
#include "ns_matrix.h"
#include "ns_factor.h"
#include "ns_problem.h"
#include "ns_residual.h"
#include "ns_solver.h"
#include "ns_io.h"
#endif
