"""Quantization on real weights and real data (slow: each quantizes a real
model, minutes on a shared 2-core machine; `pytest -m slow`):

- EfficientNet-Lite0 with its trained ImageNet weights, static int8,
  calibrated on some of scikit-image's sample images and tested on others
  (a cat, an espresso, a rocket, a moped, a tripod): the same top-1 class
  as float on every photograph, run on the C++ runtime;
- the real all-MiniLM-L6-v2 sentence encoder, int8-dynamic, on the sentences
  of examples/data/sentences.txt: embedding cosine to float >= 0.99 on every
  sentence, run on the C++ runtime, from a file at most 0.3x of float's.
"""

from __future__ import annotations

import os

import ember
import ember.runtime
import pytest
import torch

from examples import efficientnet_lite, zoo

pytestmark = pytest.mark.slow

SENTENCES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "examples", "data", "sentences.txt")


def test_efficientnet_lite0_int8_names_every_photo_as_float_does(tmp_pte):
    model = efficientnet_lite.efficientnet_lite0()
    photos = efficientnet_lite.photo_batch()
    calibration = [x for _, x in efficientnet_lite.photo_batch(efficientnet_lite.CALIBRATION_PHOTOS)]
    qmodel = ember.quantize(model, (photos[0][1],), scheme="int8", calibration=calibration)
    program = ember.export(qmodel, (photos[0][1],), backends=())
    float_bytes = len(ember.export(model, (photos[0][1],), backends=()).buffer)
    assert len(program.buffer) <= 0.3 * float_bytes
    program.save(tmp_pte)
    runtime = ember.runtime.load(tmp_pte)
    names = efficientnet_lite.imagenet_classes()
    for name, x in photos:
        with torch.no_grad():
            expected = int(model(x).argmax())
        got = int(torch.as_tensor(runtime.forward(x)).argmax())
        assert got == expected, f"{name}: int8 says {names[got]}, float {names[expected]}"


def test_minilm_int8_dynamic_embeddings_match_float(tmp_pte):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoTokenizer

    with open(SENTENCES) as f:
        sentences = [line.strip() for line in f if line.strip()]
    tokenizer = AutoTokenizer.from_pretrained(zoo.minilm_dir())

    def encode(sentence):
        enc = tokenizer([sentence], padding="max_length", truncation=True, max_length=32,
                        return_tensors="pt")
        return enc["input_ids"], enc["attention_mask"], enc["token_type_ids"]

    model = zoo.minilm_sentence().eval()
    samples = [encode(s) for s in sentences]
    qmodel = ember.quantize(model, samples[0], scheme="int8-dynamic", calibration=samples)
    assert qmodel.quantization_report.outputs[0].min_cosine >= 0.99, qmodel.report()
    program = ember.export(qmodel, samples[0], backends=())
    # Its embedding tables (half the weights) are quantized too.
    float_bytes = len(ember.export(model, samples[0], backends=()).buffer)
    assert len(program.buffer) <= 0.3 * float_bytes, len(program.buffer) / float_bytes
    program.save(tmp_pte)
    runtime = ember.runtime.load(tmp_pte)
    for sentence, inputs in zip(sentences, samples):
        with torch.no_grad():
            expected = model(*inputs)
        got = torch.as_tensor(runtime.forward(*inputs))
        cosine = float(torch.nn.functional.cosine_similarity(expected, got).min())
        assert cosine >= 0.99, f"{sentence!r}: cosine {cosine:.4f}"
