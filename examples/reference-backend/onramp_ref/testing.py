"""PyTorch's device-generic tests, run on the ref device.

PyTorch's own tests are written once for every device (test methods that take
`device`) and instantiated for each device type PyTorch knows; a PrivateUse1
backend is one of them through PrivateUse1TestBase, once it is imported and
named. This instantiates a test class for ref alone:

    from torch.testing._internal.common_utils import TestCase, run_tests
    from onramp_ref.testing import instantiate_for_ref

    class TestAdd(TestCase):
        def test_add(self, device):
            self.assertEqual((torch.ones(2, device=device) + 1).cpu(), torch.full((2,), 2.0))

    instantiate_for_ref(TestAdd, globals())   # defines TestAddREF (PrivateUse1TestBase)

PyTorch's testing helpers need the `expecttest` package, which torch does not
install.
"""


def instantiate_for_ref(test_class, scope):
    import onramp_ref  # noqa: F401  The device must be registered and named first.
    from torch.testing._internal.common_device_type import instantiate_device_type_tests

    instantiate_device_type_tests(test_class, scope, only_for=("privateuse1",))
