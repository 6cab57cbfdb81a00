#!/usr/bin/env python3
"""Writes the seed inputs of fuzz/corpus/<harness>/ from the test fixtures.

Seeds are the string literals of each parser's unit tests, the e2e fixtures
and the repository's own data files. They are named seed-<n>; the inputs of
bugs found (by fuzzing or by reading) are named bug-<what>, and other hand-made inputs
(real-<what>, such as a stripped shared library for elf_facts) are never
rewritten here.
Run from the repository root; the output is committed.
"""
import io
import json
import pathlib
import re
import tomllib
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"

LITERAL = re.compile(r'R"(?P<delim>[^(\s]*)\((?P<raw>.*?)\)(?P=delim)"|"(?P<plain>(?:[^"\\\n]|\\.)*)"', re.S)


def decode_c(text):
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape").encode("latin-1", "replace")


def literals(path):
    """String literals of a C++ file, adjacent ones joined as the compiler does."""
    source = (ROOT / path).read_text()
    out, current, last_end = [], None, None
    for m in LITERAL.finditer(source):
        value = m.group("raw").encode() if m.group("raw") is not None else decode_c(m.group("plain"))
        if current is not None and source[last_end:m.start()].strip() == "":
            current += value
        else:
            if current is not None:
                out.append(current)
            current = value
        last_end = m.end()
    if current is not None:
        out.append(current)
    return [s for s in out if len(s) >= 3]


def files(*patterns):
    return [p.read_bytes() for pattern in patterns for p in sorted(ROOT.glob(pattern)) if p.is_file()]


def write(harness, seeds):
    folder = CORPUS / harness
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("seed-*"):
        old.unlink()
    unique = sorted(set(seeds))
    for n, seed in enumerate(unique):
        (folder / f"seed-{n:03d}").write_bytes(seed)
    print(f"{harness}: {len(unique)} seeds")


