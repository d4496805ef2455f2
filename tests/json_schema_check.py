#!/usr/bin/env python3
"""Validates every kind of JSON document tsoreach prints against docs/json-schema.json.

Usage: json_schema_check.py TSOREACH SOURCE_DIR

Runs the built tsoreach with --json over real inputs: every example
(examples/*.txt, examples/litmus/*.litmus, any examples/**/*.rmm), a few
Memorax tests of tests/corpus (.rmm) and tests/data/json-every-step.txt
(every kind of trace step), with each subcommand and the models and engines
that apply; param over a few Cubicle-W systems of tests/corpus/cubicle-w
(each N of --procs, a number_procs file, every N at once); over limits that make the answer unknown (--max-states, a
--timeout already past); and over inputs and command lines that are
errors. For each run it checks that stdout is exactly one JSON object,
that the object is valid under the schema, and that the exit code agrees
with it (docs/json.md). It fails when some kind of document (a command
with each of its verdicts) never appeared, so the inputs keep covering
them. Last, it checks that the schema is not vacuous: one document of each
kind, with a field renamed, removed or given a value outside its range,
must fail.

Exit code 0: every document valid; 1: a failure (each one is listed);
77: skipped, because python3's jsonschema module (4.0 or later, Debian's
python3-jsonschema; scripts/install-deps.sh test) is missing.
"""

import concurrent.futures
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    print("json_schema_check: skipped: the Python module jsonschema (4.0 or later; Debian: "
          "python3-jsonschema, installed by scripts/install-deps.sh test) is missing")
    sys.exit(77)

# Memorax tests (.rmm) from tests/corpus: small ones, one of them with a
# goal of two terms (sense_rev_bar: two forbidden tuples).
RMM_TESTS = [
    "tests/corpus/memorax/peterson.rmm",
    "tests/corpus/memorax/dekker.rmm",
    "tests/corpus/memorax/clh.rmm",
    "tests/corpus/memorax/sense_rev_bar.rmm",
]

# Cubicle-W systems (.cub) for param: the directory of the corpus.
CUB = "tests/corpus/cubicle-w/"

# Every search is bounded, so that no input can make the test slow; the
# answers that a run under this limit may change are not what is checked.
LIMIT = ["--timeout", "3"]

# A deadline already past when the program is checked: the stopped document.
PAST = ["--timeout", "0.000001"]


def inputs(src):
    files = sorted(glob.glob("examples/*.txt", root_dir=src))
    files += sorted(glob.glob("examples/litmus/*.litmus", root_dir=src))
    files += sorted(glob.glob("examples/**/*.rmm", root_dir=src, recursive=True))
    files += RMM_TESTS + ["tests/data/json-every-step.txt"]
    return files


