"""Run as ``python -m tests.cli.interrupt_in_exec ARGS``: runs ``boardgames ARGS`` as a
command that, as its last act, caught a Ctrl-C that ended code run by ``exec`` of a
string (as ``dataclasses`` builds methods while a module loads), which leaves CPython's
process-wide note of an "unhandled" KeyboardInterrupt set."""

import contextlib
import sys
from typing import Any

from boardgames.cli import LazyGroup, main

command = LazyGroup._run


def run_then_catch_a_ctrl_c_in_exec(*args: Any) -> int:
    code = command(*args)
    with contextlib.suppress(KeyboardInterrupt):
        exec("raise KeyboardInterrupt")
    return code


LazyGroup._run = run_then_catch_a_ctrl_c_in_exec  # type: ignore[method-assign]
sys.argv = ["boardgames", *sys.argv[1:]]
main()
