"""`fusion-opt`: parse, run a pass pipeline, print."""


def main() -> None:
    from fusionopt.opt_main import FusionOptMain

    FusionOptMain().run_and_exit()


if __name__ == "__main__":
    main()