def command_lines(files, scratch):
    """Every command line of the first phase, as argument lists."""
    runs = []
    for f in files:
        for m in ("sc", "tso", "pso"):
            runs.append(["reach", f, "--model", m] + LIMIT)
            runs.append(["explore", f, "--model", m] + LIMIT)
            runs.append(["explore", f, "--model", m, "--engine", "rf"] + LIMIT)
            runs.append(["outcomes", f, "--model", m] + LIMIT)
        runs.append(["outcomes", f, "--model", "pso", "--engine", "dpor", "--diff", "sc"] + LIMIT)
        runs.append(["robust", f] + LIMIT)
        runs.append(["robust", f, "--engine", "dpor"] + LIMIT)
        runs.append(["robust", f, "--model", "pso"] + LIMIT)
        runs.append(["fences", f, "--target", "robustness"] + LIMIT)
        runs.append(["fences", f, "--target", "safety"] + LIMIT)
        runs.append(["fences", f, "--target", "safety", "--model", "pso"] + LIMIT)

    # Other engines and options of reach.
    for f in ("examples/sb.txt", "examples/mp.txt", "examples/peterson.txt",
              "examples/litmus/SB.litmus", "tests/data/json-every-step.txt"):
        for m in ("sc", "tso", "pso"):
            runs.append(["reach", f, "--model", m, "--engine", "explicit", "--search", "bfs",
                         "--trace", "full"] + LIMIT)
            runs.append(["reach", f, "--model", m, "--engine", "dpor", "--unroll", "2"] + LIMIT)
            runs.append(["reach", f, "--model", m, "--engine", "rf", "--unroll", "2"] + LIMIT)
    runs.append(["reach", "examples/mp.txt", "--model", "pso", "--goal", "writer=done",
                 "--goal", "reader=seen,writer=data"] + LIMIT)

    # Limits: unknown verdicts and incomplete listings, deterministically.
    for f in ("examples/peterson.txt", "examples/lamport-fast-3.txt",
              "examples/litmus/IRIW.litmus"):
        for m in ("sc", "tso", "pso"):
            runs.append(["reach", f, "--model", m, "--max-states", "5"])
            runs.append(["explore", f, "--model", m, "--max-states", "5"])
            runs.append(["outcomes", f, "--model", m, "--max-states", "5"])
        runs.append(["robust", f, "--max-states", "5"])
        runs.append(["robust", f, "--model", "pso", "--max-states", "5"])
        runs.append(["fences", f, "--target", "robustness", "--max-states", "5"])
        runs.append(["fences", f, "--target", "safety", "--max-states", "5"])
    runs.append(["outcomes", "examples/litmus/IRIW.litmus", "--model", "tso", "--diff", "sc",
                 "--max-states", "40"])
    for cmd in (["reach"], ["robust"], ["explore"], ["outcomes"],
                ["fences", "--target", "robustness"]):
        runs.append(cmd[:1] + ["examples/sb.txt"] + cmd[1:] + PAST)

    # param (docs/parameterized.md): each N of --procs (safe, unsafe under
    # TSO and under SC, unknown at a state limit), the Ns of a number_procs
    # file, and every N at once (safe, unsafe with the confirming instance,
    # unknown at a node limit). Each takes milliseconds.
    runs += [
        ["param", CUB + "mutex_N_us.cub", "--procs", "2..3"] + LIMIT,
        ["param", CUB + "mutex_N_us.cub", "--procs", "2..3", "--engine", "explicit"] + LIMIT,
        ["param", CUB + "mutex_N.cub", "--procs", "2..3"] + LIMIT,
        ["param", CUB + "mutex_N.cub", "--procs", "2..3", "--model", "sc"] + LIMIT,
        ["param", CUB + "spinlock_N_us.cub", "--procs", "2", "--model", "sc"] + LIMIT,
        ["param", CUB + "mutex_N.cub", "--procs", "2..3", "--max-states", "5"],
        ["param", CUB + "dekker_2_us.cub"] + LIMIT,
        ["param", CUB + "dekker_2.cub"] + LIMIT,
        ["param", CUB + "mutex_N.cub"] + LIMIT,
        ["param", CUB + "mutex_N_us.cub"] + LIMIT,
        ["param", CUB + "arbiter_v2_N.cub", "--max-states", "50"],
        ["param", CUB + "mutex_N.cub"] + PAST,
        ["param", CUB + "mutex_N.cub", "--procs", "2"] + PAST,
    ]

    # Errors: input errors (a missing file, syntax errors, a goal state
    # no transition mentions) and usage errors (bad values and options).
    syntax = write(scratch, "syntax.txt", "thread t\ninitial a\ntransition a b jump 3\nend\n")
    litmus = write(scratch, "bad.litmus", "X86 bad\n{ }\n P0 ;\n movl [x],$1 ;\nexists (0:EAX=)\n")
    unmentioned = write(scratch, "unmentioned.txt",
                        "thread t\ninitial a\nfinal z\ntransition a b noop\nend\n")
    # A goal no path of the control-flow graph reaches: engine control-flow.
    cut = write(scratch, "cut.txt",
                "thread t\ninitial a\nfinal z\ntransition a b noop\ntransition y z noop\nend\n")
    missing = os.path.join(scratch, "missing.txt")
    runs += [
        ["reach", missing], ["explore", missing], ["replay", missing, missing],
        ["reach", syntax], ["robust", syntax], ["outcomes", litmus],
        ["reach", unmentioned], ["fences", unmentioned, "--target", "safety"],
        ["robust", unmentioned] + LIMIT,
        ["reach", unmentioned, "--allow-unreachable-goal"] + LIMIT,
        ["reach", cut] + LIMIT,
        ["reach", "examples/sb.txt", "--model", "arm"],
        ["reach", "examples/sb.txt", "--engine", "nonesuch"],
        ["reach", "examples/sb.txt", "--goal", "t9=x"],
        ["robust", "examples/sb.txt", "--frobnicate"],
        ["fences", "examples/sb.txt", "--target", "robustness", "--model", "pso"],
        ["fences", "examples/sb.txt", "--target", "robustness", "--apply",
         os.path.join(missing, "out.txt")],
        ["explore", "examples/peterson.txt", "--max-states", "many"],
        ["print", "examples/sb.txt"],
        ["param", missing],
        ["param", syntax, "--procs", "2"],
        ["param", CUB + "mutex_N.cub", "--procs", "2", "--model", "pso"],
        ["param", CUB + "mutex_N.cub", "--procs", "3..2"],
        ["param", CUB + "dekker_2.cub", "--procs", "3"],
        ["param", CUB + "mutex_N.cub", "--model", "sc"],
        [],
    ]
    return runs


