"""The ending every script test shares: one line per named check, a summary, the exit status."""
import sys


def report(suite, checks, detail=""):
    """Prints each check as ok or FAILED and `SUITE: P passed, F failed DETAIL`, then exits 0
    only if every check held."""
    for name, ok in checks.items():
        print(f"{'ok' if ok else 'FAILED'}: {name}")
    passed = sum(bool(ok) for ok in checks.values())
    print(f"{suite}: {passed} passed, {len(checks) - passed} failed{' ' + detail if detail else ''}")
    sys.exit(0 if passed == len(checks) else 1)
