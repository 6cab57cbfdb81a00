"""A probe target that writes wherever a careless library might: $HOME,
$TMPDIR, the XDG cache and the working directory. onramp must keep every one
of these writes inside its run directory."""
import os
import tempfile

targets = [
    os.path.join(os.path.expanduser("~"), ".escaping_backend"),
    os.path.join(tempfile.gettempdir(), "escaping_backend.tmp"),
    os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "escaping_backend"),
    os.path.abspath("escaping_backend.cwd"),
]
for target in targets:
    with open(target, "w") as f:
        f.write("written at import\n")
fd, _ = tempfile.mkstemp(prefix="escaping_backend")
os.close(fd)
