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


def test_tags_are_this_interpreters_most_preferred_first():
    tags, source = interpreter_query.supported_tags()
    if tags is None:  # neither pip nor packaging here: said, not guessed
        assert source.startswith("unknown: pip._vendor.packaging.tags: ")
        return
    assert source in ("pip._vendor.packaging.tags.sys_tags()", "packaging.tags.sys_tags()")
    assert all(len(t) == 3 and all(t) for t in tags)
    cp = "cp%d%d" % sys.version_info[:2]
    assert tags[0][0] == cp  # the interpreter's own tag comes first
    assert ["py3", "none", "any"] in tags
    assert len({tuple(t) for t in tags}) == len(tags)


def test_no_module_with_tags_is_unknown_with_each_reason():
    tags, source = interpreter_query.supported_tags(("onramp_no_such_module.tags", "json"))
    assert tags is None
    assert source.startswith("unknown: onramp_no_such_module.tags: ModuleNotFoundError: ")
    assert "; json: AttributeError: " in source


def test_the_next_module_is_asked_when_the_first_fails():
    tags, source = interpreter_query.supported_tags(("onramp_no_such_module.tags",) + interpreter_query.TAG_MODULES)
    assert tags is None or source in ("pip._vendor.packaging.tags.sys_tags()", "packaging.tags.sys_tags()")
