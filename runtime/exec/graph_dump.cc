// runtime/exec/graph_dump.cc: graph introspection (node list, DOT, JSON).
//
// The dumps are for people and drawing tools: DOT clusters nodes by lane (the
// stream they were captured on); JSON lists nodes with their dependencies in
// the shape of GraphNodeInfo.
#include <sstream>

#include "exec/graph_internal.h"
#include "npurt/status.h"

namespace npurt {

std::string graph_node_kind(const Command& c) {
  switch (c.kind) {
    case Command::Kind::kLaunch: return "launch";
    case Command::Kind::kCopy: return "copy";
    case Command::Kind::kMemset: return "memset";
    case Command::Kind::kHostFunc: return "host";
    default: return "event";
  }
}

std::string graph_node_name(const Command& c) {
  switch (c.kind) {
    case Command::Kind::kLaunch: return c.launch.kernel_name && *c.launch.kernel_name ? c.launch.kernel_name : "<kernel>";
    case Command::Kind::kCopy: {
      static const char* const kNames[] = {"H2H", "H2D", "D2H", "D2D"};
      return kNames[static_cast<int>(c.copy_kind) & 3];
    }
    case Command::Kind::kMemset: return "memset(" + std::to_string(c.memset_value) + ")";
    case Command::Kind::kHostFunc: return "host_func";
    default: return "event";
  }
}

namespace {

const GraphState& checked(const std::shared_ptr<GraphState>& st, const char* where) {
  if (!st) throw_invalid_argument(where, "self", "null graph (use Graph::end_capture)");
  return *st;
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

}  // namespace

std::vector<GraphNodeInfo> Graph::nodes() const {
  const GraphState& g = checked(state_, "npurt.Graph.nodes");
  std::vector<GraphNodeInfo> out;
  out.reserve(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const GraphNode& n = g.nodes[i];
    GraphNodeInfo info;
    info.id = static_cast<uint32_t>(i);
    info.kind = graph_node_kind(n.cmd);
    info.name = graph_node_name(n.cmd);
    if (n.op) info.op = n.op->op;
    info.lane = n.lane;
    info.stream_id = n.stream_id;
    info.bytes = n.cmd.kind == Command::Kind::kLaunch ? 0 : n.cmd.bytes;
    info.num_blocks = n.cmd.kind == Command::Kind::kLaunch ? n.cmd.launch.num_blocks : 0;
    info.deps = n.deps;
    out.push_back(std::move(info));
  }
  return out;
}

std::string Graph::to_dot() const {
  const GraphState& g = checked(state_, "npurt.Graph.to_dot");
  std::ostringstream os;
  os << "digraph npurt_graph_" << g.id << " {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
  std::vector<GraphNodeInfo> list = nodes();
  for (uint32_t lane = 0; lane < g.num_lanes; ++lane) {
    os << "  subgraph cluster_lane" << lane << " {\n    label=\"lane " << lane << "\";\n";
    for (const GraphNodeInfo& n : list) {
      if (n.lane != lane) continue;
      os << "    n" << n.id << " [label=\"" << n.id << ": " << n.kind << " " << (n.op.empty() ? n.name : n.op);
      if (n.kind == "launch") os << "\\nblocks=" << n.num_blocks;
      if (n.bytes) os << "\\n" << n.bytes << " bytes";
      os << "\"];\n";
    }
    os << "  }\n";
  }
  for (const GraphNodeInfo& n : list)
    for (uint32_t d : n.deps) os << "  n" << d << " -> n" << n.id << ";\n";
  os << "}\n";
  return os.str();
}

std::string Graph::to_json() const {
  const GraphState& g = checked(state_, "npurt.Graph.to_json");
  std::ostringstream os;
  os << "{\"id\": " << g.id << ", \"device\": \"" << g.device.str() << "\", \"lanes\": " << g.num_lanes
     << ", \"nodes\": [";
  std::vector<GraphNodeInfo> list = nodes();
  for (size_t i = 0; i < list.size(); ++i) {
    const GraphNodeInfo& n = list[i];
    os << (i ? ", " : "") << "{\"id\": " << n.id << ", \"kind\": \"" << n.kind << "\", \"name\": \""
       << json_escape(n.name) << "\", \"op\": \"" << json_escape(n.op) << "\", \"lane\": " << n.lane << ", \"stream\": " << n.stream_id
       << ", \"bytes\": " << n.bytes << ", \"num_blocks\": " << n.num_blocks << ", \"deps\": [";
    for (size_t k = 0; k < n.deps.size(); ++k) os << (k ? ", " : "") << n.deps[k];
    os << "]}";
  }
  os << "]}";
  return os.str();
}

}  // namespace npurt
