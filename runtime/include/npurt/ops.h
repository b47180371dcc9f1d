// npurt/ops.h: calling ops by name from C++, and typed wrappers for built-ins.
//
//   auto y = npurt::ops::call("layer_norm", {x, gamma, beta}, {{"eps", 1e-5}}, stream)[0];
//   npurt::Tensor z = npurt::ops::add(x, y);
//
// call() resolves the name on every call (one registry lookup); services that
// call an op in a loop keep an OpHandle and use dispatch() (dispatch.h).
// Attribute names are matched against the OpDef; an unknown name, a value of
// the wrong type or a missing required attribute throws InvalidArgument naming
// the op and the attribute. A null stream means the inputs' current stream.
#pragma once

#include <string>
#include <vector>

#include "npurt/dispatch.h"
#include "npurt/op_def.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

struct NamedAttr {
  std::string name;
  AttrValue value;
};

// Orders named attributes as the op declares them (missing -> AttrValue()).
std::vector<AttrValue> resolve_attrs(const OpDef& def, const std::vector<NamedAttr>& attrs);

namespace ops {

std::vector<Tensor> call(const std::string& name, const std::vector<Tensor>& inputs,
                         const std::vector<NamedAttr>& attrs = {}, const Stream& stream = Stream(),
                         const std::vector<Tensor>& out = {});

// Built-in kernels (kernels/). `out`, when given, receives the result.
Tensor copy(const Tensor& x, const Stream& stream = Stream(), const Tensor& out = Tensor());
// A contiguous tensor with x's values (x itself when already contiguous).
Tensor contiguous(const Tensor& x, const Stream& stream = Stream());
Tensor fill(const Dims& shape, DType dtype, double value, const Stream& stream,
            const Tensor& out = Tensor());
// Writes value (+ i*value_imag for complex dtypes) into every element of the
// view dst, whatever its strides (negative, zero), with one `fill` launch: a
// non-contiguous dst is passed as the window of its storage between its
// lowest and highest element with fill's `strides` (kernels/fill/fill_op.cc),
// and only dst's elements are written. Conversion rules are fill's.
void fill_into(const Tensor& dst, double value, const Stream& stream = Stream(), double value_imag = 0.0);
// Writes src (dst's shape and dtype; any strides, broadcast ones too) into the
// view dst with one `copy` launch, the same way (copy's `out_strides`). src
// must not overlap dst's storage (copy it first).
void copy_into(const Tensor& dst, const Tensor& src, const Stream& stream = Stream());
Tensor cast(const Tensor& x, DType dtype, const Stream& stream = Stream(), const Tensor& out = Tensor());
Tensor add(const Tensor& x, const Tensor& y, const Stream& stream = Stream(), const Tensor& out = Tensor());
Tensor mul(const Tensor& x, const Tensor& y, const Stream& stream = Stream(), const Tensor& out = Tensor());

// Human-readable description of an op; with input specs also its plan
// (outputs, numBlocks, tiling bytes, workspace, the op's tiling summary).
std::string describe(const std::string& name, const std::vector<TensorSpec>& inputs = {},
                     const std::vector<NamedAttr>& attrs = {}, const ChipProfile* profile = nullptr);

}  // namespace ops
}  // namespace npurt
NPURT_PUBLIC_END
