// runtime/ops/op_def.cc: attribute values, OpContext, OpDef validation and the builder.
#include "npurt/op_def.h"

#include <cctype>
#include <cstdio>
#include <set>
#include <sstream>

#include "npurt/dispatch.h"
#include "npurt/status.h"

namespace npurt {

const char* attr_type_name(AttrType t) {
  switch (t) {
    case AttrType::kNone: return "none";
    case AttrType::kInt: return "int";
    case AttrType::kFloat: return "float";
    case AttrType::kBool: return "bool";
    case AttrType::kString: return "str";
    case AttrType::kIntList: return "int list";
    case AttrType::kDType: return "dtype";
  }
  return "unknown";
}

std::string AttrValue::repr() const {
  switch (type_) {
    case AttrType::kNone: return "None";
    case AttrType::kInt: return std::to_string(i_);
    case AttrType::kFloat: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", f_);
      std::string s = buf;
      if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // 1 -> 1.0 (not nan/inf)
      return s;
    }
    case AttrType::kBool: return i_ ? "True" : "False";
    case AttrType::kString: return "'" + s_ + "'";
    case AttrType::kIntList: {
      std::string s = "[";
      for (size_t i = 0; i < ints_.size(); ++i) s += (i ? ", " : "") + std::to_string(ints_[i]);
      return s + "]";
    }
    case AttrType::kDType: return dtype_name(as_dtype());
  }
  return "?";
}

int64_t TensorSpec::numel() const { return shape_numel(shape); }

DTypeMask all_dtypes_mask() { return (DTypeMask(1) << kNumDTypes) - 1; }

std::string dtype_mask_names(DTypeMask m) {
  std::string s;
  for (int i = 0; i < kNumDTypes; ++i)
    if ((m >> i) & 1u) s += (s.empty() ? "" : ", ") + std::string(dtype_name(static_cast<DType>(i)));
  return s;
}

// ---- OpContext ----------------------------------------------------------------

const char* OpContext::op_name() const { return op_.name.c_str(); }
size_t OpContext::num_inputs() const { return op_.inputs.size(); }
size_t OpContext::num_outputs() const { return op_.outputs.size(); }

const AttrValue& OpContext::attr(const char* name) const {
  int i = op_.attr_index(name);
  if (i < 0) throw NotFound(op_where(op_) + ": attribute '" + name + "' is not declared by the op");
  return *attrs_[i];
}

void OpContext::set_output(size_t i, const Dims& shape, DType dtype) const {
  if (i >= op_.outputs.size())
    throw Error(StatusCode::kInternal, op_where(op_) + ": inference set output " + std::to_string(i) +
                                           " but the op declares " + std::to_string(op_.outputs.size()));
  outputs_[i].defined = true;
  outputs_[i].shape = shape;
  outputs_[i].dtype = dtype;
  outputs_[i].strides = contiguous_strides(shape);
}

void OpContext::fail(const std::string& arg, const std::string& reason) const {
  throw_invalid_argument(op_where(op_), arg, reason);
}

void OpContext::fail_dtype(const std::string& arg, const std::string& reason) const {
  throw_unsupported_dtype(op_where(op_), arg, reason);
}

// ---- OpDef ----------------------------------------------------------------------

int OpDef::input_index(const std::string& n) const {
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].name == n) return static_cast<int>(i);
  return -1;
}

int OpDef::attr_index(const std::string& n) const {
  for (size_t i = 0; i < attrs.size(); ++i)
    if (attrs[i].name == n) return static_cast<int>(i);
  return -1;
}

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

[[noreturn]] void bad_def(const OpDef& d, const std::string& problem) {
  throw InvalidArgument("npurt.register_op: op '" + d.name + "': " + problem);
}

void check_names(const OpDef& d) {
  std::set<std::string> seen;
  auto check = [&](const std::string& n, const char* kind) {
    if (!is_identifier(n)) bad_def(d, std::string(kind) + " name '" + n + "' is not an identifier");
    if (!seen.insert(n).second)
      bad_def(d, std::string(kind) + " name '" + n + "' is used twice (inputs, outputs and attributes share one namespace)");
  };
  for (auto& i : d.inputs) check(i.name, "input");
  for (auto& o : d.outputs) check(o.name, "output");
  for (auto& a : d.attrs) check(a.name, "attribute");
}

}  // namespace

