"""The parts Benchmarks/postgres.py runs beside Tacit: a throwaway PostgreSQL cluster, HAProxy
rendered from deploy/haproxy.cfg, and the CPU time each process used over a window. Every
process started here is stopped by its own pid."""
import os
import pwd
import shutil
import signal
import socket
import string
import subprocess
import tempfile
import time
import urllib.request

from benchlib import ROOT

# Every setting passed to the server that PostgreSQL's defaults would set otherwise. None of
# them is about durability: fsync, synchronous_commit, full_page_writes and wal_sync_method
# keep their defaults, so a commit waits for its WAL flush as it would in production.
SETTINGS = {"listen_addresses": "127.0.0.1"}


def free_port():
    """A loopback port nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """`initdb` in a temporary directory, `postgres` on a free loopback port with its unix
    socket in that directory; Tacit connects through the socket. PostgreSQL refuses to run
    as root, so as root its programs run as the `postgres` account, which owns the directory."""

    user = "tacit"

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="tacit-bench-pg-")
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        self.process = None
        self.account = {}
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self.account = {"user": owner.pw_uid, "group": owner.pw_gid, "extra_groups": []}

    def start(self):
        log = open(os.path.join(self.dir, "commands.log"), "a")
        # --no-sync only skips flushing the new cluster's files once; the running server's
        # durability settings are its defaults.
        subprocess.run(["initdb", "-D", self.data, "-U", self.user, "-A", "trust", "-E", "UTF8", "--locale=C",
                        "--no-sync", "--no-instructions"], stdout=log, stderr=log, check=True, **self.account)
        options = [part for name, value in SETTINGS.items() for part in ("-c", f"{name}={value}")]
        self.process = subprocess.Popen(["postgres", "-D", self.data, "-p", str(self.port), "-k", self.dir] + options,
                                        stdout=log, stderr=log, **self.account)
        deadline = time.monotonic() + 60
        while subprocess.run(["pg_isready", "-q", "-h", self.dir, "-p", str(self.port)]).returncode != 0:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("PostgreSQL did not start; see " + os.path.join(self.dir, "commands.log"))
            time.sleep(0.1)
        return self

    def database(self, name):
        """Creates an empty database; returns the URL that reaches it through the socket."""
        subprocess.run(["createdb", "-h", self.dir, "-p", str(self.port), "-U", self.user, name], check=True)
        return f"postgres://{self.user}@/{name}?host={self.dir}&port={self.port}"

    def pids(self):
        """The postmaster and every process it forked (a backend per connection, the WAL
        writer, the checkpointer, …)."""
        return [self.process.pid] + children(self.process.pid)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # a fast shutdown
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


class HAProxy:
    """HAProxy in the foreground with deploy/haproxy.cfg rendered for `backends` (URLs)."""

    def __init__(self, backends):
        self.dir = tempfile.mkdtemp(prefix="tacit-bench-haproxy-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        with open(os.path.join(ROOT, "deploy", "haproxy.cfg")) as template:
            servers = "\n".join(f"    server i{n} {url.split('//', 1)[1]} check" for n, url in enumerate(backends))
            # Comment lines are kept as written: the file's header names both placeholders.
            text = "".join(line if line.lstrip().startswith("#") else
                           string.Template(line).substitute(bind=f"127.0.0.1:{self.port}", servers=servers)
                           for line in template.readlines())
        self.config = os.path.join(self.dir, "haproxy.cfg")
        with open(self.config, "w") as out:
            out.write(text + "\n")
        self.backends = backends
        self.process = None

    @property
    def hostport(self):
        return self.url.split("//", 1)[1]

    def start(self):
        self.process = subprocess.Popen(["haproxy", "-db", "-f", self.config], stdout=subprocess.DEVNULL,
                                        stderr=open(os.path.join(self.dir, "haproxy.log"), "a"))
        deadline = time.monotonic() + 30
        # Ready once every instance has passed a health check and a request through it works.
        while True:
            try:
                answers = [urllib.request.urlopen(self.url + "/readyz", timeout=2).status for _ in self.backends]
                if all(status == 200 for status in answers):
                    time.sleep(1)
                    return self
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("HAProxy did not start; see " + os.path.join(self.dir, "haproxy.log"))
            time.sleep(0.1)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


def children(parent):
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == parent:
                        found.append(int(name))
            except OSError:
                continue
    return found


def cpu_seconds(pid):
    """User plus system CPU time of one process, 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CPUMeter:
    """CPU seconds per named group of processes between `start()` and `stop()`. Groups are
    functions returning pids, read again at the end, so a backend forked during the
    window counts from its start."""

    def __init__(self, groups):
        self.groups = groups

    def start(self):
        self.began = time.monotonic()
        self.before = {name: {pid: cpu_seconds(pid) for pid in pids()} for name, pids in self.groups.items()}
        return self

    def stop(self):
        wall = time.monotonic() - self.began
        used = {}
        for name, pids in self.groups.items():
            before = self.before[name]
            # A process gone by the end reads 0; its time is lost rather than counted negative.
            used[name] = sum(max(0.0, cpu_seconds(pid) - before.get(pid, 0.0)) for pid in set(pids()) | set(before))
        return wall, used


def describe_split(wall, used, machine):
    """"tacit 1.10 cores (61%), postgres …" over the window, each share of the CPU the
    measured processes used together, then the whole machine's busy cores beside it."""
    total = sum(used.values()) or 1
    parts = [f"{name} {seconds / wall:.2f} cores ({seconds / total:.0%})" for name, seconds in used.items()]
    return ", ".join(parts) + f"; the whole machine was busy {machine / wall:.2f} cores"
