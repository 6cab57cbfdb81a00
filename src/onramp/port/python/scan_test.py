"""Unit tests of scan.py: the candidate sites a file holds, read with `ast`
(never imported), under import aliases and guards."""
import scan

REQUEST = {"interest": {"names": ["torch.cuda.*"], "methods": ["cuda"], "strings": ["cuda*"]},
           "guards": {"names": ["torch.cuda.is_available"], "strings": ["cuda"]}}


def scanned(tmp_path, code):
    path = tmp_path / "model.py"
    path.write_text(code)
    return scan.scan_file(str(path), REQUEST)


def test_names_methods_and_strings_through_an_import_alias(tmp_path):
    result = scanned(tmp_path, "import torch as t\nx = t.cuda.device_count()\ny = x.cuda()\nz = t.device('cuda:0')\n")
    assert result["error"] is None and result["lines"] == 4
    found = [(s["line"], s["kind"], s["text"]) for s in result["sites"]]
    assert (2, "name", "torch.cuda.device_count") in found
    assert any(line == 3 and kind == "method" for line, kind, _ in found)
    assert any(line == 4 and kind == "string" and text == "cuda:0" for line, kind, text in found)


def test_a_site_under_a_guard_says_so(tmp_path):
    code = "import torch\nif torch.cuda.is_available():\n    torch.cuda.synchronize()\ntorch.cuda.synchronize()\n"
    sites = [s for s in scanned(tmp_path, code)["sites"] if s["text"] == "torch.cuda.synchronize"]
    assert [(s["line"], s["guarded"]) for s in sites] == [(3, True), (4, False)]


def test_a_file_that_does_not_parse_is_an_error_not_a_crash(tmp_path):
    result = scanned(tmp_path, "def broken(:\n")
    assert result["sites"] == [] and result["error"]["kind"] == "SyntaxError" and result["error"]["line"] == 1
    missing = scan.scan_file(str(tmp_path / "absent.py"), REQUEST)
    assert missing["error"]["kind"] == "FileNotFoundError"
