"""Recurrent networks (ONNX LSTM and GRU nodes), for the build sweep at usual sizes: torch's
`nn.LSTM` / `nn.GRU` export as one ONNX node per layer (bidirectional layers included), which
IREE's ONNX importer lowers to a loop over the steps and ours unrolls
(`fusionopt/importers/onnx_ops_recurrent.py`). Imported by bench/export_models.py
(`RECURRENT_MODELS`, exported with `--forms inline`):

- lstm_text: a text classifier: token embeddings (vocabulary 1000, width 128), a 2-layer
  bidirectional LSTM of 256 units over 64 tokens, a linear head on the last step;
- gru_speech: a speech encoder: a strided 1-D conv over 80 mel bins x 200 frames (100 steps
  after it), a 2-layer bidirectional GRU of 256 units (torch's `linear_before_reset = 1`),
  per-frame logits over 32 symbols;
- lstm_forecast: a time-series forecaster: 8 features x 96 steps, one forward LSTM of 64
  units, a linear head on the last step.
"""

from __future__ import annotations

import torch
from torch import nn

from export_encoders import VOCAB

TOKENS, FRAMES, MELS, HORIZON = 64, 200, 80, 96


class TextLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 128)
        self.rnn = nn.LSTM(128, 256, num_layers=2, batch_first=True, bidirectional=True)
        self.head = nn.Linear(512, 10)

    def forward(self, input_ids):
        states, _ = self.rnn(self.embed(input_ids))
        return self.head(states[:, -1])


class SpeechGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(MELS, 256, 3, stride=2, padding=1)
        self.rnn = nn.GRU(256, 256, num_layers=2, batch_first=True, bidirectional=True)
        self.head = nn.Linear(512, 32)

    def forward(self, input_features):
        frames = torch.relu(self.conv(input_features)).transpose(1, 2)
        states, _ = self.rnn(frames)
        return self.head(states)


class ForecastLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(8, 64, batch_first=True)
        self.head = nn.Linear(64, 1)

    def forward(self, series):
        states, _ = self.rnn(series)
        return self.head(states[:, -1])


def _model(module_class, inputs):
    def build():
        return module_class(), inputs(), None
    return build


RECURRENT_MODELS = {
    "recurrent/lstm_text": (_model(TextLSTM, lambda: {"input_ids": torch.randint(0, VOCAB, (1, TOKENS))}),
                            "embedding 1000x128, 2-layer bidirectional LSTM(128 -> 256), 64 tokens, "
                            "linear head on the last step", False),
    "recurrent/gru_speech": (_model(SpeechGRU, lambda: {"input_features": torch.randn(1, MELS, FRAMES)}),
                             "Conv1d(80 -> 256, stride 2) + ReLU, 2-layer bidirectional GRU(256 -> 256), "
                             "200 frames (100 steps), per-frame linear head", False),
    "recurrent/lstm_forecast": (_model(ForecastLSTM, lambda: {"series": torch.randn(1, HORIZON, 8)}),
                                "LSTM(8 -> 64), 96 steps, linear head on the last step", False),
}
