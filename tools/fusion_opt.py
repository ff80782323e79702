"""`fusion-opt`: parse, run a pass pipeline, print (see fusionopt/opt_main.py)."""

import sys


def main() -> None:
    from fusionopt.opt_main import main as run

    sys.exit(run())


if __name__ == "__main__":
    main()
