"""The `fusion-opt` driver: xDSL's opt driver with fusionopt's dialects, passes and pipelines."""

from __future__ import annotations

import sys

from xdsl.xdsl_opt_main import xDSLOptMain

from fusionopt import registry


class FusionOptMain(xDSLOptMain):
    def __init__(self, args=None):
        super().__init__(description="fusionopt optimizer driver", args=args)

    def register_all_dialects(self):
        for name, factory in registry.get_all_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self):
        for name, factory in registry.get_all_passes().items():
            self.register_pass(name, factory)

    def run_and_exit(self) -> None:
        self.run()
        sys.exit(0)
