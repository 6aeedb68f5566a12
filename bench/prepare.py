"""Builds one model and writes every peer's artifact into a folder (run as a subprocess).

    python bench/prepare.py MODEL OUTDIR [ONLY,THESE,ARTIFACTS]

Writes input_<i>.npy, reference.npy (torch eager output), model.pt (pickled
module, for the eager peer), ember.pte, ember_cpu.pte (Ember's CPU backend),
et_portable.pte, et_xnnpack.pte,
model.onnx, and prepare.json with each artifact's status, reason and export time.
One exporter failing never stops the others. An int8 row
(bench_models.QUANTIZED) exports each peer's own int8 form instead (no
ExecuTorch portable artifact).
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_models


def short_reason(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()
    first = text[0] if text else type(exc).__name__
    return first[:200]


def main() -> int:
    name, outdir = sys.argv[1], Path(sys.argv[2])
    only = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else None
    outdir.mkdir(parents=True, exist_ok=True)
    info: dict = {"model": name, "artifacts": {}}
    if only and (outdir / "prepare.json").exists():   # refresh some artifacts, keep the rest
        info = json.loads((outdir / "prepare.json").read_text())
    art = info["artifacts"]

    def record(key: str, fn):
        start = time.perf_counter()
        try:
            extra = fn() or {}
            art[key] = {"ok": True, "export_s": time.perf_counter() - start, **extra}
        except BaseException as exc:  # noqa: BLE001 - any failure is reported, not raised
            art[key] = {"ok": False, "export_s": time.perf_counter() - start,
                        "reason": short_reason(exc)}
            (outdir / f"{key}.error.txt").write_text(traceback.format_exc())
        print(f"[prepare {name}] {key}: {'ok' if art[key]['ok'] else art[key]['reason']} "
              f"({art[key]['export_s']:.1f} s)", flush=True)
        (outdir / "prepare.json").write_text(json.dumps(info, indent=1))

    torch.manual_seed(0)
    start = time.perf_counter()
    model, inputs = bench_models.build(name)
    scheme = bench_models.QUANTIZED.get(name, (None, None))[1]
    samples = bench_models.calibration(inputs) if scheme else []
    quantized = {}

    def ember_model():
        """The float model, or for an int8 row Ember's quantized one (made once)."""
        if not scheme:
            return model
        if "ember" not in quantized:
            import ember
            quantized["ember"] = ember.quantize(model, inputs, scheme=scheme, calibration=samples)
        return quantized["ember"]
    info["build_s"] = time.perf_counter() - start
    info["inputs"] = [[str(x.dtype).replace("torch.", ""), list(x.shape)] for x in inputs]
    for i, x in enumerate(inputs):
        np.save(outdir / f"input_{i}.npy", x.numpy())
    with torch.no_grad():
        ref = model(*inputs)
    np.save(outdir / "reference.npy", ref.detach().numpy())
    info["output_shape"] = list(ref.shape)
    info["params"] = int(sum(p.numel() for p in model.parameters()))

    def eager():
        try:
            torch.save(model, outdir / "model.pt")
            return {"pickled": True}
        except Exception as exc:  # noqa: BLE001
            return {"pickled": False, "note": f"not picklable ({short_reason(exc)}); "
                    "eager worker rebuilds the model, load time = build time"}

    def ember_export():
        import ember
        program = ember.export(ember_model(), inputs, backends=())
        program.save(outdir / "ember.pte")
        return {"operators": program.operators, "size": len(program.buffer)}

    def ember_cpu_export():
        import ember
        from ember.backends.cpu import CpuBackend
        program = ember.export(ember_model(), inputs, backends=[CpuBackend()])
        program.save(outdir / "ember_cpu.pte")
        portable = sorted({p.op for p in program.placements if p.where == "portable"})
        return {"operators": program.operators, "size": len(program.buffer),
                "delegated_fraction": program.delegated_fraction(), "portable_ops": portable}

    exported = {}

    def torch_export():
        if "ep" not in exported:
            exported["ep"] = torch.export.export(model, inputs)
        return exported["ep"]

    def et_portable():
        if scheme:
            raise RuntimeError("not measured for int8 rows")
        from executorch.exir import to_edge
        program = to_edge(torch_export()).to_executorch()
        (outdir / "et_portable.pte").write_bytes(program.buffer)
        return {"size": len(program.buffer)}

    def et_xnnpack():
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
        from executorch.exir import to_edge_transform_and_lower
        program = to_edge_transform_and_lower(
            xnnpack_quantized() if scheme else torch_export(),
            partitioner=[XnnpackPartitioner()]).to_executorch()
        (outdir / "et_xnnpack.pte").write_bytes(program.buffer)
        return {"size": len(program.buffer)}

    def xnnpack_quantized():
        """ExecuTorch's own int8 flow: XNNPACKQuantizer, PT2E, calibrated on the samples."""
        from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
            XNNPACKQuantizer,
            get_symmetric_quantization_config,
        )
        from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
        quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(
            is_per_channel=True, is_dynamic=scheme == "int8-dynamic"))
        prepared = prepare_pt2e(torch.export.export(model, inputs).module(), quantizer)
        with torch.no_grad():
            for sample in samples:
                prepared(*sample)
        return torch.export.export(convert_pt2e(prepared), inputs)

    def onnx_quantize(path: Path) -> str:
        """ONNX Runtime's int8 forms of the float file at `path`, in place."""
        import onnxruntime as ort
        from onnxruntime.quantization import (
            CalibrationDataReader,
            QuantFormat,
            QuantType,
            quantize_dynamic,
            quantize_static,
        )
        from onnxruntime.quantization.shape_inference import quant_pre_process
        float_path = outdir / "model_float.onnx"
        path.rename(float_path)
        prepared = outdir / "model_prepared.onnx"
        quant_pre_process(str(float_path), str(prepared))
        if scheme == "int8-dynamic":
            quantize_dynamic(str(prepared), str(path), weight_type=QuantType.QInt8,
                             per_channel=True)
            how = "quantize_dynamic (int8 per-channel weights)"
        else:
            names = [i.name for i in ort.InferenceSession(str(prepared)).get_inputs()]

            class Samples(CalibrationDataReader):
                def __init__(self):
                    self.it = iter([dict(zip(names, (x.numpy() for x in s))) for s in samples])

                def get_next(self):
                    return next(self.it, None)

            quantize_static(str(prepared), str(path), Samples(), quant_format=QuantFormat.QDQ,
                            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                            per_channel=True)
            how = "quantize_static (QDQ, U8S8, per-channel)"
        float_path.unlink()
        prepared.unlink()
        return how

    def onnx_export():
        path = outdir / "model.onnx"
        # The TorchScript exporter is several times faster to run than the dynamo one;
        # the dynamo exporter is the fallback.
        try:
            torch.onnx.export(model, inputs, str(path), dynamo=False, opset_version=17)
            how = "torchscript, opset 17"
        except Exception as first:  # noqa: BLE001
            try:
                torch.onnx.export(model, inputs, str(path), dynamo=True, external_data=False)
                how = f"dynamo (torchscript failed: {short_reason(first)[:80]})"
            except Exception:  # noqa: BLE001
                raise first from None
        if scheme:
            how += "; " + onnx_quantize(path)
        size = sum(p.stat().st_size for p in outdir.glob("model.onnx*"))
        return {"size": size, "exporter": how}

    # Fastest first, so a --prepare-timeout during XNNPACK lowering loses least.
    for key, fn in [("eager", eager), ("ember", ember_export), ("ember_cpu", ember_cpu_export),
                    ("onnx", onnx_export),
                    ("et_portable", et_portable), ("et_xnnpack", et_xnnpack)]:
        if only is None or key in only:
            record(key, fn)
    return 0


if __name__ == "__main__":
    sys.exit(main())
