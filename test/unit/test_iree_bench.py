"""The runtime benchmark tool (bench/iree_runtime.py and its bench/iree_bench_*.py modules).

Fast: a tiny matmul+tanh "model" in a temporary corpus (`FUSIONOPT_CORPUS`), never the shared
models. Checks: the corpus location rule; input families per argument kind (mask, ids,
weights); agreement verdicts (NaN where IREE has none is FAIL); the variants build, `aa` is a
byte copy of iree-default, timing runs interleaved rounds; the RESULTS.md section is replaced in
place; the GPU bundle's script parses its options, dry-runs, and — on the CPU device — runs the
whole protocol, whose results the tool reads back. IREE parts skip when IREE is absent.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fusionopt import corpus
from fusionopt.iree_tools import iree_available

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import iree_bench_agree as agree  # noqa: E402
import iree_bench_inputs  # noqa: E402
import iree_bench_report as report  # noqa: E402
import iree_runtime  # noqa: E402

needs_iree = pytest.mark.skipif(not iree_available(), reason="iree-compile / iree-benchmark-module / iree.runtime absent")

TINY = """func.func @main_graph(%x: tensor<4x8xf32>, %mask: tensor<1x4xi64>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
"""
BUILD = {"inputs": {"x": [[4, 8], "torch.float32"], "attention_mask": [[1, 4], "torch.int64"]},
         "initializers_moved_to_inputs": [["w", "w", [8, 8], "float32"]]}
VARIANTS = ["iree-default", "iree-best", "ours", "aa"]


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch) -> str:
    """A one-model corpus in a temporary folder; returns the model's name."""
    (tmp_path / "corpus" / "tiny").mkdir(parents=True)
    (tmp_path / "corpus" / "tiny" / "tiny.args.linalg.mlir").write_text(TINY)
    (tmp_path / "corpus" / "tiny" / "tiny.build.json").write_text(json.dumps(BUILD))
    monkeypatch.setenv(corpus.ENV, str(tmp_path / "corpus"))
    return "tiny"


def test_corpus_dir_default_and_override(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv(corpus.ENV, raising=False)
    assert corpus.corpus_dir() == (corpus.REPO_ROOT.parent / "shared" / "models").resolve()
    monkeypatch.setenv(corpus.ENV, str(tmp_path))
    assert corpus.model_file("m", "args.onnx") == tmp_path.resolve() / "m" / "m.args.onnx"


def test_shipped_models_found_when_the_corpus_lacks_them(monkeypatch, tmp_path: Path) -> None:
    """A name only the repository has resolves to test/data/models; the corpus wins otherwise."""
    monkeypatch.setenv(corpus.ENV, str(tmp_path))
    assert "cnn/resnet18" in corpus.shipped_models()
    shipped = corpus.model_file("cnn/resnet18", "args.onnx")
    assert shipped == corpus.SHIPPED_DIR / "cnn" / "resnet18" / "resnet18.args.onnx" and shipped.is_file()
    (tmp_path / "cnn" / "resnet18").mkdir(parents=True)
    assert corpus.model_dir("cnn/resnet18") == tmp_path.resolve() / "cnn" / "resnet18"
    assert corpus.model_dir("nowhere") == tmp_path.resolve() / "nowhere"  # reported where expected


def test_batchnorm_variances_stay_positive() -> None:
    """A negative variance would be NaN in every build: the benchmark's variances are |x|."""
    build = iree_bench_inputs.build_info("cnn/inception_mini")
    names = [name for _, name, _, _ in build["initializers_moved_to_inputs"]]
    values = iree_runtime.model_inputs("cnn/inception_mini", "random", seed=0)[len(build["inputs"]):]
    variances = [v for n, v in zip(names, values) if n.endswith(".running_var")]
    assert variances and all((v >= 0).all() for v in variances)
    assert any((v < 0).any() for n, v in zip(names, values) if not n.endswith(".running_var"))


def test_inputs_per_family(tiny: str) -> None:
    x, mask, w = iree_runtime.model_inputs(tiny, "random", seed=0)
    assert x.dtype == np.float32 and mask.dtype == np.int64 and (mask == 1).all()
    assert 0.02 < float(w.std()) < 0.3  # weights N(0, 0.1^2)
    assert [a.tolist() for a in iree_runtime.model_inputs(tiny, "random", 0)] == [a.tolist() for a in (x, mask, w)]
    if "constant" in iree_runtime.FAMILIES:
        x, mask, w = iree_runtime.model_inputs(tiny, "constant", seed=0)
        assert np.allclose(w, 0.01) and np.allclose(x, 0.01)  # raw family values, not scaled
        assert set(np.unique(mask)) <= {0, 1}


def test_nan_where_iree_has_none_fails() -> None:
    good = [np.ones((2, 2), np.float32)]
    bad = [np.array([[1, np.nan], [1, 1]], np.float32)]
    rows = {r.variant: r for r in agree.compare({"iree-default": good, "ours": bad, "aa": good}, good)}
    assert rows["ours"].verdict == "FAIL" and rows["ours"].nan == 1 and np.isnan(rows["ours"].diff_default)
    assert rows["aa"].verdict == "ok" and rows["aa"].diff_reference == 0.0
    off = [np.full((2, 2), 1.1, np.float32)]
    assert agree.compare({"iree-default": good, "ours": off}, None)[1].verdict == "DIFF"
    both_nan = agree.compare({"iree-default": bad, "ours": bad}, None)
    assert [r.verdict for r in both_nan] == ["ok", "ok"]


def test_results_section_is_replaced_in_place(tmp_path: Path) -> None:
    md = tmp_path / "RESULTS.md"
    md.write_text("# R\n\n## A\n\na\n")
    report.write_section(md, f"{report.SECTION}\n\nfirst\n")
    md.write_text(md.read_text() + "\n## Z\n\nz\n")
    report.write_section(md, f"{report.SECTION}\n\nsecond\n")
    text = md.read_text()
    assert "first" not in text and text.count(report.SECTION) == 1
    assert text.index("## A") < text.index("second") < text.index("## Z")


def test_ratios_and_noise_column() -> None:
    stats = report.summarize({"iree-default": [2.0, 1.0, 3.0], "ours": [1.0, 1.0], "aa": [2.2, 1.1]})
    cells = dict(report.ratio_cells(stats))
    assert cells["ours/iree-default"] == "0.50x (1.00x)"
    assert cells["A/A noise aa/iree-default"] == "0.83x (1.10x)"


@needs_iree
def test_variants_build_agree_and_time(tiny: str, tmp_path: Path) -> None:
    vmfbs = iree_runtime.build_variants(tiny, "llvm-cpu", tmp_path / "work", VARIANTS)
    assert vmfbs["aa"].read_bytes() == vmfbs["iree-default"].read_bytes() and vmfbs["aa"] != vmfbs["iree-default"]
    counts = iree_runtime.dispatch_counts(tiny, "llvm-cpu", tmp_path / "work", VARIANTS)
    assert counts["aa"] == counts["iree-default"] >= 1
    rows, label = agree.check_family(tiny, vmfbs, iree_runtime.model_inputs(tiny, "random", 0))
    assert label in ("f64 interp", "f32 interp")
    assert all(r.verdict == "ok" and r.diff_reference < 1e-5 for r in rows), rows
    files = iree_runtime.save_inputs(iree_runtime.model_inputs(tiny, "random", 0), tmp_path / "in")
    times = iree_runtime.timed_rounds(vmfbs, files, rounds=2, iterations=2, seed=0)
    assert set(times) == set(VARIANTS) and all(len(t) == 2 and min(t) > 0 for t in times.values())


@needs_iree
def test_a_variant_iree_cannot_build_is_dropped_not_the_run(tiny: str, tmp_path: Path, monkeypatch) -> None:
    """IREE's data tiling failed on one deploy model: with `failures` that variant is reported
    and left out while the others build; without it the error still stops the build."""
    import iree_bench_build as build
    from fusionopt.iree_tools import IreeError

    real = build.compile_vmfb

    def compile_failing_best(source, out, flags):
        if "--iree-dispatch-creation-enable-aggressive-fusion" in flags:
            raise IreeError("iree-compile x\nexit 1:\nm.mlir:3:4: error: failed to run translation\nmore")
        return real(source, out, flags)

    monkeypatch.setattr(build, "compile_vmfb", compile_failing_best)
    failures: dict[str, str] = {}
    vmfbs = build.build_variants(tiny, "llvm-cpu", tmp_path / "work", VARIANTS, failures=failures)
    assert set(vmfbs) == {"iree-default", "ours", "aa"}
    assert failures == {"iree-best": "failed to run translation"}
    with pytest.raises(IreeError):
        build.build_variants(tiny, "llvm-cpu", tmp_path / "again", VARIANTS)


@needs_iree
def test_cuda_builds_without_a_gpu(tiny: str, tmp_path: Path) -> None:
    vmfbs = iree_runtime.build_variants(tiny, "cuda", tmp_path, ["iree-default", "ours"])
    assert all(p.stat().st_size > 0 for p in vmfbs.values())


def run_script(bundle: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(bundle / "run_gpu.sh"), *args], capture_output=True, text=True, timeout=300)


@needs_iree
def test_gpu_bundle_runs_the_protocol_on_cpu(tiny: str, tmp_path: Path) -> None:
    """The bundle built for llvm-cpu runs the GPU script's protocol with --device local-sync."""
    bundle, out = tmp_path / "bundle", tmp_path / "results"
    iree_runtime.main(["--targets", "llvm-cpu", "--build-only", "--out", str(bundle), "--models", tiny,
                       "--variants", ",".join(VARIANTS), "--families", "random"])
    assert {p.name for p in (bundle / "bin").iterdir()} == {"iree-benchmark-module", "iree-run-module"}
    args = (bundle / "args" / "tiny.random.args").read_text().split()
    assert args[1] == "--input=1x4xi64=1"  # a constant argument is a splat, not a file
    assert run_script(bundle, "--bogus").returncode == 2
    dry = run_script(bundle, "--dry-run", "--rounds", "2")
    assert dry.returncode == 0 and dry.stdout.count("--device=cuda") == 2 * len(VARIANTS) + len(VARIANTS)
    run = run_script(bundle, "--device", "local-sync", "--rounds", "2", "--iterations", "2", "--out", str(out))
    assert run.returncode == 0, run.stderr
    data = json.loads((out / "results.json").read_text())
    assert all(len(v["ms"]) == 2 for v in data["models"]["tiny"].values())
    timing, agreement = iree_runtime.gpu_results(out, iree_runtime.parse_args([]))
    assert "| tiny | local-sync |" in timing and "FAIL" not in agreement and "| tiny | random | ours |" in agreement


@needs_iree
def test_bundles_run_model_by_model_into_one_archive(tiny: str, tmp_path: Path) -> None:
    """bench/gpu_run_bundles.sh on a CPU-built bundle: each model's results in its own folder of
    one archive, and a model left after the deadline is listed, not run."""
    import tarfile

    bundle, archive = tmp_path / "bundle", tmp_path / "all.tgz"
    iree_runtime.main(["--targets", "llvm-cpu", "--build-only", "--out", str(bundle), "--models", tiny,
                       "--variants", "iree-default,aa", "--families", "random"])
    script = Path(__file__).resolve().parents[2] / "bench" / "gpu_run_bundles.sh"
    run = subprocess.run(["bash", str(script), "--deadline", "120", "--archive", str(archive), "--device", "local-sync",
                          "--rounds", "1", "--iterations", "2", f"{bundle}:{tiny}"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    with tarfile.open(archive) as tar:
        names = tar.getnames()
        assert f"./{tiny}/results.json" in names and "./summary.txt" in names
        assert b"exit 0" in tar.extractfile("./summary.txt").read()
    late = subprocess.run(["bash", str(script), "--deadline", "0", "--archive", str(archive), f"{bundle}:{tiny}"],
                          capture_output=True, text=True, timeout=60)
    assert late.returncode == 0 and f"skipped (deadline): {tiny}" in late.stdout


def test_random_draw_plan_replays_model_inputs(tiny: str) -> None:
    """bench/bundle_regen.py's numpy-only replay gives model_inputs' random family bit for bit."""
    import bundle_regen

    plan = iree_bench_inputs.random_draws(tiny, seed=3)
    replayed, expected = bundle_regen.replay(plan), iree_bench_inputs.model_inputs(tiny, "random", 3)
    assert [a.dtype for a in replayed] == [b.dtype for b in expected]
    assert all(np.array_equal(a, b) for a, b in zip(replayed, expected))


@needs_iree
def test_large_random_inputs_are_remade_on_the_gpu_machine(tiny: str, tmp_path: Path, monkeypatch) -> None:
    """Inputs over the carry limit: "random" travels as a checked plan, other families stay home."""
    import bundle_regen
    import iree_bench_gpu

    monkeypatch.setattr(iree_bench_gpu, "REGEN_MIB", 0)
    bundle, out = tmp_path / "bundle", tmp_path / "results"
    iree_runtime.main(["--targets", "llvm-cpu", "--build-only", "--out", str(bundle), "--models", tiny,
                       "--variants", "iree-default,ours", "--families", "random,offset"])
    plan = bundle / "inputs" / tiny / "random" / "regen.json"
    assert plan.is_file() and not list(plan.parent.glob("*.npy"))
    assert not (bundle / "args" / f"{tiny}.offset.args").exists()
    run = run_script(bundle, "--device", "local-sync", "--rounds", "1", "--iterations", "2", "--out", str(out))
    assert run.returncode == 0, run.stderr
    x = np.load(plan.parent / "arg0.npy")
    assert np.array_equal(x, iree_bench_inputs.model_inputs(tiny, "random", 0)[0])
    _, agreement = iree_runtime.gpu_results(out, iree_runtime.parse_args([]))
    assert "| tiny | random | ours |" in agreement and "FAIL" not in agreement
    tampered = json.loads(plan.read_text())
    tampered["draws"][0]["sha256"] = "0" * 64
    plan.write_text(json.dumps(tampered))
    assert bundle_regen.main(["bundle_regen.py", str(bundle)]) == 1


ONNX_MODEL = str(Path(__file__).resolve().parents[1] / "data" / "onnx" / "conv_affine.args.onnx")


@needs_iree
def test_onnx_file_model_inputs_and_variants(tmp_path: Path) -> None:
    """A model named by an ONNX path: inputs in graph-input order (image, then weights); the
    linalg-file variants are skipped with the reason, IREE's import is the baseline."""
    import iree_bench_build as build
    import iree_bench_inputs as inputs

    values = inputs.model_inputs(ONNX_MODEL, "offset", seed=0)
    assert [v.shape for v in values] == [(1, 16, 16, 16), (24, 16, 3, 3), (24, 1, 1), (24, 1, 1)]
    kept, skipped = build.applicable_variants(ONNX_MODEL, tmp_path, ["iree-default", "ours", "ours-onnx"])
    assert kept == ["iree-default", "ours-onnx"] and "ours" in skipped
    assert "torch.operator" in build.variant_source(ONNX_MODEL, "iree-default", tmp_path).read_text()
    assert "flow.dispatch.region" in build.variant_source(ONNX_MODEL, "ours-onnx", tmp_path).read_text()


def test_onnx_token_ids_stay_inside_their_embedding_table(tmp_path: Path) -> None:
    """Token ids of an ONNX-file model are taken modulo the rows of the table they index (a
    1000-token vocabulary under the family's [0, 1024) draw: onnxruntime refuses id 1021); an
    integer input that indexes no constant table keeps the draw."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    import iree_bench_inputs as inputs

    table = numpy_helper.from_array(np.zeros((10, 4), np.float32), "table")
    graph = helper.make_graph(
        [helper.make_node("Gather", ["table", "ids"], ["rows"], axis=0),
         helper.make_node("Gather", ["weights", "other"], ["picked"], axis=0)],
        "ids", [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, 256]),
                helper.make_tensor_value_info("other", TensorProto.INT64, [1, 256]),
                helper.make_tensor_value_info("weights", TensorProto.FLOAT, [2048, 4])],
        [helper.make_tensor_value_info("rows", TensorProto.FLOAT, [1, 256, 4]),
         helper.make_tensor_value_info("picked", TensorProto.FLOAT, [1, 256, 4])], [table])
    path = tmp_path / "ids.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]), str(path))
    ids, other, _ = inputs.model_inputs(str(path), "random", seed=0)
    assert ids.min() >= 0 and ids.max() < 10 and len(np.unique(ids)) == 10
    assert other.max() >= 10  # the weight maker's draw, untouched


def test_onnx_token_ids_read_through_a_transpose_stay_inside_the_table(tmp_path: Path) -> None:
    """XLNet transposes its ids to [seq, batch] before the lookup: the table still bounds them."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    import iree_bench_inputs as inputs

    table = numpy_helper.from_array(np.zeros((10, 4), np.float32), "table")
    graph = helper.make_graph(
        [helper.make_node("Transpose", ["ids"], ["seq_first"], perm=[1, 0]),
         helper.make_node("Gather", ["table", "seq_first"], ["rows"], axis=0)],
        "ids", [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, 256])],
        [helper.make_tensor_value_info("rows", TensorProto.FLOAT, [256, 1, 4])], [table])
    path = tmp_path / "ids.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]), str(path))
    (ids,) = inputs.model_inputs(str(path), "random", seed=0)
    assert ids.min() >= 0 and ids.max() < 10 and len(np.unique(ids)) == 10


@needs_iree
def test_heldout_models_cuda_target_builds_only(tmp_path: Path) -> None:
    """`heldout_models.py --target cuda`: IREE's import and graph-to-dispatch-cuda built for
    sm_80 (no GPU needed), each with its dispatch count; nothing run or compared."""
    import heldout_models

    out = tmp_path / "rows.json"
    heldout_models.main([ONNX_MODEL, "--target", "cuda", "--json", str(out), "--keep", str(tmp_path / "keep")])
    rows = json.loads(out.read_text())["conv_affine.args"]  # named by file: M.args apart from M
    assert [r["variant"] for r in rows] == ["iree-default", "ours-onnx-cuda"]
    assert all(r["builds"] and r["count"] > 0 and not any(k.startswith("ort_") for k in r) for r in rows)
    assert list((tmp_path / "keep" / "conv_affine.args").glob("*.cuda.vmfb"))


@needs_iree
def test_heldout_models_records_a_module_iree_refuses_to_run(tmp_path: Path, monkeypatch) -> None:
    """A variant that builds but whose run IREE's runtime refuses (MPT's symbolic-seq export at
    17 tokens: "mismatched size for broadcast") is a row with runs=False and the error, not a
    crash of the whole sweep, and is not timed (no vmfb kept)."""
    import heldout_models

    def refuse(*_args, **_kwargs):
        raise RuntimeError("Error invoking function: <vm>:0: FAILED_PRECONDITION; mismatched size for broadcast; ")

    monkeypatch.setattr(heldout_models, "run_vmfb", refuse)
    refs = {"random": ({"x": np.zeros((1,), np.float32)}, np.zeros((1,), np.float32))}
    row = heldout_models.check_variant(Path(ONNX_MODEL), "ours-onnx-llvm-cpu", tmp_path, refs, {})
    assert row["builds"] and row["runs"] is False and "vmfb" not in row
    assert "mismatched size for broadcast" in row["error"]


def test_heldout_models_flags_a_model_that_ignores_its_input(tmp_path: Path) -> None:
    """A model whose output barely moves with its input (x * 1e-9 + c) is flagged: agreeing with
    onnxruntime on it proves little. One that reads its input (x + c) is not."""
    import heldout_models
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    def model(scale: float) -> Path:
        nodes = [helper.make_node("Mul", ["x", "s"], ["m"]), helper.make_node("Add", ["m", "c"], ["y"])]
        inits = [numpy_helper.from_array(np.float32([scale]), "s"), numpy_helper.from_array(np.ones(8, np.float32), "c")]
        graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
                                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8])], inits)
        proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
        proto.ir_version = 8
        path = tmp_path / f"scaled_{scale}.onnx"
        onnx.save(proto, str(path))
        return path

    flat, reads = model(1e-9), model(1.0)
    assert heldout_models.sensitivity_row(flat, onnx.load(str(flat)), 0)["error"]
    row = heldout_models.sensitivity_row(reads, onnx.load(str(reads)), 0)
    assert row["error"] == "" and row["sensitivity"] > heldout_models.MIN_INPUT_SENSITIVITY
