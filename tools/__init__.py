"""Command-line entry points (installed as `fusionopt.tools`)."""
