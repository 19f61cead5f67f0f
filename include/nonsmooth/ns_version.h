/* ns_version.h — library version. */
#ifndef NS_VERSION_H
#define NS_VERSION_H
#ifdef __cplusplus
extern "C" {
#endif

#define NS_VERSION_MAJOR 0
#define NS_VERSION_MINOR 1
#define NS_VERSION_PATCH 0
#define NS_VERSION_STRING "0.1.0"

/** Version of the library actually linked ("0.1.0"). */
const char *ns_version(void);

#ifdef __cplusplus
}
#endif
#endif
