"""Smoke tests of the ref backend: its kernels compute what the CPU computes,
and its rough edges (device name, availability API, import noise) are there.

Run where build.sh compiled the backend for an interpreter:
    cd "$(PYTHON=/usr/bin/python3 ./build.sh --where)" && /usr/bin/python3 -m unittest discover -s tests -v
"""
import os
import pathlib
import re
import subprocess
import sys
import unittest
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import torch  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import onramp_ref  # noqa: E402

from native_functions_data import UNREGISTERED_OPS  # noqa: E402

DEV = onramp_ref.DEVICE_TYPE
CAN_RENAME = hasattr(torch.utils, "rename_privateuse1_backend")


def on_device(t):
    return t.to(DEV)


class Kernels(unittest.TestCase):
    """Each registered kernel, checked against the CPU on the same inputs."""

    def setUp(self):
        torch.manual_seed(0)
        self.a = torch.randn(4, 5)
        self.b = torch.randn(4, 5)
        self.m = torch.randn(5, 3)
        self.ra, self.rb, self.rm = on_device(self.a), on_device(self.b), on_device(self.m)

    def assertSame(self, got, want):
        self.assertEqual(got.device.type, DEV)
        self.assertEqual(got.dtype, want.dtype)
        self.assertEqual(got.shape, want.shape)
        self.assertTrue(torch.allclose(got.cpu(), want, equal_nan=True), f"{got.cpu()} != {want}")

    def test_factories_and_copies(self):
        self.assertSame(torch.ones(2, 3, device=DEV), torch.ones(2, 3))
        self.assertSame(torch.zeros(3, device=DEV, dtype=torch.int64), torch.zeros(3, dtype=torch.int64))
        self.assertSame(torch.empty_strided((2, 2), (1, 2), device=DEV).fill_(7), torch.full((2, 2), 7.0))
        self.assertSame(self.ra.clone(), self.a)
        self.assertSame(self.ra.to(torch.float64), self.a.double())
        self.assertEqual(self.ra[1, 2].item(), self.a[1, 2].item())

    def test_random_numbers_follow_the_cpu_generator(self):
        torch.manual_seed(1)
        got_n, got_u = torch.randn(3, 3, device=DEV), torch.rand(3, device=DEV)
        torch.manual_seed(1)
        self.assertSame(got_n, torch.randn(3, 3))
        self.assertSame(got_u, torch.rand(3))

    def test_views_share_memory(self):
        self.assertSame(self.ra.view(20), self.a.view(20))
        self.assertSame(self.ra.t(), self.a.t())
        self.assertSame(self.ra.t().reshape(20), self.a.t().reshape(20))
        self.assertSame(self.ra[1:3, ::2], self.a[1:3, ::2])
        view = self.ra.view(20)
        view.zero_()
        self.assertEqual(self.ra.abs().sum().item(), 0.0)

    def test_pointwise(self):
        a, b, ra, rb = self.a, self.b, self.ra, self.rb
        self.assertSame(ra + rb, a + b)
        self.assertSame(torch.add(ra, rb, alpha=2), torch.add(a, b, alpha=2))
        self.assertSame(ra + 1, a + 1)
        self.assertSame(ra - rb, a - b)
        self.assertSame(ra * rb, a * b)
        self.assertSame(ra / rb, a / b)
        for op in (torch.neg, torch.abs, torch.ceil, torch.exp, torch.tanh, torch.sigmoid, torch.relu):
            self.assertSame(op(ra), op(a))
        self.assertSame(torch.log(ra.abs()), torch.log(a.abs()))
        self.assertSame(torch.sqrt(ra.abs()), torch.sqrt(a.abs()))
        self.assertSame(ra == rb, a == b)
        self.assertSame(ra == 0, a == 0)
        self.assertSame(ra != rb, a != b)
        self.assertSame(ra != 0, a != 0)
        self.assertSame(ra > 0, a > 0)
        self.assertSame((ra > 0) & (rb > 0), (a > 0) & (b > 0))
        self.assertSame(torch.masked_select(ra, ra > 0), torch.masked_select(a, a > 0))

    def test_in_place_and_out(self):
        ra, a = self.ra.clone(), self.a.clone()
        ra.add_(self.rb, alpha=3).mul_(self.rb)
        a.add_(self.b, alpha=3).mul_(self.b)
        self.assertSame(ra, a)
        # Empty out= tensors are resized to the result, like ATen's own.
        self.assertSame(torch.add(self.ra, self.rb, out=torch.empty(0, device=DEV)), self.a + self.b)
        self.assertSame(torch.mul(self.ra, self.rb, out=torch.empty(0, device=DEV)), self.a * self.b)
        self.assertSame(torch.mm(self.ra, self.rm, out=torch.empty(0, device=DEV)), self.a @ self.m)

    def test_linear_algebra_and_reductions(self):
        a, ra = self.a, self.ra
        self.assertSame(ra @ self.rm, a @ self.m)
        bias = torch.randn(3)
        self.assertSame(torch.addmm(on_device(bias), ra, self.rm), torch.addmm(bias, a, self.m))
        self.assertSame(ra.sum(), a.sum())
        self.assertSame(ra.sum(1, keepdim=True), a.sum(1, keepdim=True))
        self.assertSame(ra.mean(0), a.mean(0))
        self.assertSame(ra.max(), a.max())
        self.assertSame(ra.min(), a.min())
        self.assertSame(ra.argmax(1), a.argmax(1))
        self.assertSame(torch.softmax(ra, 1), torch.softmax(a, 1))
        self.assertSame(torch.log_softmax(ra, 1), torch.log_softmax(a, 1))
        self.assertSame(torch.cat([ra, self.rb]), torch.cat([a, self.b]))

    def test_backward(self):
        a, ra = self.a.clone().requires_grad_(), self.ra.clone().requires_grad_()
        (a.relu() @ self.m).sum().backward()
        (ra.relu() @ self.rm).sum().backward()
        self.assertSame(ra.grad, a.grad)

    def test_training_steps_match_the_cpu(self):
        def train(device):
            torch.manual_seed(0)
            layer = torch.nn.Linear(5, 3).to(device)
            optimizer = torch.optim.SGD(layer.parameters(), lr=0.01)
            x = torch.randn(8, 5).to(device)
            for _ in range(3):
                optimizer.zero_grad()
                loss = layer(x).relu().sum()
                loss.backward()
                optimizer.step()
            return loss.item(), layer.weight.detach().cpu()

        (cpu_loss, cpu_weight), (ref_loss, ref_weight) = train("cpu"), train(DEV)
        self.assertNotEqual(cpu_loss, 0.0)
        self.assertAlmostEqual(ref_loss, cpu_loss, places=5)
        self.assertTrue(torch.allclose(ref_weight, cpu_weight))

    def test_printing(self):
        try:
            text = repr(torch.ones(2, device=DEV) + 1)
        except NotImplementedError as e:
            # torch 2.x formats a tensor on its own device, with lt.Scalar_out,
            # which this backend leaves unregistered (UNREGISTERED_OPS).
            self.assertIn("aten::lt.Scalar_out", str(e))
            self.assertIn("lt.Scalar_out", UNREGISTERED_OPS)
            return
        self.assertEqual(text, f"tensor([2., 2.], device='{DEV}:0')")

    def test_unregistered_op_fails_in_the_dispatcher(self):
        # clamp reaches the dispatcher as clamp.out on this torch, as clamp on others.
        with self.assertRaisesRegex(NotImplementedError, r"Could not run 'aten::clamp(\.out)?' with arguments from the"):
            torch.clamp(self.ra, 0, 1)


