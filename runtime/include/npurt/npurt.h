/* npurt/npurt.h: the C API of npurt, for C and C++ programs that embed the
 * runtime without exceptions (aclnn-style two-phase op execution).
 *
 *   npurtOpExecutor ex; uint64_t ws;
 *   npurtOpGetWorkspaceSize("add", ins, 2, NULL, 0, outs, 1, &ws, &ex);
 *   npurtOpLaunch(ws_ptr, ws, ex, stream);        // ex is consumed
 *   npurtStreamSynchronize(stream);               // kernel faults surface here
 *
 * Conventions and invariants:
 *   - Every function returns npurtStatus; NPURT_SUCCESS is 0. On failure the
 *     calling thread's last error message (npurtGetLastErrorMessage) names the
 *     function, the argument and the reason; it stays until the next failure.
 *   - No function throws or aborts; the runtime stays usable after any error.
 *   - Handles are opaque; every *Create has a matching *Destroy (NULL is a no-op).
 *     Tensors keep their memory alive; destroying a tensor whose memory is in use
 *     by queued work is safe (the pool orders the free after that work).
 *   - Structs passed in start with `size_t struct_size` (set it to sizeof);
 *     fields are only appended, so old callers keep working (PJRT style).
 *   - An executor is one-shot: npurtOpLaunch consumes it, even on failure;
 *     npurtOpExecutorDestroy releases one that will not be launched.
 *   - Thread-safe: handles may be used from several threads (streams order work).
 */
#ifndef NPURT_NPURT_H_
#define NPURT_NPURT_H_

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define NPURT_C_API __attribute__((visibility("default")))
#else
#define NPURT_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define NPURT_C_API_VERSION_MAJOR 0
#define NPURT_C_API_VERSION_MINOR 3  /* 0.2: stream graphs (npurtGraph*); 0.3: NPURT_ERROR_UNSUPPORTED_DTYPE */

/* Same values as npurt::StatusCode. */
typedef enum npurtStatus {
  NPURT_SUCCESS = 0,
  NPURT_ERROR_INVALID_ARGUMENT = 1,
  NPURT_ERROR_OUT_OF_MEMORY = 2,
  NPURT_ERROR_KERNEL_FAULT = 3,
  NPURT_ERROR_NOT_FOUND = 4,
  NPURT_ERROR_ALREADY_EXISTS = 5,
  NPURT_ERROR_FAILED_PRECONDITION = 6,
  NPURT_ERROR_UNIMPLEMENTED = 7,
  NPURT_ERROR_UNAVAILABLE = 8,
  NPURT_ERROR_INTERNAL = 9,
  NPURT_ERROR_CAPTURE = 10,
  NPURT_ERROR_COMPILE = 11,
  /* The op does not take this dtype or dtype combination: a kind of invalid
   * argument (test both codes where any bad argument is handled alike). */
  NPURT_ERROR_UNSUPPORTED_DTYPE = 12
} npurtStatus;

/* Same values as npurt::DType. */
typedef enum npurtDataType {
  NPURT_BOOL = 0, NPURT_INT8, NPURT_INT16, NPURT_INT32, NPURT_INT64,
  NPURT_UINT8, NPURT_UINT16, NPURT_UINT32, NPURT_UINT64,
  NPURT_FLOAT16, NPURT_BFLOAT16, NPURT_FLOAT32, NPURT_FLOAT64,
  NPURT_COMPLEX64, NPURT_COMPLEX128
} npurtDataType;

typedef enum npurtAttrType {
  NPURT_ATTR_INT = 1, NPURT_ATTR_FLOAT, NPURT_ATTR_BOOL, NPURT_ATTR_STRING,
  NPURT_ATTR_INT_LIST, NPURT_ATTR_DTYPE
} npurtAttrType;

typedef struct npurtStream_t* npurtStream;
typedef struct npurtTensor_t* npurtTensor;
typedef struct npurtOpExecutor_t* npurtOpExecutor;
typedef struct npurtGraph_t* npurtGraph;

