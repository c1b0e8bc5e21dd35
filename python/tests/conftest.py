import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "long: a test of several seconds; `make test` leaves it out (-m 'not long'), `make test-long` runs it (-m long)")
