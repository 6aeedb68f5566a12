"""The export pipeline: torch.export -> core ATen -> out-variants -> planned program."""
