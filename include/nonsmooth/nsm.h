/* nsm.h — umbrella header of libnonsmooth_mechanics (prefix nsm_). */
#ifndef NSM_H
#define NSM_H
#include "nsm_ds.h"
#include "nsm_relation.h"
#include "nsm_rigid.h"
#include "nsm_nslaw.h"
#include "nsm_model.h"
#include "nsm_simulation.h"
#include "nsm_event_driven.h"
#endif
