"""pytest: the scripts import onramp_errors, which onramp writes beside each
script it runs; here it is found in python/python/."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "python", "python"))
