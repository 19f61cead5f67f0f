"""`python -m nonsmooth [--version]`: the package's and the C library's version."""
import sys

from . import __version__, __file__ as _where


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv in ([], ["--version"]):
        print(f"nonsmooth {__version__}")
        return 0
    if argv == ["--where"]:
        print(_where)
        return 0
    print("usage: python -m nonsmooth [--version | --where]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
