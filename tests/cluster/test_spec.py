"""Where to run (core/cluster/spec.py): what ``--cluster`` accepts, at its bounds, and the
one line it says about what it does not."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.cluster import ClusterError, parse_cluster


@pytest.mark.parametrize(
    ("text", "kind", "workers"),
    [("local", "local", None), ("local:3", "local", 3), ("tcp://127.0.0.1:8786", "address", None),
     ("tls://scheduler.example:8786", "address", None)],
)  # fmt: skip
def test_good_specs(text: str, kind: str, workers: int | None) -> None:
    spec = parse_cluster(text)
    assert (spec.kind, spec.workers, str(spec)) == (kind, workers, text)


@pytest.mark.parametrize(
    "text",
    ["", "locl", "local:0", "local:257", "local:x", "local:٣", "tcp://host", "tcp://:80",
     "http://host:80", "tcp://host:99999", "no/such/file.json"],
)  # fmt: skip
def test_bad_specs_are_one_line(text: str) -> None:
    with pytest.raises(ClusterError) as e:
        parse_cluster(text)
    assert "\n" not in e.value.message and e.value.exit_code == 2


def test_a_scheduler_file_is_a_spec(tmp_path: Path) -> None:
    f = tmp_path / "scheduler.json"
    f.write_text('{"type": "Scheduler", "address": "tcp://127.0.0.1:8786"}')
    assert parse_cluster(str(f)).kind == "file"


@pytest.mark.parametrize(
    ("text", "workers"), [("local:1", 1), ("local:256", 256), (" local:7 ", 7)]
)
def test_local_worker_counts_at_their_bounds(text: str, workers: int) -> None:
    spec = parse_cluster(text)
    assert (spec.kind, spec.workers, spec.text) == ("local", workers, text.strip())


@pytest.mark.parametrize(
    "text",
    ["tcp://h:1", "tcp://h:65535", "tls://10.0.0.1:8786", "tcp://[::1]:8786", "tcp://a:b:8786"],
)
def test_addresses_at_their_bounds(text: str) -> None:
    """Ports 1 to 65535; the port is what follows the last colon (IPv6 hosts)."""
    spec = parse_cluster(text)
    assert (spec.kind, spec.target, spec.workers) == ("address", text, None)


@pytest.mark.parametrize("text", ["tcp://h:0", "tcp://h:65536", "tcp://h:", "udp://h:80"])
def test_addresses_past_their_bounds(text: str) -> None:
    with pytest.raises(ClusterError, match=r"^bad --cluster .*tcp://HOST:PORT"):
        parse_cluster(text)


def test_a_scheduler_file_is_its_own_target(tmp_path: Path) -> None:
    f = tmp_path / "sched"
    f.write_text('{"address": "tcp://127.0.0.1:8786"}')
    spec = parse_cluster(str(f))
    assert (spec.kind, spec.target, spec.text) == ("file", str(f), str(f))


@pytest.mark.parametrize(
    ("text", "message"),
    [("sched.json", "no such scheduler file"), ("dir/sched", "no such scheduler file"),
     ("sched", "bad --cluster 'sched': use local"), ("", "bad --cluster '': use local")],
)  # fmt: skip
def test_what_looks_like_a_file_is_named_as_one(text: str, message: str) -> None:
    with pytest.raises(ClusterError) as e:
        parse_cluster(text)
    assert message in e.value.message


# --- on the command line ------------------------------------------------------------------


def test_cluster_option_on_the_command_line() -> None:
    """A blank --cluster counts as none (the count runs here); a bad one is a usage
    error naming what is allowed, without repeating the option's name."""
    runner = CliRunner()
    blank = runner.invoke(cli, ["queens", "count", "-n", "6", "--cluster", "  "])
    assert blank.exit_code == 0 and "4" in blank.output
    bad = runner.invoke(cli, ["queens", "count", "-n", "6", "--cluster", "nowhere"])
    assert bad.exit_code == 2
    assert "'nowhere': use local, local:N" in bad.output and "bad --cluster" not in bad.output


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--cluster", "local:0"], "local:N (1 to 256 workers)"),
     (["--cluster", "tcp://x"], "tcp://HOST:PORT"),
     (["--cluster", "local", "--jobs", "2"], "not both"),
     (["--checkpoint", ""], "the file name is empty")],
)  # fmt: skip
def test_bad_cluster_options(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["kalah", "match", "--games", "2", *args])
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "content",
    ["", "{}", "root:x:0:0:root:/root:/bin/bash\n", '{"address": 5}', "[1, 2]", "\x00\xff"],
)
def test_a_file_that_is_not_a_scheduler_file_is_bad_input(tmp_path: Path, content: str) -> None:
    """Round 4: a file that is not a scheduler file was taken for one, and Dask's
    AssertionError was shown; now it is one line naming the file, status 2."""
    f = tmp_path / "passwd"
    f.write_bytes(content.encode("latin-1"))
    with pytest.raises(ClusterError, match="is not a Dask scheduler file") as e:
        parse_cluster(str(f))
    assert e.value.exit_code == 2 and "Assertion" not in e.value.message


@pytest.mark.parametrize("text", ["tcp://[::1:8786", "tcp://::1]:8786", "tcp://h:٣٣"])
def test_malformed_addresses_are_bad_input(text: str) -> None:
    with pytest.raises(ClusterError, match=r"^bad --cluster") as e:
        parse_cluster(text)
    assert e.value.exit_code == 2


def test_a_folder_is_not_a_scheduler_file(tmp_path: Path) -> None:
    with pytest.raises(ClusterError, match="is a folder") as e:
        parse_cluster(str(tmp_path))
    assert e.value.exit_code == 2
