"""Random graph programs through every pipeline: no invalid IR, no crash, no wrong number.

    python bench/property_run.py --count 2000 --seed 1 [--max-ops 12] [--timeout 30] [--show 3] [--jobs 2]

Programs: distinct draws of `graph_programs()` (test/support/graph_strategies.py, with the
pattern blocks of graph_blocks.py), from a seeded hypothesis run (generate phase only). Each
program goes through every run of `RUNS`, pass by pass:

  graph-simplify       the graph program (judged on the finite families: every one but `mask`,
                       see RUNS)
  graph-to-dispatch    the graph program (graph passes, lowering, dispatch-creation; finite
                       families)
  graph-simplify-strict, graph-to-dispatch-strict
                       the same with their `-strict-nonfinite` pipelines, on every family
  dispatch-creation    the program lowered by `convert-graph-to-linalg`
  dispatch-attention   the same with `linalg-raise-attention` (opt-in, not in any pipeline;
                       judged on every family but `extreme`, see RUNS), then
                       `dispatch-attention-cpu-tiles`
  dispatch-opt-in      the same with the other opt-in passes (`linalg-transpose-nt-operands`,
                       `linalg-depthwise-conv-drop-batch`, `linalg-horizontal-fuse-contractions`,
                       `dispatch-matmul-cpu-tiles`,
                       `dispatch-matmul-to-mmt4d`)
  convert-to-flow      the lowered program (the pass on its own)
  dce                  the graph program (on its own: in graph-simplify the passes before it
                       already erase dead ops)

After every pass the module must verify ("invalid IR", naming the pass); an exception out of a
pass is a "crash" and a run over the time limit a "hang". The final module is judged against
a float64 run of the *input graph program* on every input family (random with two seeds,
constant, offset, zeros, extreme, mask, ids-edge) by `fusionopt.testing.ReferenceRuns` (the
judge of `assert_pass_preserves_semantics`; the input's runs are made once per program), else
"mismatch". A pass "changed" a program when its printed IR differs after it, in any run;
`Report.change_share` gives the share of programs each registered pass changed (every pass of
`fusionopt.registry` but `test-diagnostics` is reached).

`run_property(count, seed, max_ops, timeout, jobs=1)` is the engine the test suite calls
(test/unit/test_property_run.py); `--jobs N` runs the programs in N worker processes.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from xdsl.dialects.builtin import ModuleOp

from fusionopt import registry
from fusionopt.diagnostics import capture_diagnostics
from fusionopt.ir_io import parse_module, print_module, verify_module, verify_ops
from fusionopt.ir_snapshot import take_snapshot
from fusionopt.pipeline_spec import build_passes, parse_pipeline
from fusionopt.registry import make_context
from fusionopt.testing import ReferenceRuns

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz import _alarm, _Timeout  # noqa: E402  (the fuzzer's time limit: a BaseException)
from support.graph_blocks import FORM_BLOCKS, WINOGRAD_BLOCKS  # noqa: E402
from support.graph_strategies import graph_programs  # noqa: E402

# (and 1-D convs channels last as patch matmuls, and conv filters padded to multiples of 16, matmul weights to whole panels, and constant 1x1
# filters and matmul weights packed in panels and transposes over collapsed dims as the llvm-cpu
# builds do, and the raised
# attention (read over key blocks, its V copied with its heads outermost, as the llvm-cpu builds
# do for long ones: here at every size) regions formed as the llvm-cpu builds form them, with a NaN
# guard's reduction of V inside, their unit dims read without constant 0s, then given CPU tiles; 1 row x 1 key, so drawn sizes fit them;
# and the CPU tiles of depthwise convs, of row reductions, of grouped convs' im2col matmuls and
# tap sums (grouped convs summed over their taps, as the llvm-cpu builds do) and of k x k convs,
# 3x3 convs of 64 channels and filters as Winograd F(2x2, 3x3) with their input transforms'
# tiles, elementwise results written permuted for generics written in loop order, the
# regions' float constants read from outside them, and f32 erfs as one rational function, and
# transposing generics without the unit loops their input does not read)
_ATTENTION = registry.PIPELINES["dispatch-creation"].spec.replace(
    "linalg-conv-channels-last,", "linalg-conv1d-channels-last,linalg-conv-channels-last{grouped-taps=true},"
    "linalg-conv-winograd,").replace(
    "linalg-merge-sibling-reductions,", "linalg-merge-sibling-reductions,linalg-raise-attention,linalg-attention-key-blocks,"
    "linalg-attention-value-rows,"
).replace("linalg-fuse-elementwise{aggressive=false},", "linalg-fuse-elementwise{aggressive=false},linalg-conv1d-patches,linalg-pad-conv-filters,"
    "linalg-pack-conv-filters,linalg-pad-matmul-weights,linalg-pack-matmul-weights,"
).replace(",form-dispatch-regions,", ",linalg-sink-output-transposes,linalg-collapse-transpose-dims,form-dispatch-regions{guards-into-attention=true},"
          ) + (",dispatch-unit-dim-reads,dispatch-transpose-unit-loops,dispatch-attention-cpu-tiles{rows=1 keys=1},dispatch-conv-1x1-cpu-tiles,dispatch-depthwise-cpu-tiles,"
               "dispatch-reduction-cpu-tiles,dispatch-grouped-im2col-cpu-tiles,dispatch-grouped-taps-cpu-tiles,"
               "dispatch-conv-kxk-cpu-tiles,dispatch-winograd-cpu-tiles,dispatch-hoist-dense-constants,linalg-rational-erf")
# dispatch-creation with the other opt-in passes (contractions reading grouped-query attention's
# shared K/V heads, as the llvm-cpu builds do; row-major copies of NT contraction operands; batch-1 depthwise convs as rank-3 generics; sibling 1x1 convs of one input and filter
# count as one rank-3 contraction; sibling matmuls of one activation, then
# same-shaped ones of different activations, as one multi-result contraction; matmul regions with CPU register tiles, then as pack + batch_mmt4d)
# and the NCHW forms of convs (no linalg-conv-channels-last, which takes most drawn convs by
# default, so the 1x1, depthwise and im2col rewrites see them here; strided convs in the other
# form, the gather: the drawn convs have few filters, which get IREE's im2col op by default),
# with the fewest-dispatch pipelines' pad options (strided convs only a pad reads left bare,
# pads read by other ops too written by their region, padded concats by their parts' regions,
# a pool's result's pad in the region of the small pool reading it).
# Matvecs over matrices gathered per row read them in place (the llvm-cpu pipelines' form).
# (Small drawn shapes: the depthwise rewrite at every output size, min-pixels=1; CPU register
# tiles of 1 x 16, so that drawn widths fit them; mmt4d at every output width, min-n=16.)
_OPT_IN = registry.PIPELINES["dispatch-creation"].spec.replace("linalg-conv-channels-last,", "").replace(
    "linalg-drop-payload-asserts,", "linalg-drop-payload-asserts,linalg-gather-into-contraction,").replace(
    "linalg-merge-sibling-reductions,", "linalg-merge-sibling-reductions,linalg-contract-shared-heads,").replace(
    "linalg-fold-transpose-into-matmul,", "linalg-fold-transpose-into-matmul,linalg-transpose-nt-operands,"
).replace("linalg-depthwise-conv-drop-batch,", "linalg-depthwise-conv-drop-batch{min-pixels=1},").replace(
    "linalg-strided-conv-to-im2col,", "linalg-strided-conv-to-im2col{im2col-op=false},").replace(
    "linalg-conv-1x1-to-matmul,", "linalg-horizontal-fuse-1x1-convs,linalg-conv-1x1-to-matmul,").replace(
    ",form-dispatch-regions,", ",linalg-horizontal-fuse-contractions{max-results=4 across-inputs=true},"
    "form-dispatch-regions{padded-strided-kxk=true padded-shared-results=true padded-concats=true "
    "pads-into-pools=64},") + (
    ",dispatch-matmul-cpu-tiles{rows=1 columns=16},dispatch-matmul-to-mmt4d{min-n=16}")
# the CUDA pipeline, splitting K from parts of 2 (the drawn shapes are small)
_CUDA = registry.PIPELINES["dispatch-creation-cuda"].spec.replace(
    "linalg-split-k-contractions", "linalg-split-k-contractions{chunk=2}")
# run name -> (pipeline, on the lowered program?, input families not judged). The attention op
# computes exp2(scores * log2 e) as IREE does, which overflows where the decomposed softmax is
# still finite on the `extreme` family (the documented exactness limit of linalg-raise-attention).
# graph-reassociate-dots re-plans GEMM chains under the fast-math contract (finite values) in
# the default graph pipelines, so `mask` (-inf entries) is outside their contract; their
# strict-nonfinite twins keep inf/NaN where they were and are judged on every family.
RUNS: dict[str, tuple[str, bool, tuple[str, ...]]] = {
    "graph-simplify": ("graph-simplify", False, ("mask",)),
    "graph-to-dispatch": ("graph-to-dispatch", False, ("mask",)),
    "graph-simplify-strict": ("graph-simplify-strict-nonfinite", False, ()),
    "graph-to-dispatch-strict": ("graph-to-dispatch-strict-nonfinite", False, ()),
    "dispatch-creation": ("dispatch-creation", True, ()),
    "dispatch-attention": (_ATTENTION, True, ("extreme",)),
    "dispatch-opt-in": (_OPT_IN, True, ()),
    "dispatch-cuda": (_CUDA, True, ("extreme",)),
    "convert-to-flow": ("convert-to-flow", True, ()),
    # In graph-simplify the pattern-driven passes before `dce` already erase dead ops.
    "dce": ("dce", False, ()),
}
OUTCOMES = ("ok", "invalid IR", "crash", "hang", "mismatch")
# test-diagnostics emits test remarks and rewrites nothing; dispatch-verify-with-iree runs iree-compile
# on every module (seconds each) and unwraps only regions IREE rejects (its lit and unit tests);
# dispatch-im2col-cpu-tiles configures the NCHW im2col-op regions only the `-fewest` pipelines
# form (no run here keeps convs NCHW with the op on; its lit and unit tests).
NOT_REACHED = ("test-diagnostics", "dispatch-verify-with-iree", "dispatch-im2col-cpu-tiles")


@dataclass
class Failure:
    run: str
    outcome: str
    detail: str
    program: str


@dataclass
class Report:
    count: int
    seed: int
    seconds: float = 0.0
    outcomes: dict[str, Counter] = field(default_factory=lambda: {run: Counter() for run in RUNS})
    changed: Counter = field(default_factory=Counter)  # pass -> programs it changed
    reached: Counter = field(default_factory=Counter)  # pass -> programs it ran on
    failures: list[Failure] = field(default_factory=list)

    def bad(self) -> dict[str, int]:
        return {f"{run}: {o}": n for run, c in self.outcomes.items() for o, n in c.items() if o != "ok" and n}

    def change_share(self, name: str) -> float:
        return self.changed[name] / self.count if self.count else 0.0

    def table(self, show: int = 0) -> str:
        lines = [f"property run: {self.count} programs, seed {self.seed}, {self.seconds:.1f} s", "",
                 "| run | " + " | ".join(OUTCOMES) + " |", "|---|" + "---:|" * len(OUTCOMES)]
        for run, c in self.outcomes.items():
            lines.append(f"| {run} | " + " | ".join(str(c[o]) for o in OUTCOMES) + " |")
        lines += ["", "| pass | programs changed | share |", "|---|---:|---:|"]
        for name in sorted(registry.get_all_passes()):
            if name not in NOT_REACHED:
                lines.append(f"| {name} | {self.changed[name]} | {100 * self.change_share(name):.1f}% |")
        for f in self.failures[:show]:
            lines += ["", f"== {f.run}: {f.outcome}: {f.detail[:3000]}", f.program]
        return "\n".join(lines)


def draw_programs(count: int, seed: int, max_ops: int = 12, blocks: bool | tuple = True) -> list[str]:
    """`count` distinct programs from seeded hypothesis runs (no shrinking, no database). Each
    run starts from hypothesis' simplest draws, which repeat across runs: ask for more than
    are missing."""
    found: dict[str, None] = {}
    for attempt in range(50):
        if len(found) >= count:
            break

        @settings(max_examples=2 * (count - len(found)) + 50, database=None, phases=[Phase.generate],
                  deadline=None, suppress_health_check=list(HealthCheck))
        @hypothesis_seed(seed * 1000 + attempt)
        @given(graph_programs(max_ops=max_ops, blocks=blocks))
        def collect(text):
            found.setdefault(text)

        collect()
    return list(found)[:count]


def _passes(pipeline: str):
    return build_passes(parse_pipeline(pipeline, registry.PIPELINES), registry.get_all_passes())


def run_passes(module, pipeline: str, changed: set[str], reached: set[str], text: str | None = None) -> str:
    """Apply `pipeline` pass by pass, verifying after each that changed the module, and the
    whole module once more at the end; record which passes changed it (an unchanged module is
    the one that verified before). `text`: the module as printed, if known; returns the
    result's."""
    ctx = make_context()
    # A pass whose walk records nothing new changed nothing (fusionopt.ir_snapshot); only one
    # that did is printed, so that ops rebuilt as they were do not count as a change. After a
    # change the ops it may have broken are verified, as fusion-opt does (`verify_ops`).
    before, text = take_snapshot(module), print_module(module) if text is None else text
    verified = initial = before
    for module_pass in _passes(pipeline):
        reached.add(module_pass.name)
        try:
            module_pass.apply(ctx, module)
        except _Timeout:
            raise
        except Exception as err:
            raise _Crash(f"pass '{module_pass.name}' raised {type(err).__name__}: {err}") from err
        after = take_snapshot(module)
        if after.same_as(before):
            continue
        before, printed = after, print_module(module)
        if printed == text:
            continue
        changed.add(module_pass.name)
        text = printed
        _verify(module, after.ops_to_verify(verified), f"after pass '{module_pass.name}'")
        verified = after
    if verified is not initial:
        _verify(module, None, "at the end of the pipeline")
    return text