def write(scratch, name, text):
    path = os.path.join(scratch, name)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
    return path


def kind_of(branch, doc):
    """The kind of a document valid under the schema's `branch` (one of its
    oneOf): the command, with its engine or model where those give
    documents of their own, and the verdict."""
    if branch == "reach":
        return ("reach", doc["model"], doc["verdict"])
    if branch == "robust_attacks":
        return ("robust", "attacks", doc["verdict"])
    if branch == "robust_dpor":
        return ("robust", "dpor", doc["model"], doc["verdict"])
    if branch == "fences":
        return ("fences", doc["target"], doc["outcome"])
    if branch in ("explore", "outcomes"):
        return (branch, doc["engine"], "complete" if doc["complete"] else "incomplete")
    if branch == "replay":
        return ("replay", doc["verdict"])
    if branch in ("param_instances", "param_all_n"):
        return ("param", doc["mode"], doc["verdict"])
    if branch == "error":
        return ("error", doc["error"])
    return (branch,)


# Every kind of document that the runs must produce at least once.
REQUIRED_KINDS = (
    [("reach", m, v) for m in ("sc", "tso", "pso") for v in ("reachable", "unreachable", "unknown")]
    + [("robust", "attacks", v) for v in ("robust", "not-robust", "unknown")]
    + [("robust", "dpor", m, v) for m in ("tso", "pso") for v in ("robust", "not-robust")]
    + [("robust", "dpor", "pso", "unknown")]
    + [("fences", "robustness", o) for o in ("found", "unknown")]
    + [("fences", "safety", o) for o in ("found", "impossible", "unknown")]
    + [(c, e, x) for c, engines in (("explore", ("dpor", "rf")), ("outcomes", ("explicit", "dpor")))
       for e in engines for x in ("complete", "incomplete")]
    + [("param", m, v) for m in ("instances", "all-n") for v in ("safe", "unsafe", "unknown")]
    + [("replay", "valid"), ("replay", "invalid"), ("error", "input"), ("error", "usage"),
       ("stopped",)]
)


def expected_exit(doc):
    """The exit code docs/json.md gives for a valid document."""
    command = doc["command"]
    verdict = doc.get("verdict")
    if verdict == "error":
        return 2
    if verdict == "unknown":
        return 3
    if command == "reach":
        return 10 if verdict == "reachable" else 0
    if command == "robust":
        return 10 if verdict == "not-robust" else 0
    if command == "replay":
        return 0 if verdict == "valid" else 10
    if command == "param":
        return 10 if verdict == "unsafe" else 0
    if command == "fences":
        return {"found": 0, "impossible": 10, "unknown": 3}[doc["outcome"]]
    if command == "outcomes" and not doc.get("diff", {"complete": True})["complete"]:
        return 3
    return 0 if doc["complete"] else 3


class Check:
    def __init__(self, tsoreach, src, schema):
        self.tsoreach = tsoreach
        self.src = src
        self.validator = Draft202012Validator(schema)
        # One validator per document of the schema's oneOf, to name the kind.
        self.branches = {}
        for choice in schema["oneOf"]:
            name = choice["$ref"].split("/")[-1]
            self.branches[name] = Draft202012Validator(
                {"$defs": schema["$defs"], "$ref": choice["$ref"]})
        self.failures = []
        self.kinds = {}
        self.documents = 0

    def run(self, args):
        try:
            proc = subprocess.run([self.tsoreach] + args + ["--json"], cwd=self.src,
                                  capture_output=True, text=True, errors="replace", timeout=120)
        except subprocess.TimeoutExpired:
            proc = None  # every search has a --timeout: a hang is a failure
        return args, proc

    def judge(self, args, proc):
        """Checks one run's output; returns its document when it is valid."""
        line = "tsoreach " + " ".join(args) + " --json"
        if proc is None:
            self.failures.append(f"{line}: still running after 120 s")
            return None
        try:
            doc = json.loads(proc.stdout)
        except json.JSONDecodeError as e:
            self.failures.append(f"{line}: exit {proc.returncode}: stdout is not one JSON "
                                 f"document ({e}): {proc.stdout[:300]!r} {proc.stderr[:300]!r}")
            return None
        self.documents += 1
        if not self.validator.is_valid(doc):
            # The oneOf's own error says only that no document matched: name
            # the errors of the document it comes closest to.
            branch, errors = min(((n, list(v.iter_errors(doc))) for n, v in self.branches.items()),
                                 key=lambda b: len(b[1]))
            best = jsonschema.exceptions.best_match(errors)
            where = "/".join(str(p) for p in best.absolute_path)
            self.failures.append(f"{line}: invalid as {branch} at '{where}': {best.message[:400]}")
            return None
        if proc.returncode != expected_exit(doc):
            self.failures.append(f"{line}: exit {proc.returncode}, the document says "
                                 f"{expected_exit(doc)}")
        branch = next(n for n, v in self.branches.items() if v.is_valid(doc))
        self.kinds.setdefault(kind_of(branch, doc), (line, doc))
        return doc

    def run_all(self, runs, jobs):
        done = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for args, proc in pool.map(self.run, runs):
                done.append((args, proc, self.judge(args, proc)))
        return done


