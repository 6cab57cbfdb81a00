import sys

import interpreter_query


def test_facts_name_this_interpreter():
    facts = interpreter_query.facts()
    assert facts["executable"] == sys.executable
    assert facts["python"] == "%d.%d.%d" % sys.version_info[:3]
    assert facts["venv"] == (sys.prefix != sys.base_prefix)
    assert facts["site"] and len(facts["site"]) == len(set(facts["site"]))


def test_a_missing_distribution_is_none():
    assert interpreter_query.torch_version() is None or isinstance(interpreter_query.torch_version(), str)