def _verify(module, ops, when: str) -> None:
    try:
        verify_module(module) if ops is None else verify_ops(module, ops)
    except Exception as err:
        raise _Invalid(f"IR fails to verify {when}: {err}") from err


class _Crash(Exception):
    pass


class _Invalid(Exception):
    pass


@dataclass
class _Program:
    """One program's input module, lowered module and reference runs, each made once."""

    text: str
    graph: ModuleOp | None = None
    lowered: ModuleOp | None = None
    reference: ReferenceRuns | None = None
    printed: dict[bool, str] = field(default_factory=dict)  # on_lowered -> that module printed

    def start(self, on_lowered: bool, changed: set[str], reached: set[str]) -> tuple[ModuleOp, str]:
        """A copy of the input (`on_lowered`: of the lowered) module, and its text."""
        if self.graph is None:
            self.graph = parse_module(self.text)
            self.reference = ReferenceRuns(self.graph)
            self.printed[False] = print_module(self.graph)
        if on_lowered and self.lowered is None:
            self.lowered = self.graph.clone()
            self.printed[True] = run_passes(self.lowered, "convert-graph-to-linalg", changed, reached,
                                            self.printed[False])
        return (self.lowered if on_lowered else self.graph).clone(), self.printed[on_lowered]


def run_program(text: str, report: Report, timeout: float, exempt_everywhere: tuple[str, ...] = ()) -> None:
    changed: set[str] = set()
    reached: set[str] = set()
    program = _Program(text)
    for run, (pipeline, on_lowered, exempt) in RUNS.items():
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            module, printed = program.start(on_lowered, changed, reached)
            run_passes(module, pipeline, changed, reached, printed)
            program.reference.check(module, f"'{run}'", exempt_families=(*exempt, *exempt_everywhere))
            outcome, detail = "ok", ""
        except _Timeout:
            outcome, detail = "hang", f"over {timeout:g} s"
        except _Crash as err:
            outcome, detail = "crash", str(err)
        except _Invalid as err:
            outcome, detail = "invalid IR", str(err)
        except AssertionError as err:
            outcome, detail = "mismatch", str(err)
        except Exception as err:  # the interpreter or the judge failing is a crash too
            outcome, detail = "crash", f"{type(err).__name__}: {err}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        report.outcomes[run][outcome] += 1
        if outcome != "ok":
            report.failures.append(Failure(run, outcome, detail, text))
    report.changed.update(changed)
    report.reached.update(reached)


