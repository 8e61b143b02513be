"""The soak's machine-level pieces (docs/soak.md §3): network namespaces
joined by a bridge, partitions by blackhole routes, and one small tmpfs per
data directory for the disk-full fault.  Python 3 standard library; needs
root.  Each piece says why when it cannot work here, so the soak can SKIP
the fault kind with that reason instead of faking it."""
import os
import subprocess


def run(cmd, check=True):
    """Runs cmd; returns (ok, stderr text).  check: raise RuntimeError on
    failure, naming the command."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = p.stderr.decode("utf-8", "replace").strip()
    if check and p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(cmd), err or "exit %d" % p.returncode))
    return p.returncode == 0, err


class Netns:
    """n namespaces zbc<tag>n<k> with addresses <net>.<k+1>, each joined to
    the bridge zbr<tag> (the host is <net>.254 on it, so the host reaches
    every node's API).  A partition adds blackhole routes inside the
    namespaces; packets between the two sides vanish without an error, as
    on a cut cable, and heal() removes them."""

    def __init__(self, n):
        self.n = n
        self.tag = "%d" % (os.getpid() % 100000)
        self.net = "10.%d.%d" % (150 + os.getpid() % 50, os.getpid() % 250)
        self.bridge = "zbr" + self.tag
        self.namespaces, self.links, self.addrs = [], [], []
        self.cut = []  # (namespace, address) blackholes in place

    @staticmethod
    def unavailable():
        """None when namespaces can be made here, else the reason."""
        if os.geteuid() != 0:
            return "network namespaces need root (euid %d)" % os.geteuid()
        ok, err = run(["ip", "netns", "list"], check=False)
        if not ok:
            return "`ip netns` does not work here: %s" % err
        probe = "zbcprobe%d" % (os.getpid() % 100000)
        ok, err = run(["ip", "netns", "add", probe], check=False)
        if not ok:
            return "cannot create a network namespace: %s" % err
        run(["ip", "netns", "del", probe], check=False)
        return None

    def setup(self):
        run(["ip", "link", "add", "name", self.bridge, "type", "bridge"])
        run(["ip", "addr", "add", self.net + ".254/24", "dev", self.bridge])
        run(["ip", "link", "set", self.bridge, "up"])
        for k in range(self.n):
            ns = "zbc%sn%d" % (self.tag, k)
            host_end, ns_end = "zs%sa%d" % (self.tag, k), "zs%sb%d" % (self.tag, k)
            run(["ip", "netns", "add", ns])
            self.namespaces.append(ns)
            run(["ip", "link", "add", host_end, "type", "veth", "peer", "name", ns_end])
            self.links.append(host_end)
            run(["ip", "link", "set", ns_end, "netns", ns])
            run(["ip", "link", "set", host_end, "master", self.bridge])
            run(["ip", "link", "set", host_end, "up"])
            addr = "%s.%d" % (self.net, k + 1)
            self.addrs.append(addr)
            run(["ip", "netns", "exec", ns, "ip", "addr", "add", addr + "/24", "dev", ns_end])
            run(["ip", "netns", "exec", ns, "ip", "link", "set", ns_end, "up"])
            run(["ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up"])

    def partition(self, side_a, side_b):
        """Cuts every link between the node indexes of side_a and side_b."""
        for a in side_a:
            for b in side_b:
                for src, dst in ((a, b), (b, a)):
                    ns, addr = self.namespaces[src], self.addrs[dst]
                    run(["ip", "netns", "exec", ns, "ip", "route", "add", "blackhole",
                         addr + "/32"])
                    self.cut.append((ns, addr))

    def heal(self):
        for ns, addr in self.cut:
            run(["ip", "netns", "exec", ns, "ip", "route", "del", "blackhole", addr + "/32"],
                check=False)
        self.cut = []

    def teardown(self):
        self.heal()
        for ns in self.namespaces:
            run(["ip", "netns", "del", ns], check=False)
        for link in self.links:
            run(["ip", "link", "del", link], check=False)
        run(["ip", "link", "del", self.bridge], check=False)


class SmallDisk:
    """A tmpfs of size_mb mounted at path: a node's data directory lives
    in it, and fill() leaves it no free byte (a ballast file) until free()."""

    def __init__(self, path, size_mb):
        self.path, self.size_mb = path, size_mb
        self.ballast = os.path.join(path, "ballast")
        self.mounted = False

    @staticmethod
    def unavailable(tmpdir):
        """None when a tmpfs can be mounted here, else the reason."""
        if os.geteuid() != 0:
            return "mounting a tmpfs needs root (euid %d)" % os.geteuid()
        probe = os.path.join(tmpdir, "tmpfs-probe")
        os.makedirs(probe, exist_ok=True)
        ok, err = run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], check=False)
        if not ok:
            os.rmdir(probe)
            return "cannot mount a tmpfs: %s" % err
        run(["umount", probe], check=False)
        os.rmdir(probe)
        return None

    def mount(self):
        os.makedirs(self.path, exist_ok=True)
        run(["mount", "-t", "tmpfs", "-o", "size=%dm,mode=0700" % self.size_mb, "tmpfs",
             self.path])
        self.mounted = True

    def free_bytes(self):
        st = os.statvfs(self.path)
        return st.f_bavail * st.f_frsize

    def used_bytes(self):
        st = os.statvfs(self.path)
        return (st.f_blocks - st.f_bfree) * st.f_frsize

    def fill(self):
        """Writes the ballast until the file system refuses (ENOSPC);
        returns the ballast's size."""
        n = 0
        chunk = b"\0" * (1 << 20)
        with open(self.ballast, "wb", buffering=0) as f:
            while True:
                try:
                    n += f.write(chunk)
                except OSError:
                    break
            for small in (65536, 4096, 512, 1):  # the last partial pages
                while True:
                    try:
                        n += f.write(chunk[:small])
                    except OSError:
                        break
        return n

    def free(self):
        if os.path.exists(self.ballast):
            os.unlink(self.ballast)

    def unmount(self, keep_copy=None):
        """Unmounts; keep_copy: a directory the contents are copied to
        first (data kept for inspection after a failure)."""
        if not self.mounted:
            return
        self.free()
        if keep_copy is not None:
            run(["cp", "-a", "--sparse=always", self.path, keep_copy], check=False)
        run(["umount", "-l", self.path], check=False)
        self.mounted = False
