"""`fusion-opt`: parse, run a pass pipeline, print (see fusionopt/opt_main.py)."""


def main() -> None:
    from fusionopt.cli import collect_cycles_rarely, exit_process
    from fusionopt.opt_main import main as run

    collect_cycles_rarely()
    exit_process(run())


if __name__ == "__main__":
    main()