class Inventories(unittest.TestCase):
    """The registrations, csrc/ops/op_names.h and UNREGISTERED_OPS agree."""

    SOURCE = (ROOT / "csrc/ops/aten_ops.cpp").read_text()
    ENUM = (ROOT / "csrc/ops/op_names.h").read_text()
    # How an overload shows in an OpName enumerator; the rest add nothing.
    OVERLOAD_SUFFIX = {"out": "Out", "Scalar": "Scalar", "dim": "Dim", "dim_IntList": "Dim"}

    def registered_in_source(self):
        return set(re.findall(r'm\.impl\("([^"]+)"', self.SOURCE))

    def test_every_registration_reaches_the_dispatcher(self):
        # torch 2.x registers some PrivateUse1 kernels itself: count only what
        # importing onramp_ref added to a fresh interpreter's list.
        ask = "import torch; print('\\n'.join(torch._C._dispatch_get_registrations_for_dispatch_key('PrivateUse1')))"
        # Backend autoload off: an entry point (the ONRAMP_REF_INTEGRATION build's) must not load
        # onramp_ref into the interpreter that stands for torch alone.
        env = dict(os.environ, TORCH_DEVICE_BACKEND_AUTOLOAD="0")
        own = subprocess.run([sys.executable, "-c", ask], capture_output=True, text=True, check=True,
                             env=env).stdout.split()
        live = {n[len("aten::"):] for n in torch._C._dispatch_get_registrations_for_dispatch_key("PrivateUse1")
                if n not in set(own)}
        self.assertEqual(self.registered_in_source(), live)

    def test_every_registration_is_in_the_enum(self):
        enumerators = set(re.findall(r"^\s*(k\w+)", self.ENUM, re.M))
        for op in self.registered_in_source():
            base, _, overload = op.partition(".")
            camel = "".join(part.capitalize() for part in base.strip("_").split("_"))
            name = "k" + camel + self.OVERLOAD_SUFFIX.get(overload, "")
            self.assertIn(name, enumerators, op)

    def test_readme_states_the_registration_count(self):
        readme = (ROOT / "README.md").read_text()
        claimed = re.search(r"registers (\d+) ATen ops", readme)
        self.assertIsNotNone(claimed)
        self.assertEqual(int(claimed.group(1)), len(self.registered_in_source()))

    def test_unregistered_ops_are_real_and_unregistered(self):
        self.assertGreater(len(UNREGISTERED_OPS), 0)
        registered = self.registered_in_source()
        for op in UNREGISTERED_OPS:
            name, _, overload = op.partition(".")
            torch._C._get_schema("aten::" + name, overload)  # raises for an unknown op
            self.assertNotIn(op, registered)


