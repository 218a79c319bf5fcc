"""HAProxy in front of the instances, from deploy/haproxy.cfg rendered with a free loopback
port and one `server` line per instance; run in the foreground and stopped by its pid."""
import os
import pathlib
import string
import subprocess
import tempfile
import time
import urllib.request

CONFIG = pathlib.Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"


class HAProxy:
    def __init__(self, port, instances, binary="/usr/sbin/haproxy"):
        """`instances` is a list of (name, port)."""
        self.url = f"http://127.0.0.1:{port}"
        self.directory = tempfile.mkdtemp(prefix="tacit-haproxy-")
        self.config = os.path.join(self.directory, "haproxy.cfg")
        servers = "\n".join(f"    server {name} 127.0.0.1:{p} check" for name, p in instances)
        with open(self.config, "w") as file:
            file.write(string.Template(CONFIG.read_text()).substitute(bind=f"127.0.0.1:{port}", servers=servers))
        self.log = open(os.path.join(self.directory, "haproxy.log"), "w")
        self.process = subprocess.Popen([binary, "-db", "-f", self.config], stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout=20):
        """Until a request through it reaches an instance's /readyz. Fails at once when HAProxy
        has exited (its port taken meanwhile, say), and either way with what it logged."""
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline and self.process.poll() is None:
            try:
                with urllib.request.urlopen(self.url + "/readyz", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except Exception as error:
                last = error
            time.sleep(0.1)
        self.log.flush()
        with open(os.path.join(self.directory, "haproxy.log")) as log:
            logged = log.read()[-2000:]
        state = "exited " + str(self.process.returncode) if self.process.poll() is not None else "running"
        raise RuntimeError(f"HAProxy ({state}) reached no ready instance; last answer: {last}; its log:\n{logged}")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
