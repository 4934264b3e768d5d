"""Serve the scorekeeper: `python -m scorekeeper` or `scorekeeper` (see serve.py)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import config, serve
from .net import urls


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, create the app and serve it until interrupted."""
    parser = argparse.ArgumentParser(
        prog="scorekeeper", description="Serve the Qwirkle scorekeeper."
    )
    parser.add_argument("--host", default="0.0.0.0",
                        help="address to listen on (default: all, so phones reach it)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--instance", metavar="PATH",
                        help="folder for the database and secret key"
                        f" (default: ${config.INSTANCE_ENV}, else instance/ beside"
                        " the source checkout)")
    serve.add_arguments(parser)
    args = parser.parse_args(argv)

    if args.instance:
        os.environ[config.INSTANCE_ENV] = args.instance

    from . import create_app

    app = create_app()
    found = urls(args.host, args.port)
    print(f"Qwirkle scorekeeper: database {app.config['DATABASE']}")
    print(f"Open {found[0]} on this computer", end="")
    if len(found) > 1:
        print(", or from a phone or tablet on the same network:")
        for url in found[1:]:
            print(f"    {url}")
    else:
        print(".")
    print("Press Ctrl+C to stop.", flush=True)
    return serve.serve(app, args.host, args.port, args)


if __name__ == "__main__":
    sys.exit(main())
