// npurt/export.h: symbol visibility.
//
// libnpurt is built with -fvisibility=hidden; only declarations between
// NPURT_PUBLIC_BEGIN and NPURT_PUBLIC_END (the public headers in this folder)
// are exported. Internal headers under runtime/ never use these macros.
#pragma once

#if defined(__GNUC__)
#define NPURT_PUBLIC_BEGIN _Pragma("GCC visibility push(default)")
#define NPURT_PUBLIC_END _Pragma("GCC visibility pop")
#define NPURT_API __attribute__((visibility("default")))
// On the DEFINITION of an internal class that a public header forward-declares
// inside NPURT_PUBLIC_BEGIN/END: without it the class and all its members would
// be exported (the pragma's default visibility sticks to the first declaration).
#define NPURT_HIDDEN __attribute__((visibility("hidden")))
#else
#define NPURT_PUBLIC_BEGIN
#define NPURT_PUBLIC_END
#define NPURT_API
#define NPURT_HIDDEN
#endif