typedef struct npurtVersion {
  size_t struct_size;
  int major, minor, patch;        /* library version, e.g. 0.1.0 */
  int c_api_major, c_api_minor;   /* this header's NPURT_C_API_VERSION_* of the library */
} npurtVersion;

typedef struct npurtTensorDesc {
  size_t struct_size;
  npurtDataType dtype;
  int32_t ndim;                   /* 0..64 */
  const int64_t* shape;           /* ndim entries (may be NULL when ndim == 0) */
} npurtTensorDesc;

typedef struct npurtAttr {
  size_t struct_size;
  const char* name;
  npurtAttrType type;
  int64_t int_value;              /* INT, BOOL (0/1), DTYPE (npurtDataType) */
  double float_value;             /* FLOAT */
  const char* string_value;       /* STRING */
  const int64_t* int_list;        /* INT_LIST */
  size_t int_list_len;
} npurtAttr;

NPURT_C_API npurtStatus npurtGetVersion(npurtVersion* version);
NPURT_C_API const char* npurtGetLastErrorMessage(void);
NPURT_C_API const char* npurtStatusName(npurtStatus status);

/* Streams. device: "sim", "sim:0", "ascend:1"; NULL = the current device. */
NPURT_C_API npurtStatus npurtStreamCreate(const char* device, npurtStream* stream);
NPURT_C_API npurtStatus npurtStreamGetDefault(const char* device, npurtStream* stream);
NPURT_C_API npurtStatus npurtStreamSynchronize(npurtStream stream);
NPURT_C_API npurtStatus npurtStreamDestroy(npurtStream stream);

/* Tensors: contiguous, allocated from the pool of the stream's device. */
NPURT_C_API npurtStatus npurtTensorCreate(const npurtTensorDesc* desc, npurtStream stream,
                                          npurtTensor* tensor);
NPURT_C_API npurtStatus npurtTensorDestroy(npurtTensor tensor);
NPURT_C_API npurtStatus npurtTensorGetDesc(npurtTensor tensor, npurtDataType* dtype,
                                           int32_t* ndim, const int64_t** shape);
NPURT_C_API npurtStatus npurtTensorGetDataPtr(npurtTensor tensor, void** data, uint64_t* nbytes);
/* bytes must equal the tensor's size in bytes. CopyToHost waits for the data. */
NPURT_C_API npurtStatus npurtTensorCopyFromHost(npurtTensor tensor, const void* src, uint64_t bytes,
                                                npurtStream stream);
NPURT_C_API npurtStatus npurtTensorCopyToHost(npurtTensor tensor, void* dst, uint64_t bytes,
                                              npurtStream stream);

/* Ops. inputs: NULL entries = absent optional inputs. outputs: caller-allocated,
 * exact shape and dtype (npurtOpInferOutput tells them). */
NPURT_C_API npurtStatus npurtOpInferOutput(const char* op, const npurtTensor* inputs, size_t num_inputs,
                                           const npurtAttr* attrs, size_t num_attrs, size_t output_index,
                                           npurtDataType* dtype, int32_t* ndim, int64_t* shape,
                                           int32_t shape_capacity);
NPURT_C_API npurtStatus npurtOpGetWorkspaceSize(const char* op, const npurtTensor* inputs,
                                                size_t num_inputs, const npurtAttr* attrs,
                                                size_t num_attrs, const npurtTensor* outputs,
                                                size_t num_outputs, uint64_t* workspace_size,
                                                npurtOpExecutor* executor);
NPURT_C_API npurtStatus npurtOpLaunch(void* workspace, uint64_t workspace_size,
                                      npurtOpExecutor executor, npurtStream stream);
NPURT_C_API npurtStatus npurtOpExecutorDestroy(npurtOpExecutor executor);

/* Plugins: loads an op library (see npurt/plugin.h). */
NPURT_C_API npurtStatus npurtLoadLibrary(const char* path);

