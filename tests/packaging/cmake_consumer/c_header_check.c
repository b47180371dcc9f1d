/* Compiled as C (not C++): npurt.h must be a valid C header, and the library
 * must report the version this header was written for. */
#include <stdio.h>
#include <string.h>

#include "npurt/npurt.h"

int main(void) {
  npurtVersion v;
  memset(&v, 0, sizeof v);
  v.struct_size = sizeof v;
  npurtStatus st = npurtGetVersion(&v);
  if (st != NPURT_SUCCESS) {
    fprintf(stderr, "npurtGetVersion: %s: %s\n", npurtStatusName(st), npurtGetLastErrorMessage());
    return 1;
  }
  if (v.c_api_major != NPURT_C_API_VERSION_MAJOR || v.c_api_minor < NPURT_C_API_VERSION_MINOR) {
    fprintf(stderr, "C API %d.%d in the library, header wants %d.%d\n", v.c_api_major,
            v.c_api_minor, NPURT_C_API_VERSION_MAJOR, NPURT_C_API_VERSION_MINOR);
    return 1;
  }
  /* A too-small struct is an error with a message, not a crash. */
  npurtVersion small;
  small.struct_size = 1;
  if (npurtGetVersion(&small) == NPURT_SUCCESS) {
    fprintf(stderr, "npurtGetVersion accepted struct_size = 1\n");
    return 1;
  }
  printf("npurt C API %d.%d, library %d.%d.%d\n", v.c_api_major, v.c_api_minor, v.major, v.minor,
         v.patch);
  return 0;
}
