"""``boardgames queens solve --json``: the same output as ``--format json``."""

from __future__ import annotations

import json

from click.testing import CliRunner

from boardgames.cli import cli


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    return result


def test_json_flag_equals_format_json() -> None:
    for extra in ([], ["--fundamental"], ["-n", "3"], ["-n", "6", "--limit", "2"]):
        flag = run("queens", "solve", "--json", *extra)
        fmt = run("queens", "solve", "--format", "json", *extra)
        assert flag.exit_code == fmt.exit_code == 0
        assert flag.stdout == fmt.stdout
        json.loads(flag.stdout)
    data = json.loads(run("queens", "solve", "--json").stdout)
    assert data["n"] == 8 and data["count"] == 92 and len(data["solutions"]) == 92


def test_json_flag_with_format_json_is_fine() -> None:
    r = run("queens", "solve", "--json", "--format", "JSON")
    assert r.exit_code == 0 and json.loads(r.stdout)["count"] == 92


def test_json_flag_with_another_format_is_one_line_of_usage_error() -> None:
    r = run("queens", "solve", "--json", "--format", "csv")
    assert r.exit_code == 2
    assert "--json prints JSON; it cannot go with --format csv" in r.output


def test_json_flag_in_help() -> None:
    assert "--json" in run("queens", "solve", "--help").stdout
