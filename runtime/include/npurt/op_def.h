// npurt/op_def.h: what an op is: its signature, inference, tiling and kernels.
//
// An OpDef is the single description of an op that every layer reads: the
// dispatcher checks calls against it, the tiling cache keys on it, nr.ops builds
// Python signatures and docstrings from it, the profiler reads its cost.
// OpDefs are built with OpDefBuilder (op_registry.h registers them).
//
// Invariants (checked by OpDef::validate at registration):
//   - names of inputs, outputs and attributes are non-empty, C identifiers, and
//     unique within the op; every input allows at least one dtype;
//   - an op with a kernel has a tiling function and an output inference function;
//   - attribute defaults have the attribute's type.
// Kernel argument order (sim and ascend): every input's GM address in declared
// order (nullptr for an absent optional input), then every output's, then the
// workspace and the tiling pointers. Scalars travel in the tiling struct.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "npurt/backend.h"
#include "npurt/chip_profile.h"
#include "npurt/dtype.h"
#include "npurt/small_vector.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

// A non-owning view of a contiguous array (std::span is C++20).
template <class T>
class Span {
 public:
  constexpr Span() = default;
  constexpr Span(T* data, size_t size) : data_(data), size_(size) {}
  template <class C, class = decltype(std::declval<C&>().data())>
  Span(C& c) : data_(c.data()), size_(c.size()) {}
  template <class U, size_t N, class = std::enable_if_t<std::is_convertible<U (*)[], T (*)[]>::value>>
  constexpr Span(U (&arr)[N]) : data_(arr), size_(N) {}
  Span(std::initializer_list<std::remove_const_t<T>> il) : data_(il.begin()), size_(il.size()) {}
  T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) const { return data_[i]; }
  T* begin() const { return data_; }
  T* end() const { return data_ + size_; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

// ---- attributes -------------------------------------------------------------

enum class AttrType : uint8_t { kNone = 0, kInt, kFloat, kBool, kString, kIntList, kDType };
const char* attr_type_name(AttrType t);  // "int", "float", "bool", "str", "int list", "dtype"

// A tagged attribute value. kNone means "not given" (the default applies).
class AttrValue {
 public:
  AttrValue() = default;
  template <class T, std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value, int> = 0>
  AttrValue(T v) : type_(AttrType::kInt), i_(static_cast<int64_t>(v)) {}
  AttrValue(double v) : type_(AttrType::kFloat), f_(v) {}
  AttrValue(float v) : type_(AttrType::kFloat), f_(v) {}
  AttrValue(bool v) : type_(AttrType::kBool), i_(v ? 1 : 0) {}
  AttrValue(const char* v) : type_(AttrType::kString), s_(v) {}
  AttrValue(std::string v) : type_(AttrType::kString), s_(std::move(v)) {}
  AttrValue(std::initializer_list<int64_t> v) : type_(AttrType::kIntList), ints_(v) {}
  AttrValue(const std::vector<int64_t>& v) : type_(AttrType::kIntList), ints_(v) {}
  AttrValue(const Dims& v) : type_(AttrType::kIntList), ints_(v) {}
  AttrValue(DType v) : type_(AttrType::kDType), i_(static_cast<int64_t>(v)) {}

  AttrType type() const { return type_; }
  bool is_none() const { return type_ == AttrType::kNone; }
  int64_t as_int() const { return i_; }
  double as_float() const { return type_ == AttrType::kInt ? static_cast<double>(i_) : f_; }
  bool as_bool() const { return i_ != 0; }
  const std::string& as_string() const { return s_; }
  const Dims& as_ints() const { return ints_; }
  DType as_dtype() const { return static_cast<DType>(i_); }
  std::string repr() const;  // Python-style: 1, 1e-05, True, 'x', [1, 2], float32

 private:
  AttrType type_ = AttrType::kNone;
  int64_t i_ = 0;
  double f_ = 0.0;
  std::string s_;
  Dims ints_;
};

// ---- tensors as seen by inference and tiling --------------------------------

struct TensorSpec {
  bool defined = false;     // false: an absent optional input
  DType dtype = DType::kFloat32;
  Dims shape;
  Dims strides;             // elements; only meaningful for inputs declared strided
  int64_t numel() const;
};

class OpDef;

// What inference, tiling and cost functions see: specs, attributes (defaults
// applied), and the device profile. Errors go through fail(), which throws
// InvalidArgument "npurt.ops.<op>: argument '<arg>': <reason>"; a refused dtype
// (or dtype combination) goes through fail_dtype(), which throws its refinement
// UnsupportedDtype (a TypeError in Python) with the same message form.
class OpContext {
 public:
  OpContext(const OpDef& op, const TensorSpec* inputs, TensorSpec* outputs,
            const AttrValue* const* attrs, const ChipProfile& profile)
      : op_(op), inputs_(inputs), outputs_(outputs), attrs_(attrs), profile_(profile) {}

  const OpDef& op() const { return op_; }
  const char* op_name() const;
  size_t num_inputs() const;
  size_t num_outputs() const;
  const TensorSpec& input(size_t i) const { return inputs_[i]; }
  bool has_input(size_t i) const { return inputs_[i].defined; }
  const TensorSpec& output(size_t i) const { return outputs_[i]; }
  const AttrValue& attr(size_t i) const { return *attrs_[i]; }
  const AttrValue& attr(const char* name) const;  // throws NotFound naming the op
  int64_t attr_int(const char* name) const { return attr(name).as_int(); }
  double attr_float(const char* name) const { return attr(name).as_float(); }
  bool attr_bool(const char* name) const { return attr(name).as_bool(); }
  DType attr_dtype(const char* name) const { return attr(name).as_dtype(); }
  const ChipProfile& profile() const { return profile_; }

  // Inference only: declares output i.
  void set_output(size_t i, const Dims& shape, DType dtype) const;
  [[noreturn]] void fail(const std::string& arg, const std::string& reason) const;
  [[noreturn]] void fail_dtype(const std::string& arg, const std::string& reason) const;

 private:
  const OpDef& op_;
  const TensorSpec* inputs_;
  TensorSpec* outputs_;
  const AttrValue* const* attrs_;
  const ChipProfile& profile_;
};

// ---- tiling -------------------------------------------------------------------

// Output of a tiling function. num_blocks == 0 means "nothing to compute" (for
// example empty tensors): outputs are allocated but no kernel is launched.
struct TilingResult {
  uint32_t num_blocks = 1;
  SmallVector<uint8_t, 128> tiling;     // the kernel's POD tiling struct
  // Op workspace. Any workspace request (bytes > 0 or uses_system_workspace) is
  // allocated as profile.sys_workspace_bytes + workspace_bytes; the kernel finds
  // its part at GetUserWorkspace(workspace), the system part (Matmul) at the start.
  uint64_t workspace_bytes = 0;
  bool uses_system_workspace = false;

  template <class T>
  void set_tiling(const T& pod) {
    static_assert(std::is_trivially_copyable<T>::value, "tiling data must be a POD struct");
    tiling.resize(sizeof(T));
    std::memcpy(tiling.data(), &pod, sizeof(T));
  }
};

// Declared work of one call, for the profiler's GB/s and GFLOP/s columns.
struct OpCost {
  double bytes = 0;
  double flops = 0;
};

using InferFn = std::function<void(const OpContext&)>;
using TilingFn = std::function<void(const OpContext&, TilingResult&)>;
using CostFn = std::function<void(const OpContext&, OpCost&)>;
// Renders a tiling plan for describe(): "rows_per_core=4 tile=1024 buffers=2".
using TilingDescribeFn = std::function<std::string(const OpContext&, const TilingResult&)>;

// ---- signature ------------------------------------------------------------------

using DTypeMask = uint32_t;  // bit i: DType(i) allowed
inline DTypeMask dtype_mask(std::initializer_list<DType> ts) {
  DTypeMask m = 0;
  for (DType t : ts) m |= DTypeMask(1) << static_cast<int>(t);
  return m;
}
inline bool mask_has(DTypeMask m, DType t) { return (m >> static_cast<int>(t)) & 1u; }
DTypeMask all_dtypes_mask();
std::string dtype_mask_names(DTypeMask m);  // "float16, float32"

struct InputDef {
  std::string name;
  DTypeMask dtypes = 0;
  DTypeMask sim_only_dtypes = 0;   // subset of dtypes the Ascend vector unit lacks
  bool optional = false;
  bool strided = false;            // kernel reads strides from tiling; no contiguous copy
  int min_rank = 0;
  int max_rank = -1;               // -1: unbounded
};

struct OutputDef {
  std::string name;
};

struct AttrDef {
  std::string name;
  AttrType type = AttrType::kInt;
  AttrValue default_value;         // kNone: required
  bool required() const { return default_value.is_none(); }
};

struct KernelBinding {
  std::string sim_kernel_name;     // for messages, traces and the profiler
  SimKernelEntry sim_entry = nullptr;
  std::string ascend_kernel_name;  // kernel symbol in a CANN-built binary (empty: none)
};

class OpDef {
 public:
  std::string name;
  std::string doc;
  std::vector<InputDef> inputs;
  std::vector<OutputDef> outputs;
  std::vector<AttrDef> attrs;
  InferFn infer;
  TilingFn tiling;
  TilingDescribeFn describe_tiling;
  CostFn cost;
  KernelBinding kernel;
  std::string source;              // "builtin" or the plugin library path
  std::string builder_error;       // first misuse of OpDefBuilder, reported by validate()

  int input_index(const std::string& n) const;   // -1 when absent
  int attr_index(const std::string& n) const;    // -1 when absent
  // Throws InvalidArgument "npurt.register_op: op '<name>': <problem>".
  void validate() const;
  // "add(x: float16|float32, y: ...) -> (z)  attrs: alpha: float = 1.0"
  std::string signature() const;
};

// Fluent construction; used through NPURT_REGISTER_OP (op_registry.h).
class OpDefBuilder {
 public:
  explicit OpDefBuilder(std::string name) { def_.name = std::move(name); }

  OpDefBuilder& doc(std::string text) { def_.doc = std::move(text); return *this; }
  OpDefBuilder& input(std::string name, std::initializer_list<DType> dtypes);
  OpDefBuilder& input(std::string name, DTypeMask dtypes);
  OpDefBuilder& optional_input(std::string name, DTypeMask dtypes);
  OpDefBuilder& optional_input(std::string name, std::initializer_list<DType> dtypes);
  // Modifiers of the last declared input.
  OpDefBuilder& sim_only(std::initializer_list<DType> dtypes);
  OpDefBuilder& strided();
  OpDefBuilder& rank(int min_rank, int max_rank = -1);
  OpDefBuilder& output(std::string name);
  OpDefBuilder& attr(std::string name, AttrType type, AttrValue default_value = AttrValue());
  OpDefBuilder& infer(InferFn fn) { def_.infer = std::move(fn); return *this; }
  // Output i = shape and dtype of input `input` (the common elementwise case).
  OpDefBuilder& infer_same_as(size_t input);
  OpDefBuilder& tiling(TilingFn fn) { def_.tiling = std::move(fn); return *this; }
  OpDefBuilder& describe_tiling(TilingDescribeFn fn) { def_.describe_tiling = std::move(fn); return *this; }
  OpDefBuilder& cost(CostFn fn) { def_.cost = std::move(fn); return *this; }
  OpDefBuilder& sim_kernel(std::string kernel_name, SimKernelEntry entry);
  OpDefBuilder& ascend_kernel(std::string kernel_name);

  const OpDef& def() const { return def_; }
  OpDef take() { return std::move(def_); }

 private:
  InputDef* last_input(const char* what);
  OpDef def_;
};

}  // namespace npurt
NPURT_PUBLIC_END
