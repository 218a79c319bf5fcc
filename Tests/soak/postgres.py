"""A throwaway PostgreSQL cluster for the two-instance soak and the rolling-restart test:
`initdb` in a temporary directory, `postgres` on a free loopback port with its socket in
that directory, stopped at the end. The binaries are found as the Swift tests'
PostgresCluster finds them (PATH, else Debian's versioned directory); as root they run as
the `postgres` user, since PostgreSQL refuses to run as root. `kill()` is a SIGKILL of the
postmaster and `start()` brings it back on the same data directory and port."""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

DEBIAN_BIN = "/usr/lib/postgresql/15/bin"
USER = "postgres"


def binary(name):
    return shutil.which(name) or os.path.join(DEBIAN_BIN, name)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def alive(pid):
    """Whether the process runs (a zombie, killed and not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class PostgresCluster:
    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="tacit-soak-pg-")
        self.data = os.path.join(self.directory, "data")
        self.log = os.path.join(self.directory, "postgres.log")
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.directory, USER)
        self.run("initdb", "-D", self.data, "-U", USER, "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync",
                 "--no-instructions")
        self.start()
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, "tacit")

    @property
    def url(self):
        return f"postgres://{USER}@127.0.0.1:{self.port}/tacit"

    def run(self, name, *arguments, check=True):
        command = [binary(name), *arguments]
        if self.as_root:
            command = ["/usr/sbin/runuser", "-u", USER, "--"] + command
        return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=check,
                              timeout=120)

    def start(self):
        """Starts the server, retrying while a killed postmaster's children still hold its
        shared memory. fsync is off (a process kill loses nothing the kernel has), but
        commits stay synchronous: an acknowledged commit must survive a SIGKILL."""
        options = (f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c full_page_writes=off -c max_connections=200")
        deadline = time.time() + 60
        while True:
            result = self.run("pg_ctl", "-D", self.data, "-l", self.log, "-w", "-t", "60", "-o", options, "start",
                              check=False)
            if result.returncode == 0:
                return
            if time.time() > deadline:
                raise RuntimeError(f"PostgreSQL did not start: {result.stdout[-2000:]}")
            time.sleep(0.5)

    def postmaster_pid(self):
        try:
            with open(os.path.join(self.data, "postmaster.pid")) as file:
                return int(file.readline())
        except (OSError, ValueError):
            return None

    def kill(self):
        """SIGKILLs the postmaster and waits for it to be gone; its backends follow it."""
        pid = self.postmaster_pid()
        if pid is None:
            return
        os.kill(pid, signal.SIGKILL)
        while alive(pid):
            time.sleep(0.05)

    def stop(self):
        self.run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.directory, ignore_errors=True)
