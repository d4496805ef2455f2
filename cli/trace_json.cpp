#include "trace_json.hpp"

#include "diagnostics.hpp"

#include "tsoreach/lang/printer.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tsoreach::cli {

namespace {

using nlohmann::json;

std::optional<Value> optionalValue(const json& step, const char* key, const std::string& where,
                                   const std::string& path) {
    if (!step.contains(key)) {
        return std::nullopt;
    }
    if (!step[key].is_number_integer()) {
        throw InputError(path, {}, where + ": '" + key + "' must be an integer");
    }
    return step[key].get<Value>();
}

std::string stringField(const json& step, const char* key, const std::string& where,
                        const std::string& path) {
    if (!step.contains(key) || !step[key].is_string()) {
        throw InputError(path, {}, where + ": missing string field '" + key + "'");
    }
    return step[key].get<std::string>();
}

// A report of a later format may mean its fields differently: refused. A
// trace without the field (written by hand, or a bare array) is read.
void checkSchemaVersion(const json& doc, const std::string& path) {
    if (!doc.contains("schema_version")) {
        return;
    }
    const json& v = doc["schema_version"];
    if (!v.is_number_integer() || v.get<long long>() < 1) {
        throw InputError(path, {}, "'schema_version' must be a positive integer");
    }
    if (v.get<long long>() > kJsonSchemaVersion) {
        throw InputError(path, {},
                         "the report's schema_version " + std::to_string(v.get<long long>()) +
                             " is newer than this tsoreach reads (" +
                             std::to_string(kJsonSchemaVersion) + ")");
    }
}

} // namespace

LoadedTrace loadTraceJson(const Program& p, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError(path, {}, "cannot open trace file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        throw InputError(path, {}, "cannot read trace file");
    }
    return parseTraceJson(p, text.str(), path);
}

LoadedTrace parseTraceJson(const Program& p, std::string_view text, const std::string& path) {
    json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded()) {
        throw InputError(path, {}, "not valid JSON");
    }
    LoadedTrace out;
    const json* steps = &doc;
    if (doc.is_object()) {
        if (!doc.contains("trace")) {
            throw InputError(path, {}, "a JSON object without a 'trace' array");
        }
        steps = &doc["trace"];
        checkSchemaVersion(doc, path);
        if (doc.contains("model") && doc["model"].is_string()) {
            out.model = reach::memoryModelFromName(doc["model"].get<std::string>());
        }
    }
    if (!steps->is_array()) {
        throw InputError(path, {}, "'trace' must be an array of steps");
    }
    for (std::size_t i = 0; i < steps->size(); ++i) {
        const json& js = (*steps)[i];
        const std::string where = "step " + std::to_string(i + 1);
        if (!js.is_object()) {
            throw InputError(path, {}, where + ": a step must be a JSON object");
        }
        reach::TraceStep step;
        const std::string threadName = stringField(js, "thread", where, path);
        step.thread = p.findThread(threadName);
        if (!step.thread.valid()) {
            throw InputError(path, {}, where + ": no thread named '" + threadName + "'");
        }
        const Thread& th = p.thread(step.thread);
        step.addr = optionalValue(js, "addr", where, path);
        step.value = optionalValue(js, "value", where, path);
        const std::string kind = stringField(js, "kind", where, path);
        if (kind == "flush") {
            step.kind = reach::StepKind::Flush;
            out.trace.steps.push_back(step);
            continue;
        }
        // An instruction step names its transition by source and target state,
        // narrowed by instruction text and line when they are given.
        const std::string from = stringField(js, "from", where, path);
        const std::string to = stringField(js, "to", where, path);
        std::optional<std::string> text;
        if (js.contains("instruction") && js["instruction"].is_string()) {
            text = js["instruction"].get<std::string>();
        }
        // Read in 64 bits: get<std::uint32_t> would wrap a larger line onto
        // a small one, which may name another transition.
        std::optional<std::uint64_t> line;
        if (js.contains("line") && js["line"].is_number_unsigned()) {
            line = js["line"].get<std::uint64_t>();
        }
        TransitionId match;
        for (TransitionId id : th.transitions) {
            const Transition& tr = p.transition(id);
            if (th.stateNames[tr.from.index()] != from || th.stateNames[tr.to.index()] != to ||
                std::string(keyword(tr.instr.kind)) != kind) {
                continue;
            }
            if (text && printInstruction(p, tr) != *text) {
                continue;
            }
            if (line && std::uint64_t{tr.pos.line} != *line) {
                continue;
            }
            match = id;
            break;
        }
        if (!match.valid()) {
            throw InputError(path, {},
                             where + ": thread '" + threadName + "' has no " + kind +
                                 " transition " + from + " -> " + to +
                                 (text ? " (" + *text + ")" : std::string()));
        }
        step.transition = match;
        if (js.contains("source")) {
            if (js["source"] == "buffer") {
                step.forwarded = true;
            } else if (js["source"] == "memory") {
                step.forwarded = false;
            } else {
                throw InputError(path, {}, where + ": 'source' must be \"buffer\" or \"memory\"");
            }
        }
        out.trace.steps.push_back(step);
    }
    out.trace.goalStep = out.trace.steps.size();
    if (doc.is_object() && doc.contains("goal_step")) {
        if (!doc["goal_step"].is_number_unsigned()) {
            throw InputError(path, {}, "'goal_step' must be a non-negative integer");
        }
        out.trace.goalStep = doc["goal_step"].get<std::size_t>();
    }
    return out;
}

} // namespace tsoreach::cli
