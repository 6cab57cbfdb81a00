import onramp_errors as errors


def raised(thunk):
    try:
        thunk()
    except BaseException as exc:  # noqa: BLE001 - the test looks at whatever it raised
        return exc
    raise AssertionError("nothing raised")


def autoload_like():
    try:
        raise ImportError("libfoo.so: undefined symbol: _ZN3c104impl3barEv")
    except Exception as err:
        raise RuntimeError("Failed to load the backend extension: foo. You can disable ...") from err


def context_only():
    try:
        {}["k"]
    except KeyError:
        raise ValueError("while handling")  # noqa: B904 - the implicit context is what is tested


def suppressed():
    try:
        {}["k"]
    except KeyError:
        raise ValueError("on purpose") from None


def test_a_plain_exception_has_no_cause_fields():
    fields = errors.exception_fields(raised(lambda: int("x")))
    assert fields["type"] == "ValueError"
    assert "cause_type" not in fields


def test_the_autoload_wrapper_is_seen_through():
    fields = errors.exception_fields(raised(autoload_like))
    assert fields["type"] == "RuntimeError"
    assert fields["cause_type"] == "ImportError"
    assert "undefined symbol" in fields["cause_message"]


def test_the_implicit_context_is_followed_unless_suppressed():
    assert errors.exception_fields(raised(context_only))["cause_type"] == "KeyError"
    assert "cause_type" not in errors.exception_fields(raised(suppressed))


def test_a_chain_that_loops_ends():
    a, b = ValueError("a"), KeyError("b")
    a.__cause__, b.__cause__ = b, a
    assert errors.innermost(a) is b


def test_messages_over_the_limit_are_shortened_with_an_ellipsis():
    fields = errors.exception_fields(ValueError("word " * 10), limit=12)
    assert fields["message"] == "word word…"


def code_of(name, source):
    """A namespace whose functions' frames carry __name__ == name, as a package's or a script's do."""
    namespace = {"__name__": name}
    exec(compile(source, name.replace(".", "/") + ".py", "exec"), namespace)  # noqa: S102 - fixture code
    return namespace


def fields_of_script(call):
    """exception_fields of what call() raised, caught in a frame named __main__ as the scripts' are."""
    script = code_of("__main__", "def run(call):\n    try:\n        call()\n    except Exception as exc:\n"
                                 "        return exc\n")
    return errors.exception_fields(script["run"](call))


def test_the_packages_a_failure_passed_through_are_named_outermost_first():
    inner = code_of("cloudlib.client", "def call():\n    raise PermissionError('Token missing')\n")["call"]
    outer = code_of("cloud_dev.machines", "import json\ndef call(inner):\n    json.loads('{}')\n    return inner()\n")
    fields = fields_of_script(lambda: outer["call"](inner))
    assert fields["raised_through"][-2:] == ["cloud_dev", "cloudlib"]


def test_the_standard_library_and_the_script_are_not_packages_of_the_failure():
    json_call = code_of("__main__", "import json\ndef call():\n    json.loads('{')\n")["call"]
    assert "raised_through" not in fields_of_script(json_call)


def test_shortened_keeps_a_text_that_fits_whole():
    assert errors.shortened("torch.accelerator.device_count()", 40) == "torch.accelerator.device_count()"


def test_shortened_cuts_at_a_word_and_ends_with_an_ellipsis():
    text = "Use torch.accelerator.device_count instead of torch.tpu.device_count for every device"
    cut = errors.shortened(text, 40)
    assert len(cut) <= 40
    assert cut.endswith("…")
    kept = cut[:-1]
    assert text.startswith(kept)
    # What follows the kept part is whitespace, or the kept part ends in punctuation: never mid-word.
    assert text[len(kept)].isspace() or kept[-1] in errors.PUNCTUATION


def test_shortened_cuts_a_word_longer_than_half_where_it_must():
    cut = errors.shortened("x" * 50, 10)
    assert cut == "x" * 9 + "…"


def test_first_line_is_the_first_line_with_text_whole():
    assert errors.first_line("\n  Could not run 'aten::empty' with arguments  \nfrom the backend\n") == \
        "Could not run 'aten::empty' with arguments"
    assert errors.first_line("\n \n") == ""


def test_a_long_message_is_kept_whole_up_to_the_limit():
    lines = "\n".join(f"CPU: registered at file{i}.cpp" for i in range(200))
    message = "Could not run 'aten::lt.Scalar_out'.\n" + lines
    assert len(message) < errors.MESSAGE_LIMIT
    assert errors.exception_fields(RuntimeError(message))["message"] == message