def replays(done, scratch):
    """Replays of reach's traces: under their model (valid) and under SC."""
    runs = []
    for i, (args, _, doc) in enumerate(done):
        if doc is None or doc["command"] != "reach" or doc["verdict"] != "reachable":
            continue
        trace = write(scratch, f"trace{i}.json", json.dumps(doc))
        runs.append(["replay", args[1], trace])
        if doc["model"] != "sc":
            runs.append(["replay", args[1], trace, "--model", "sc"])
    return runs


def mutations(doc):
    """Copies of a valid document that the schema must reject, each named."""
    out = []
    for key in doc:
        renamed = {(key + "_renamed" if k == key else k): v for k, v in doc.items()}
        out.append((f"'{key}' renamed", renamed))
    for key in ("schema_version", "command", "warnings"):
        removed = copy.deepcopy(doc)
        del removed[key]
        out.append((f"'{key}' removed", removed))
    for key, value in (("schema_version", 2), ("schema_version", "1"), ("tool", "other"),
                       ("verdict", "maybe"), ("model", "arm"), ("engine", "nonesuch"),
                       ("complete", "yes"), ("outcome", "done"), ("mode", "both")):
        if key in doc:
            changed = copy.deepcopy(doc)
            changed[key] = value
            out.append((f"'{key}' = {value!r}", changed))
    added = copy.deepcopy(doc)
    added["unexpected"] = 1
    out.append(("a field added", added))
    warned = copy.deepcopy(doc)
    warned["warnings"] = [{"file": "f", "line": 1, "column": 1, "message": "m"}]
    out.append(("a warning with 'column' for 'col'", warned))
    stepped = copy.deepcopy(doc)
    traces = [stepped.get("trace"), stepped.get("sc_trace")]
    traces += [w["trace"] for w in stepped.get("witnesses", [])]
    traces += [n.get("trace") for n in stepped.get("procs", []) + [stepped.get("instance", {})]]
    traces = [t for t in traces if t]
    if traces:
        traces[0][0]["thread_name"] = traces[0][0].pop("thread")
        out.append(("a trace step's 'thread' renamed", stepped))
    return out


def check_not_vacuous(check):
    for kind, (line, doc) in sorted(check.kinds.items()):
        for what, bad in mutations(doc):
            if check.validator.is_valid(bad):
                check.failures.append(f"the schema accepts {kind} ({line}) with {what}")


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    tsoreach, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with open(os.path.join(src, "docs", "json-schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    check = Check(tsoreach, src, schema)
    start = time.monotonic()
    jobs = min(os.cpu_count() or 1, 4)
    with tempfile.TemporaryDirectory(prefix="json_schema_check.") as scratch:
        files = inputs(src)
        done = check.run_all(command_lines(files, scratch), jobs)
        done += check.run_all(replays(done, scratch), jobs)
    for kind in REQUIRED_KINDS:
        if kind not in check.kinds:
            check.failures.append(f"no run gave a document of the kind {kind}")
    check_not_vacuous(check)
    print(f"json_schema_check: {len(done)} runs over {len(files)} inputs, "
          f"{check.documents} JSON documents of {len(check.kinds)} kinds, "
          f"{time.monotonic() - start:.1f} s (jsonschema {jsonschema_version()})")
    for failure in check.failures:
        print("FAIL: " + failure)
    return 1 if check.failures else 0


def jsonschema_version():
    try:
        from importlib.metadata import version
        return version("jsonschema")
    except Exception:  # the version only decorates the summary line
        return "unknown version"


if __name__ == "__main__":
    sys.exit(main())