/* ---- Stream graphs (since C API 0.2; see npurt/graph.h and docs/graphs.md) ----
 * Like aclmdlRICaptureBegin/End: between npurtStreamBeginCapture and
 * npurtStreamEndCapture, work enqueued on the stream (op launches, copies) is
 * recorded, not run; EndCapture validates and instantiates the graph (there is
 * no separate instantiate step), npurtGraphReplay runs it as one unit.
 * Illegal calls while capturing (synchronizing the capturing stream, a
 * blocking copy to the host, capturing a default stream, ...) return
 * NPURT_ERROR_CAPTURE with the CANN code in the message and record nothing.
 * Binding slots: npurtGraphAddBinding(captured tensor) -> slot; a replay may
 * rebind slots to other tensors of the same shape and dtype (inputs or
 * outputs) for that replay only. */
typedef enum npurtCaptureMode {
  NPURT_CAPTURE_MODE_GLOBAL = 0,       /* default (CUDA/CANN global) */
  NPURT_CAPTURE_MODE_THREAD_LOCAL = 1,
  NPURT_CAPTURE_MODE_RELAXED = 2
} npurtCaptureMode;

typedef enum npurtGraphDumpFormat {
  NPURT_GRAPH_DUMP_DOT = 0,            /* Graphviz */
  NPURT_GRAPH_DUMP_JSON = 1
} npurtGraphDumpFormat;

typedef struct npurtCaptureOptions {
  size_t struct_size;
  npurtCaptureMode mode;
  npurtGraph share_pool_with;          /* NULL: a new graph-private pool; else that graph's pool */
} npurtCaptureOptions;

typedef struct npurtGraphBinding {
  size_t struct_size;
  uint32_t slot;                       /* from npurtGraphAddBinding */
  npurtTensor tensor;                  /* same shape, dtype and device as the captured one */
} npurtGraphBinding;

/* options: NULL = global mode, new pool. */
NPURT_C_API npurtStatus npurtStreamBeginCapture(npurtStream stream, const npurtCaptureOptions* options);
/* Ends the capture begun on stream and returns the instantiated graph. */
NPURT_C_API npurtStatus npurtStreamEndCapture(npurtStream stream, npurtGraph* graph);
/* Discards the capture begun on stream (success when it is not capturing). */
NPURT_C_API npurtStatus npurtStreamAbortCapture(npurtStream stream);
NPURT_C_API npurtStatus npurtStreamIsCapturing(npurtStream stream, int* capturing);
/* This thread's interaction mode (cudaThreadExchangeStreamCaptureMode); *mode gets the old one. */
NPURT_C_API npurtStatus npurtThreadExchangeCaptureMode(npurtCaptureMode* mode);

/* Enqueues the graph on stream (returns after enqueue; faults surface at the
 * stream's next synchronize). bindings may be NULL when num_bindings is 0. */
NPURT_C_API npurtStatus npurtGraphReplay(npurtGraph graph, const npurtGraphBinding* bindings,
                                         size_t num_bindings, npurtStream stream);
NPURT_C_API npurtStatus npurtGraphAddBinding(npurtGraph graph, npurtTensor captured, uint32_t* slot);
NPURT_C_API npurtStatus npurtGraphGetNodeCount(npurtGraph graph, size_t* count);
/* Writes the dump with its terminating NUL into buffer when capacity allows;
 * *length gets the size needed including the NUL. buffer may be NULL to ask
 * for the size; a too small non-NULL buffer is NPURT_ERROR_INVALID_ARGUMENT. */
NPURT_C_API npurtStatus npurtGraphDump(npurtGraph graph, npurtGraphDumpFormat format, char* buffer,
                                       size_t capacity, size_t* length);
/* Replays already enqueued finish normally; the graph's memory is released after them. */
NPURT_C_API npurtStatus npurtGraphDestroy(npurtGraph graph);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* NPURT_NPURT_H_ */
