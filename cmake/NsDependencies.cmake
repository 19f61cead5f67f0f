# Finds the Debian packages nonsmooth builds on and defines imported targets
#   ns::blas ns::lapacke ns::cholmod ns::umfpack ns::fclib ns::cvode
# Used at build time and again by the installed nonsmoothConfig.cmake.
include_guard(GLOBAL)
find_package(PkgConfig REQUIRED)

pkg_check_modules(NS_OPENBLAS REQUIRED IMPORTED_TARGET openblas)
pkg_check_modules(NS_LAPACKE REQUIRED IMPORTED_TARGET lapacke)
if(NOT TARGET ns::blas)
  add_library(ns::blas INTERFACE IMPORTED)
  set_target_properties(ns::blas PROPERTIES INTERFACE_LINK_LIBRARIES PkgConfig::NS_OPENBLAS)
  add_library(ns::lapacke INTERFACE IMPORTED)
  set_target_properties(ns::lapacke PROPERTIES INTERFACE_LINK_LIBRARIES "PkgConfig::NS_LAPACKE;PkgConfig::NS_OPENBLAS")
endif()

find_path(NS_SUITESPARSE_INCLUDE cholmod.h PATH_SUFFIXES suitesparse REQUIRED)
find_library(NS_CHOLMOD_LIB cholmod REQUIRED)
find_library(NS_UMFPACK_LIB umfpack REQUIRED)
find_library(NS_SSCONFIG_LIB suitesparseconfig REQUIRED)
if(NOT TARGET ns::cholmod)
  add_library(ns::cholmod INTERFACE IMPORTED)
  set_target_properties(ns::cholmod PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${NS_SUITESPARSE_INCLUDE}
    INTERFACE_LINK_LIBRARIES "${NS_CHOLMOD_LIB};${NS_SSCONFIG_LIB}")
  add_library(ns::umfpack INTERFACE IMPORTED)
  set_target_properties(ns::umfpack PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${NS_SUITESPARSE_INCLUDE}
    INTERFACE_LINK_LIBRARIES "${NS_UMFPACK_LIB};${NS_SSCONFIG_LIB}")
endif()

# libfclib's CMake package brings the serial HDF5 it was built against.
find_package(fclib CONFIG REQUIRED)
if(NOT TARGET ns::fclib)
  add_library(ns::fclib INTERFACE IMPORTED)
  set_target_properties(ns::fclib PROPERTIES INTERFACE_LINK_LIBRARIES FCLIB::fclib)
endif()

find_path(NS_CVODE_INCLUDE cvode/cvode.h)
find_library(NS_CVODE_LIB sundials_cvode)
find_library(NS_NVECSERIAL_LIB sundials_nvecserial)
# dense SUNMatrix / SUNLinSol and the fixed-point nonlinear solver
find_library(NS_SUNMATDENSE_LIB sundials_sunmatrixdense)
find_library(NS_SUNLSDENSE_LIB sundials_sunlinsoldense)
# matrix-free GMRES for large (sparse) systems in the event-driven scheme
find_library(NS_SUNLSSPGMR_LIB sundials_sunlinsolspgmr)
find_library(NS_SUNNLSFP_LIB sundials_sunnonlinsolfixedpoint)
if(NS_CVODE_INCLUDE AND NS_CVODE_LIB AND NS_NVECSERIAL_LIB AND NS_SUNMATDENSE_LIB
   AND NS_SUNLSDENSE_LIB AND NS_SUNLSSPGMR_LIB AND NS_SUNNLSFP_LIB AND NOT TARGET ns::cvode)
  add_library(ns::cvode INTERFACE IMPORTED)
  set_target_properties(ns::cvode PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${NS_CVODE_INCLUDE}
    INTERFACE_LINK_LIBRARIES "${NS_CVODE_LIB};${NS_NVECSERIAL_LIB};${NS_SUNMATDENSE_LIB};${NS_SUNLSDENSE_LIB};${NS_SUNLSSPGMR_LIB};${NS_SUNNLSFP_LIB}")
endif()