def zip_bytes(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(name, data)
    return buffer.getvalue()


def wheel_seeds():
    dist = "demo-1.0.dist-info"
    metadata = b"Metadata-Version: 2.1\nName: demo\nVersion: 1.0\nRequires-Python: >=3.8\n"
    wheel = b"Wheel-Version: 1.0\nGenerator: seed\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = b"demo/__init__.py,,\ndemo-1.0.dist-info/METADATA,,\n"
    good = [("demo/__init__.py", b"x = 1\n"), (f"{dist}/METADATA", metadata), (f"{dist}/WHEEL", wheel),
            (f"{dist}/RECORD", record)]
    return [
        zip_bytes(good),
        zip_bytes(good + [("../escape.py", b"")]),
        zip_bytes(good + [("/abs/path.py", b"")]),
        zip_bytes(good + [("demo/big.bin", b"\0" * 200000)]),
        zip_bytes([(f"{dist}/METADATA", metadata)]),
        zip_bytes(good)[:-30],
    ]


def census_seeds():
    languages = tomllib.loads((ROOT / "data/languages.toml").read_text())["language"]
    samples = files("src/onramp/census/*.cpp", "examples/reference-backend/**/*.py", "CMakeLists.txt", "Makefile",
                    "scripts/*.sh", "data/*.toml", "README.md", "examples/reference-backend/csrc/**/*.h")
    seeds = []
    for index in range(len(languages)):
        for n, sample in enumerate(samples[index % len(samples)::len(languages)][:2]):
            seeds.append(bytes([index, 64 + 64 * n]) + sample[:4000])
    seeds += [bytes([5, 128]) + b'"""doc\n\n"""\nx = 1  # c\n\'\'\'a\'\'\'\n',
              bytes([0, 10]) + b"/* a\n\n */ int x; // c\n\"s\\\"\n\"\r\n\r\n"]
    return seeds


def elf_seeds():
    # A bare 64-bit x86-64 header; real-* files hold a whole shared library.
    header = bytearray(64)
    header[0:4] = b"\x7fELF"
    header[4], header[5], header[6] = 2, 1, 1
    header[16] = 3
    header[18] = 62
    return [bytes([0]) + bytes(header), bytes([255]) + bytes(header)] + [bytes([1]) + s for s in
                                                                        literals("src/onramp/wheel/elf_facts_test.cpp")]


def last_resolution_seeds():
    request = {"target": "demo==1.0", "python": "/opt/py/bin/python", "index_url": "", "extra_index_urls": [],
               "find_links": [], "ignore_requires_python": False, "torch": "", "allow_torch_download": False,
               "pip_args": [], "system_site_packages": True}
    good = {"schema": "onramp.last-resolution/1", "request": request, "host_python": "/opt/py/bin/python",
            "wheels": ["/c/a.whl"], "files": [["a.whl", "/c/a.whl"], ["b.whl", "/c/b.whl"]]}
    variants = [good, dict(good, files=[["../x", "/c"]]), dict(good, wheels={"a": 1}),
                dict(good, request=dict(request, target="x")), dict(good, files=[["a.whl"]]), [], {"schema": None}]
    seeds = [json.dumps(v, indent=1).encode() for v in variants]
    return seeds + [seeds[0][:120]]


def interpreter_facts_seeds():
    base = {"python": "3.11.7", "torch": None, "executable": "/p/bin/python3", "torchgen": None, "venv": False,
            "site": ["/p/lib/python3.11/site-packages"], "platform": "linux-x86_64", "libc": "glibc 2.36",
            "tags_source": "pip._vendor.packaging.tags.sys_tags()"}
    glibc = [["cp311", "cp311", f"manylinux_2_{m}_x86_64"] for m in range(36, 16, -1)]
    tail = [["cp311", "abi3", "linux_x86_64"], ["cp39", "abi3", "manylinux2014_x86_64"], ["py3", "none", "any"]]
    musl = [["cp311", "cp311", "musllinux_1_2_x86_64"], ["cp311", "abi3", "musllinux_1_1_x86_64"],
            ["py3", "none", "any"]]
    mac = [["cp311", "cp311", "macosx_11_0_arm64"], ["py3", "none", "any"]]
    variants = [dict(base, tags=glibc + tail), dict(base, tags=musl, libc=None, platform="linux-x86_64"),
                dict(base, tags=mac, libc=None, platform="macosx-11.0-arm64"),
                dict(base, tags=None, tags_source="unknown: pip._vendor.packaging.tags: ImportError: no tags"),
                dict(base, tags=[["cp311", "cp311"]]), dict(base, tags=[["cp311", 3, "any"]]), dict(base, tags=[]),
                dict(base, tags=[["cp311", "cp311", "manylinux_99999999999_1_x86_64"]]), base, {"python": 3}, []]
    seeds = [json.dumps(v).encode() for v in variants]
    return seeds + [seeds[0][:300]] + literals("src/onramp/python/interpreter_test.cpp")


def wheel_facts_seeds():
    elf = {"machine": "x86_64", "soname": "libx.so.1", "needed": ["libc.so.6"], "glibc_floor": "2.17",
           "glibcxx_floor": "3.4.21", "not_read": ""}
    facts = {
        "archive": {"path": "/c/x-1.0-cp311-cp311-linux_x86_64.whl", "archive_bytes": 100, "unpacked_bytes": 300,
                    "members": [{"path": "x/_C.so", "size": 200, "sha256": "sha256=abc", "elf": elf},
                                {"path": "x/__init__.py", "size": 100, "sha256": "sha256=def", "elf": None}],
                    "texts": {"x-1.0.dist-info/METADATA": "Name: x"}},
        "file_name": {"distribution": "x", "version": "1.0", "build": "", "python_tag": "cp311", "abi_tag": "cp311",
                      "platform_tag": "linux_x86_64"},
        "dist_info": "x-1.0.dist-info",
        "metadata": {"metadata_version": "2.1", "name": "x", "version": "1.0", "summary": "", "requires_python": "",
                     "requires_dist": ["torch"], "project_urls": [], "description": "# x",
                     "description_content_type": "text/markdown"},
        "wheel": {"wheel_version": "1.0", "generator": "g", "root_is_purelib": None, "tags": ["cp311-cp311-linux_x86_64"],
                  "build": ""},
        "requirements": [{"name": "torch", "normalized_name": "torch", "extras": [], "specifier": "", "url": "",
                          "marker": ""}],
        "record": {"record_path": "x-1.0.dist-info/RECORD", "rows": 3, "missing": [], "extra": [],
                   "size_mismatches": [{"path": "x/a.py", "recorded": 1, "actual": 2}], "hashes_checked": 2,
                   "hash_mismatches": []},
        "importable": ["x"]}
    broken = json.loads(json.dumps(facts))
    broken["archive"]["members"][0]["size"] = -1
    wrong = json.loads(json.dumps(facts))
    wrong["wheel"]["root_is_purelib"] = "yes"
    seeds = [json.dumps(v).encode() for v in (facts, broken, wrong, {"archive": None}, [])]
    return seeds + [seeds[0][:200]]


def main():
    write("cpp_extract", literals("src/onramp/ops/cpp_extract_test.cpp") +
          files("examples/reference-backend/csrc/**/*.h", "examples/reference-backend/csrc/**/*.cpp"))
    write("python_extract", literals("src/onramp/ops/python_extract_test.cpp") +
          files("examples/reference-backend/tests/*.py", "tests/e2e/fixtures/packages/*/*.py"))
    write("yaml_extract", literals("src/onramp/ops/yaml_extract_test.cpp") + files("tests/e2e/fixtures/ops/*.yaml"))
    write("aten_schema", [b"\n" + s for s in literals("src/onramp/ops/schema_test.cpp") +
                          literals("src/onramp/ops/test_schema.h") + literals("src/onramp/port/coverage_join_test.cpp") +
                          files("tests/e2e/fixtures/ops/*.yaml")] +
          [b"- tag: core\n  desc: x\n"])
    write("toml_tables", files("data/*.toml", "data/profiles/*.toml") +
          literals("src/onramp/diagnosis/diagnosis_test.cpp"))
    write("wheel_metadata", literals("src/onramp/packaging/metadata_test.cpp"))
    write("wheel_record", literals("src/onramp/packaging/metadata_test.cpp"))
    write("pep440", literals("src/onramp/packaging/pep440_test.cpp") + literals("src/onramp/packaging/metadata_test.cpp") +
          [b"1.0\n>=1.0,<2", b"2.14.1+cpu\n~=2.11", b"1!2.0.post1.dev3\n==1!2.*", b"torch (>=2.11,<=2.15)",
           b"numpy; extra == \"test\" and python_version >= \"3.8\""])
    write("markdown_examples", literals("src/onramp/examples/example_sources_test.cpp") +
          files("tests/e2e/fixtures/examples/*.md", "tests/e2e/fixtures/hostile/*.md", "README.md",
                "examples/reference-backend/README.md"))
    write("notebook_examples", literals("src/onramp/examples/example_sources_test.cpp") +
          files("tests/e2e/fixtures/examples/*.ipynb", "tests/e2e/fixtures/examples/marimo_demo.py"))
    write("integration_records", literals("src/onramp/integration/records_test.cpp") +
          literals("src/onramp/integration/status_test.cpp"))
    write("importtime", literals("src/onramp/probe/import_output_test.cpp"))
    write("pip_conflict", literals("src/onramp/audit/named_conflict_test.cpp"))
    write("failure_evidence", literals("src/onramp/diagnosis/evidence_test.cpp") +
          [b"Failed to load the backend extension: x.\n/v/_C.so: undefined symbol: _ZN3c104impl3fooEv",
           b"outer\n/a/b/lib.so: undefined symbol: _ZNK2at10TensorBase4cudaEv, version 0x1f",
           b"\nundefined symbol: _ZN5torch8autograd10deleteNodeEPNS0_4NodeE"])
    write("extra_markers", [b'extra == "runtime"', b"extra=='test' and python_version >= \"3.8\"", b'extra == "open',
                            b"pip install x --extra-index-url https://vendor.invalid/simple/\nLog in first.\n"] +
          files("examples/reference-backend/README.md"))
    write("interpreter_facts", interpreter_facts_seeds())
    write("last_resolution", last_resolution_seeds())
    write("pip_lines", literals("src/onramp/packaging/pip_lines_test.cpp") +
          literals("src/onramp/audit/named_conflict_test.cpp"))
    write("torch_builds", literals("src/onramp/host/cpu_torch_test.cpp") + [
        b"2.14.1\nfilelock\ncuda-toolkit[cublas,cudart]==13.0.3; platform_system == \"Linux\"\n"
        b"nvidia-cudnn-cu13==9.24.0.43; platform_system == \"Linux\"\noptree>=0.13.0; extra == \"optree\"\n",
        b"2.13.0+cpu\nfilelock\ntyping-extensions>=4.10.0\nsympy>=1.13.3\npyyaml; extra == \"pyyaml\"\n",
        b"torch (>=2.11,<=2.15)\ntorch (>=2.11,<=2.15)\n", b"2.14.1+cu121\nNVIDIA_cublas.cu12 >=12\n"])
    write("census_lines", census_seeds())
    write("gitattributes", [b"third_party/x.c\nthird_party/** linguist-vendored\n*.pb.h linguist-generated=true\n",
                            b"a/b.h\n*.h linguist-language=C++\n[attr]binary -diff\n!*.h linguist-vendored\n",
                            b"src/gen/x.py\n/src/gen/ linguist-generated\n\"quoted name\" -linguist-vendored\n",
                            b"docs/a.md\ndocs/**/*.md linguist-documentation\n**/a.md -linguist-documentation\n"] +
          literals("src/onramp/census/paths_test.cpp"))
    write("op_names", literals("src/onramp/ops/names_test.cpp") +
          [b"AddTensor", b"AdaptiveAvgPool2dBackward", b"add.Tensor", b"MaxDim", b"SumDimIntList", b"ReluOut",
           b"MseLossBackwardOut", b"_foo__Bar"])
    write("elf_facts", elf_seeds())
    write("wheel_archive", wheel_seeds())
    write("wheel_facts_record", wheel_facts_seeds())
    write("readme_claims", literals("src/onramp/wheel/readme_check_test.cpp") +
          files("README.md", "examples/reference-backend/README.md"))
    write("index_pages", literals("src/onramp/index/simple_page_test.cpp") +
          literals("src/onramp/packaging/pip_report_test.cpp") + literals("src/onramp/packaging/tags_test.cpp") +
          literals("src/onramp/index/release_files_test.cpp"))


if __name__ == "__main__":
    main()
