"""Regenerates the "What Ember says" block of each failure kind in
docs/export.md from the models of tests/python/diagnose_models.py (and a
tiny transformers Llama for cache-object-output), so the page shows what
the code prints today.

    .venv/bin/python tools/gen_export_doc.py
"""

from __future__ import annotations

import os
import re
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "export.md")
BLOCK = re.compile(r"\n\nWhat Ember says:\n\n```text\n.*?```\n", re.DOTALL)


def _diagnoses() -> dict[str, str]:
    sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
    import diagnose_models
    import torch
    from ember.diagnose import DiagnosedExportError, lower_or_explain
    from ember.passes.pipeline import default_passes, lower

    cases = [(name, *diagnose_models.case(name)) for name in diagnose_models.FACTORIES]
    import transformers

    config = transformers.LlamaConfig(vocab_size=128, hidden_size=64, intermediate_size=128,
                                      num_hidden_layers=1, num_attention_heads=4,
                                      num_key_value_heads=2)
    cases.append(("hf_llama", transformers.LlamaForCausalLM(config).eval(),
                  (torch.randint(0, 128, (1, 6)),), None))
    found: dict[str, str] = {}
    for name, model, inputs, shapes in cases:
        print(f"diagnosing {name}", flush=True)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                lower_or_explain(lower, model, inputs, shapes, default_passes(()),
                                 apply_fixes=False)
        except DiagnosedExportError as error:
            found.setdefault(error.diagnosis.kind.id, str(error))
            continue
        for w in caught:
            kind = re.search(r"\[([\w-]+)\]", str(w.message))
            if kind:
                found.setdefault(kind.group(1), str(w.message))
    return found


def _block(text: str) -> str:
    lines = []
    for line in text.splitlines():
        if line.strip().startswith("see docs/export.md"):
            continue
        if line.strip().startswith("original message:"):
            body = line.strip()[len("original message: "):].replace(
                "  (--verbose shows it all)", "")
            body = body if len(body) <= 80 else body[:77] + "..."
            line = f"  original message: {body}  (--verbose shows it all)"
        lines.append(line.rstrip())
    return "\n\nWhat Ember says:\n\n```text\n" + "\n".join(lines) + "\n```\n"


def main() -> int:
    found = _diagnoses()
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    sections = re.split(r'(?=<a id="[\w-]+"></a>)', doc)
    for i, section in enumerate(sections):
        anchor = re.match(r'<a id="([\w-]+)"></a>', section)
        if not anchor or anchor.group(1) not in found:
            continue
        section = BLOCK.sub("\n", section)
        body, sep, rest = section.partition("\n## ")  # the last kind runs into the next part
        sections[i] = body.rstrip("\n") + _block(found[anchor.group(1)]) + "\n" + \
            (sep.lstrip("\n") + rest if sep else "")
    with open(DOC, "w", encoding="utf-8") as f:
        f.write("".join(sections))
    print(f"wrote {DOC}: {len(found)} diagnoses")
    return 0


if __name__ == "__main__":
    sys.exit(main())
