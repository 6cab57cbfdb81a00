"""Unit tests of matrix_first.py's pure parts: when the forked matrix shares
the group's preamble, and the environment it is given back."""
import matrix_first as mf


def test_the_matrix_shares_the_preamble_only_where_autoload_was_off_or_unset():
    assert mf.shares_the_preamble(None)
    assert mf.shares_the_preamble("0")
    assert not mf.shares_the_preamble("1")


def test_the_autoload_variable_is_put_back_as_it_was():
    assert mf.environment_before({mf.AUTOLOAD: "0", "HOME": "/h"}, None) == {"HOME": "/h"}
    assert mf.environment_before({mf.AUTOLOAD: "0"}, "1") == {mf.AUTOLOAD: "1"}