void OpDef::validate() const {
  if (!is_identifier(name)) bad_def(*this, "the op name must be a non-empty identifier");
  if (!builder_error.empty()) bad_def(*this, builder_error);
  check_names(*this);
  bool seen_optional = false;
  for (auto& in : inputs) {
    if (in.dtypes == 0) bad_def(*this, "input '" + in.name + "' allows no dtype");
    if ((in.sim_only_dtypes & ~in.dtypes) != 0)
      bad_def(*this, "input '" + in.name + "' declares sim-only dtypes it does not allow (" +
                         dtype_mask_names(in.sim_only_dtypes & ~in.dtypes) + ")");
    if (in.max_rank >= 0 && in.max_rank < in.min_rank)
      bad_def(*this, "input '" + in.name + "' has max rank below min rank");
    seen_optional = seen_optional || in.optional;
  }
  for (auto& a : attrs) {
    if (a.type == AttrType::kNone) bad_def(*this, "attribute '" + a.name + "' has no type");
    bool ok = a.default_value.is_none() || a.default_value.type() == a.type ||
              (a.type == AttrType::kFloat && a.default_value.type() == AttrType::kInt);
    if (!ok)
      bad_def(*this, "attribute '" + a.name + "' is declared " + attr_type_name(a.type) +
                         " but its default " + a.default_value.repr() + " is " +
                         attr_type_name(a.default_value.type()));
  }
  if (outputs.empty()) bad_def(*this, "declares no output");
  if (!infer) bad_def(*this, "has no output inference function (use .infer(...) or .infer_same_as(i))");
  bool has_kernel = kernel.sim_entry != nullptr || !kernel.ascend_kernel_name.empty();
  if (!has_kernel) bad_def(*this, "has no kernel (use .sim_kernel(name, entry))");
  if (!tiling) bad_def(*this, "has a kernel but no tiling function (use .tiling(fn))");
  (void)seen_optional;
}

std::string OpDef::signature() const {
  std::ostringstream os;
  os << name << "(";
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto& in = inputs[i];
    os << (i ? ", " : "") << in.name << (in.optional ? "?" : "") << ": ";
    std::string names = dtype_mask_names(in.dtypes);
    for (auto& c : names) if (c == ',') c = '|';
    std::string compact;
    for (char c : names) if (c != ' ') compact += c;
    os << compact;
  }
  for (auto& a : attrs) {
    os << ", " << a.name << ": " << attr_type_name(a.type);
    if (!a.required()) os << " = " << a.default_value.repr();
  }
  os << ") -> (";
  for (size_t i = 0; i < outputs.size(); ++i) os << (i ? ", " : "") << outputs[i].name;
  os << ")";
  return os.str();
}

// ---- OpDefBuilder -----------------------------------------------------------------

InputDef* OpDefBuilder::last_input(const char* what) {
  if (def_.inputs.empty()) {
    if (def_.builder_error.empty())
      def_.builder_error = std::string(".") + what + "() was called before any .input()";
    return nullptr;
  }
  return &def_.inputs.back();
}

OpDefBuilder& OpDefBuilder::input(std::string name, DTypeMask dtypes) {
  InputDef in;
  in.name = std::move(name);
  in.dtypes = dtypes;
  def_.inputs.push_back(std::move(in));
  return *this;
}
OpDefBuilder& OpDefBuilder::input(std::string name, std::initializer_list<DType> dtypes) {
  return input(std::move(name), dtype_mask(dtypes));
}
OpDefBuilder& OpDefBuilder::optional_input(std::string name, DTypeMask dtypes) {
  input(std::move(name), dtypes);
  def_.inputs.back().optional = true;
  return *this;
}
OpDefBuilder& OpDefBuilder::optional_input(std::string name, std::initializer_list<DType> dtypes) {
  return optional_input(std::move(name), dtype_mask(dtypes));
}
OpDefBuilder& OpDefBuilder::sim_only(std::initializer_list<DType> dtypes) {
  if (InputDef* in = last_input("sim_only")) in->sim_only_dtypes |= dtype_mask(dtypes);
  return *this;
}
OpDefBuilder& OpDefBuilder::strided() {
  if (InputDef* in = last_input("strided")) in->strided = true;
  return *this;
}
OpDefBuilder& OpDefBuilder::rank(int min_rank, int max_rank) {
  if (InputDef* in = last_input("rank")) {
    in->min_rank = min_rank;
    in->max_rank = max_rank;
  }
  return *this;
}
OpDefBuilder& OpDefBuilder::output(std::string name) {
  def_.outputs.push_back(OutputDef{std::move(name)});
  return *this;
}
OpDefBuilder& OpDefBuilder::attr(std::string name, AttrType type, AttrValue default_value) {
  AttrDef a;
  a.name = std::move(name);
  a.type = type;
  a.default_value = std::move(default_value);
  def_.attrs.push_back(std::move(a));
  return *this;
}
OpDefBuilder& OpDefBuilder::infer_same_as(size_t input) {
  def_.infer = [input](const OpContext& ctx) {
    const TensorSpec& in = ctx.input(input);
    for (size_t o = 0; o < ctx.num_outputs(); ++o) ctx.set_output(o, in.shape, in.dtype);
  };
  if (input >= def_.inputs.size() && def_.builder_error.empty())
    def_.builder_error = ".infer_same_as(" + std::to_string(input) + ") names an undeclared input";
  return *this;
}
OpDefBuilder& OpDefBuilder::sim_kernel(std::string kernel_name, SimKernelEntry entry) {
  def_.kernel.sim_kernel_name = std::move(kernel_name);
  def_.kernel.sim_entry = entry;
  if (entry == nullptr && def_.builder_error.empty())
    def_.builder_error = ".sim_kernel('" + def_.kernel.sim_kernel_name + "') was given a null entry";
  return *this;
}
OpDefBuilder& OpDefBuilder::ascend_kernel(std::string kernel_name) {
  def_.kernel.ascend_kernel_name = std::move(kernel_name);
  return *this;
}

}  // namespace npurt
