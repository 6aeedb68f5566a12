"""Builds the EfficientNet-Lite0 web demo's site: the programs (float on
the CPU backend, and int8 by ember.quantize, each exported once and cached),
scikit-image's photographs as PNG files, the ImageNet labels, the page and
the JavaScript package (the WebAssembly build's folder).

    .venv/bin/python examples/web/prepare.py --js build/wasm-demo/js --out out/web

`make efficientnet-web` runs it, then serves out/web/site.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples"))

PAGE_FILES = ("index.html", "app.mjs", "worker.mjs")


def export_models(models: Path) -> dict[str, Path]:
    """The float and int8 programs, exported again only when the exporter or
    the model changed (demo.py's cache key)."""
    import ember
    from examples import demo, efficientnet_lite

    models.mkdir(parents=True, exist_ok=True)
    digest = demo._code_digest()
    out = {"float": models / "efficientnet_lite0_float.pte",
           "int8": models / "efficientnet_lite0_int8.pte"}
    stamp = models / "stamp"
    if stamp.exists() and stamp.read_text() == digest and all(p.exists() for p in out.values()):
        print(f"  {models}: programs current")
        return out
    model = efficientnet_lite.efficientnet_lite0()
    example = efficientnet_lite.photo_batch()[0][1]
    print("  exporting EfficientNet-Lite0 (float, CPU backend) ...", flush=True)
    ember.export(model, (example,)).save(str(out["float"]))
    print("  quantizing it to int8 (calibration: a few minutes on 2 cores) ...", flush=True)
    int8 = Path(demo.quantized_program(model, example, str(models)))
    shutil.copyfile(int8, out["int8"])
    int8.unlink()
    stamp.write_text(digest)
    return out


def build_site(js: Path, out: Path) -> Path:
    from PIL import Image

    from examples import efficientnet_lite

    site = out / "site"
    if site.exists():
        shutil.rmtree(site)
    (site / "photos").mkdir(parents=True)
    models = export_models(out / "models")
    shutil.copytree(models["float"].parent, site / "models",
                    ignore=shutil.ignore_patterns("stamp", "*.debug"))
    photos = []
    for name in efficientnet_lite.PHOTOS:
        path = f"photos/{name}.png"
        Image.fromarray(efficientnet_lite.photo(name)).save(site / path)
        photos.append({"name": name, "file": path})
    (site / "photos.json").write_text(json.dumps(photos, indent=1))
    (site / "labels.json").write_text(json.dumps(efficientnet_lite.imagenet_classes()))
    for name in PAGE_FILES:
        shutil.copyfile(HERE / name, site / name)
    shutil.copytree(js, site / "ember", ignore=shutil.ignore_patterns("*.d.ts", "README.md"))
    return site


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--js", help="the JavaScript package folder (build/wasm-demo/js)")
    parser.add_argument("--out", default="out/web")
    parser.add_argument("--models-only", action="store_true",
                        help="only export the programs (the demo's selective build reads them)")
    args = parser.parse_args()
    if args.models_only:
        export_models(Path(args.out) / "models")
        return 0
    if args.js is None:
        parser.error("--js is required unless --models-only")
    js = Path(args.js)
    if not (js / "ember-wasm.wasm").exists():
        print(f"{js}: no WebAssembly build (make wasm)", file=sys.stderr)
        return 2
    site = build_site(js, Path(args.out))
    sizes = [f"{p.name} {p.stat().st_size / 1e3:.0f} KB ({len(gzip.compress(p.read_bytes())) / 1e3:.0f} KB gzip)"
             for p in sorted((site / "ember").glob("*.wasm"))]
    print(f"  site: {site} ({', '.join(sizes)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