def _one(args: tuple[str, float, tuple[str, ...]]) -> Report:
    """One program's report (the unit of work of `run_property`, also in worker processes)."""
    program, timeout, exempt = args
    report = Report(1, 0)
    with capture_diagnostics():  # the passes' remarks are not outcomes
        run_program(program, report, timeout, exempt)
    return report


def _merge(into: Report, one: Report) -> None:
    for run, counts in one.outcomes.items():
        into.outcomes[run].update(counts)
    into.changed.update(one.changed)
    into.reached.update(one.reached)
    into.failures.extend(one.failures)


def run_property(count: int, seed: int, max_ops: int = 12, timeout: float = 30.0, progress: bool = False,
                 jobs: int = 1, blocks: bool | tuple = True) -> Report:
    """`blocks`: the pattern blocks programs draw from (True: `graph_blocks.BLOCKS`; the suite
    also runs `graph_blocks.FORM_BLOCKS` on their own). With FORM_BLOCKS the `extreme` family is
    not judged: a 1x1 conv becomes a matmul, and where its products overflow the result is inf
    or NaN depending on whether a BLAS kernel fuses multiply-adds (an infinite partial sum
    absorbs an unrounded product that would round to the opposite infinity), in the graph
    interpreter and the linalg one alike; both are IEEE evaluations of the same sum. With
    WINOGRAD_BLOCKS the `mask` family (-inf entries) is not judged: Winograd F(2x2, 3x3) relies
    on finite values (`linalg_conv_winograd`), its input transform's differences of two -inf
    pixels are NaN where the direct conv sums -inf products."""
    exempt = ("extreme",) if blocks == FORM_BLOCKS else ("mask",) if blocks == WINOGRAD_BLOCKS else ()
    start = time.perf_counter()
    report = Report(count, seed)
    work = [(program, timeout, exempt) for program in draw_programs(count, seed, max_ops, blocks)]
    with multiprocessing.Pool(jobs) if jobs > 1 else contextlib.nullcontext() as pool:
        results = pool.imap(_one, work) if pool is not None else map(_one, work)
        for n, one in enumerate(results, 1):
            _merge(report, one)
            for failure in one.failures if progress else ():
                print(f"program {n}: {failure.run}: {failure.outcome}: {failure.detail.splitlines()[0][:300]}",
                      file=sys.stderr, flush=True)
            if progress and n % 100 == 0:
                print(f"{n} programs, {time.perf_counter() - start:.0f} s, bad: {report.bad()}", file=sys.stderr, flush=True)
    report.seconds = time.perf_counter() - start
    return report


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-ops", type=int, default=12)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per program and run")
    parser.add_argument("--show", type=int, default=3, help="failing programs to print")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--form-blocks", action="store_true",
                        help="draw only graph_blocks.FORM_BLOCKS (convs' forms, projected attention)")
    args = parser.parse_args(argv)
    blocks = FORM_BLOCKS if args.form_blocks else True
    report = run_property(args.count, args.seed, args.max_ops, args.timeout, progress=True, jobs=args.jobs,
                          blocks=blocks)
    print(report.table(args.show))
    return 1 if report.bad() else 0


if __name__ == "__main__":
    sys.exit(_main())