class Frictions(unittest.TestCase):
    """The rough edges the backend ships with on purpose."""

    def test_availability_queries_are_refused_to_users(self):
        module = getattr(torch, DEV)
        for query in ("is_available", "device_count"):
            with self.assertRaises(RuntimeError) as caught:
                getattr(module, query)()
            self.assertEqual(
                str(caught.exception),
                f"{query} is internal to onramp_ref and can only be called by the PyTorch framework. "
                f"Use torch.accelerator.{query} instead.",
            )

    def test_availability_queries_answer_the_framework(self):
        # Code whose module is torch or under it is the framework.
        scope = {"__name__": "torch._availability_probe", "module": getattr(torch, DEV)}
        exec("answers = (module.is_available(), module.device_count())", scope)
        self.assertEqual(scope["answers"], (True, 1))

    @unittest.skipIf(CAN_RENAME, "this torch can name the PrivateUse1 backend")
    def test_ref_is_not_a_device_string_without_rename(self):
        with self.assertRaisesRegex(
            RuntimeError, r"^Expected one of cpu, cuda, .*privateuseone device type at start of device string: ref$"
        ):
            torch.randn((4, 4), device="ref")

    @unittest.skipUnless(CAN_RENAME, "this torch cannot name the PrivateUse1 backend")
    def test_ref_is_a_device_string_with_rename(self):
        self.assertEqual(torch.randn((4, 4), device="ref").device.type, "ref")

    def test_import_logs_and_warns(self):
        run = subprocess.run(
            [sys.executable, "-c", "import onramp_ref"], cwd=ROOT, capture_output=True, text=True, timeout=120
        )
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertRegex(run.stderr, r"(?m)^I\d{4} [\d:.]+ +\d+ module\.cpp:\d+\] HostRuntimeApi was found for ref at .*_C\..*\.so$")
        self.assertRegex(run.stderr, r"UserWarning: tcmalloc is not loaded: .*host performance may be degraded")


if __name__ == "__main__":
    unittest.main()
