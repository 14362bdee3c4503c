"""Assertions that cannot fail: what ``pages.weak_asserts`` rejects in the code a page runs.

A page's numbers are backed by its assertions (``site_tools.pages.stated_numbers``), so an assertion that holds whatever
the code computes backs a number without checking it. :func:`weak` names every such assertion in a piece of code:

- it checks nothing: no comparison or call (``assert True``, ``assert ok``, ``assert 0.97``), or nothing the page
  computed (``assert 3 == 3``, ``assert 24 * 7 == 168``: arithmetic on constants is not the page's code);
- a literal that is always true: a non-empty tuple, list, set, dict or string (``assert (x == 1, "message")`` —
  the classic mistake: the tuple is the test);
- ``or`` with an operand that is always true (``x < 1e-6 or True``, ``x < 1 or "ok"``), or ``p or not p``;
- an expression compared with itself or with a copy of itself (``x == x``, ``t <= t``, ``torch.equal(a, a)``,
  ``torch.equal(a, a.clone())``, ``torch.testing.assert_close(a, copy.deepcopy(a))``, ``math.isclose(x, x)``);
- a bound that cannot be crossed: a value that is never negative (``abs(…)``, ``.abs()``, a norm, ``len(…)``, a
  square, a standard deviation, a reduction of such a value) compared ``>= 0`` or ``> -1``, and any value compared
  ``<= inf`` or ``< inf``;
- ``isinstance`` of a literal (``isinstance(3, int)``), or against ``object``;
- ``x in (x, …)``: a value in a literal that lists it;
- one part of an ``and`` that is one of the above (the rest may fail, but that part claims nothing);
- ``x is not None`` of a value the page computed (a tensor, a number): it holds for anything computed;
- a timed assertion: one that reads the clock (``time.perf_counter()``, ``time.time()``, ``timeit``), directly or
  through a name computed from it. The test machines are noisy; speed belongs in ``benchmarks/``;
- a tolerance looser than the number it checks: ``abs(x - 0.152) < 1``, ``(x - 0.152).abs() <= 0.5``,
  ``math.isclose(x, 0.152, abs_tol=0.1)``, where the bound is more than ten units of the constant's last written
  digit (0.001 for ``0.152``, 1 for ``512``, 100 for ``6200``). Such an assertion can fail, but it backs the digits
  it names without checking them: tighten the bound, or state the number with fewer digits;
- a number checked inside an ``or`` (``round(x, 3) == 0.657 or x < 0.9``): the other side lets the assertion hold
  without it.

Both the ``assert`` statement and calls of ``assert*`` functions (``torch.testing.assert_close``,
``numpy.testing.assert_allclose``) are checked, since both back numbers.
"""

from __future__ import annotations

import ast
import functools
import math
import re
from collections.abc import Iterator

# Calls that compare their first two arguments (the receiver's module does not matter: torch, numpy, math).
_COMPARING = {
    "equal", "allclose", "isclose", "array_equal", "array_equiv", "assert_close", "assert_allclose", "assert_equal",
    "assert_array_equal", "assert_array_almost_equal", "assert_almost_equal",
}  # fmt: skip
# Functions and methods whose result is never negative.
_NONNEGATIVE_CALLS = {
    "abs", "fabs", "absolute", "norm", "vector_norm", "matrix_norm", "hypot", "dist", "len", "numel", "nelement",
    "count", "std", "var", "square", "exp", "sqrt",
}  # fmt: skip
# Reductions and conversions that keep a non-negative value non-negative.
_KEEPS_SIGN = {"max", "amax", "min", "amin", "sum", "mean", "median", "item", "float", "int", "round", "cpu", "numpy"}
_EQUALITY = (ast.Eq, ast.LtE, ast.GtE, ast.Is)


@functools.lru_cache(maxsize=512)
def _tree(code: str) -> ast.Module:
    """``code`` parsed, once per text: several checks here read the same block (they only read the tree)."""
    return ast.parse(code)


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _constant(node: ast.expr) -> tuple[bool, object]:
    """(is a constant, its value) — numbers with a sign, ``math.inf``/``float("inf")``/``torch.inf`` included."""
    if isinstance(node, ast.Constant):
        return True, node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        ok, value = _constant(node.operand)
        if ok and isinstance(value, int | float) and not isinstance(value, bool):
            return True, -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Attribute) and node.attr == "inf":
        return True, math.inf
    if isinstance(node, ast.Call) and _name(node.func) == "float" and len(node.args) == 1:
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and str(arg.value).lower().lstrip("+") in {"inf", "infinity"}:
            return True, math.inf
    return False, None


def _always_true_literal(node: ast.expr) -> bool:
    ok, value = _constant(node)
    if ok:
        return bool(value)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts)
    if isinstance(node, ast.Dict):
        return bool(node.keys)
    if isinstance(node, ast.JoinedStr):
        return any(not isinstance(v, ast.Constant) or v.value for v in node.values)
    return False


# Calls that return a copy of their one argument or receiver: ``x.clone()``, ``copy.deepcopy(x)``, ``np.copy(x)``.
_COPIES = {"clone", "detach", "copy", "deepcopy", "contiguous"}


def _uncopied(node: ast.expr) -> ast.expr:
    """``node`` without the calls around it that only copy it (a copy equals what it copies)."""
    while isinstance(node, ast.Call) and _name(node.func) in _COPIES and not node.keywords:
        if isinstance(node.func, ast.Attribute) and not node.args:
            receiver = node.func.value  # x.clone(), but not copy.copy(): a module is no value
            if isinstance(receiver, ast.Name) and receiver.id in {"copy", "np", "numpy", "torch"}:
                return node
            node = receiver
        elif len(node.args) == 1:
            node = node.args[0]  # copy.deepcopy(x), torch.clone(x), np.copy(x)
        else:
            return node
    return node


def _same(a: ast.expr, b: ast.expr) -> bool:
    """The same expression, or the one a copy of the other (``torch.equal(x, x.clone())``)."""
    return ast.dump(_uncopied(a)) == ast.dump(_uncopied(b))


def _nonnegative(node: ast.expr) -> bool:
    """Whether ``node`` is never negative by construction."""
    if isinstance(node, ast.Call):
        name = _name(node.func)
        if name in _NONNEGATIVE_CALLS:
            return True
        receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
        if name in _KEEPS_SIGN:
            if receiver is not None and _nonnegative(receiver):
                return True  # x.abs().max(), t.norm().item()
            return bool(node.args) and all(_nonnegative(a) for a in node.args)  # float(abs(x)), torch.max(x.abs())
        return False
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        ok, exponent = _constant(node.right)
        return ok and isinstance(exponent, int) and exponent % 2 == 0
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and _same(node.left, node.right):
        return True
    if isinstance(node, ast.Subscript):
        return _nonnegative(node.value)
    return False


def _trivial_comparison(left: ast.expr, op: ast.cmpop, right: ast.expr) -> str | None:
    """Why ``left op right`` holds whatever the page computed, or None."""
    if isinstance(op, ast.IsNot) and isinstance(right, ast.Constant) and right.value is None:
        return "`is not None` holds for anything the page computed; compare the value itself"
    if isinstance(op, _EQUALITY) and _same(left, right):
        return "compares an expression with itself or a copy of it"
    ok, value = _constant(right)
    if ok and isinstance(value, int | float) and not isinstance(value, bool):
        if _nonnegative(left) and ((isinstance(op, ast.GtE) and value <= 0) or (isinstance(op, ast.Gt) and value < 0)):
            return f"a value that is never negative is always {'>=' if isinstance(op, ast.GtE) else '>'} {value!r}"
        if value == math.inf and isinstance(op, ast.Lt | ast.LtE):
            return "the bound is infinite"
    ok, value = _constant(left)
    if ok and isinstance(value, int | float) and not isinstance(value, bool):
        flipped = {ast.LtE: ast.GtE, ast.Lt: ast.Gt, ast.GtE: ast.LtE, ast.Gt: ast.Lt}.get(type(op))
        if flipped is not None:
            return _trivial_comparison(right, flipped(), left)
    if (
        isinstance(op, ast.In)
        and isinstance(right, ast.Tuple | ast.List | ast.Set)
        and any(_same(left, e) for e in right.elts)
    ):
        return "tests membership in a literal that lists the value"
    return None


def _negates(a: ast.expr, b: ast.expr) -> bool:
    return isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.Not) and _same(a, b.operand)


def cannot_fail(test: ast.expr) -> str | None:
    """Why the assertion ``assert test`` holds whatever the page computed (see the module docstring), or None."""
    if _always_true_literal(test):
        return "a literal that is always true"
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        for part in test.values:
            if cannot_fail(part):  # an always-true literal included
                return f"`or {ast.unparse(part)}` makes it always true"
        for a in test.values:
            if any(_negates(a, b) or _negates(b, a) for b in test.values):
                return f"`{ast.unparse(a)} or not …` is always true"
        return None
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        for part in test.values:
            reason = cannot_fail(part)
            if reason:
                return f"its part `{ast.unparse(part)}` cannot fail: {reason}"
        return None
    if isinstance(test, ast.Compare):
        lefts = [test.left, *test.comparators[:-1]]
        reasons = [_trivial_comparison(a, op, b) for a, op, b in zip(lefts, test.ops, test.comparators, strict=True)]
        return reasons[0] if all(reasons) else None
    if isinstance(test, ast.Call):
        name = _name(test.func)
        if name in _COMPARING and len(test.args) >= 2 and _same(test.args[0], test.args[1]):
            return "compares an expression with itself or a copy of it"
        if name == "isinstance" and len(test.args) == 2:
            subject, kind = test.args  # a constant or a literal container (3, "s", [1, 2], (a, b)), or object
            if isinstance(subject, ast.Tuple | ast.List | ast.Set | ast.Dict | ast.JoinedStr) or _constant(subject)[0]:
                return "isinstance of a literal"
            if isinstance(kind, ast.Name) and kind.id == "object":
                return "everything is an instance of object"
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        ok, value = _constant(test.operand)
        if ok and not value:
            return "`not` of a false constant"
    return None


def _checks_nothing(test: ast.expr, constants: frozenset[str] = frozenset()) -> bool:
    """No comparison or call, or no value the page computed (``assert ok``, ``assert 3 == 3``, and
    ``assert hours * 7 == 168`` when ``hours`` is one of ``constants``: names the code only ever binds to constants)."""
    parts = list(ast.walk(test))
    checks = any(isinstance(n, ast.Compare | ast.Call) for n in parts)
    uses_values = any(
        isinstance(n, ast.Attribute | ast.Subscript) or (isinstance(n, ast.Name) and n.id not in constants)
        for n in parts
    )  # not 24 * 7 == 168
    return not checks or not uses_values


def _constant_expression(node: ast.expr) -> bool:
    """Numbers, strings and arithmetic on them, or a tuple or list of such: no name, no call."""
    allowed = (ast.Constant, ast.UnaryOp, ast.BinOp, ast.Tuple, ast.List, ast.operator, ast.unaryop, ast.expr_context)
    return all(isinstance(n, allowed) for n in ast.walk(node))


def constant_names(code: str) -> frozenset[str]:
    """The names ``code`` only ever binds to constants (``hours = 24``, ``n, d = 20, 64``): an assertion that
    compares nothing else (``assert hours * 7 == 168``, ``assert n == 20``) restates a constant (contributor 50)."""
    tree = _tree(code)
    constant: dict[int, str] = {}  # the Name nodes bound to a constant, by id
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and _constant_expression(node.value):
                    constant[id(target)] = target.id
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    for name, value in zip(target.elts, node.value.elts, strict=False):
                        if isinstance(name, ast.Name) and _constant_expression(value):
                            constant[id(name)] = name.id
    # every other binding (another assignment, for, with, +=, :=, a parameter, a def, an import) is not a constant
    stores = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    other = {n.id for n in stores if id(n) not in constant}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            other.add(node.name)
        elif isinstance(node, ast.arg):
            other.add(node.arg)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            other.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            other.update(node.names)
    return frozenset(set(constant.values()) - other)


def is_assert_call(node: ast.AST) -> bool:
    """Whether ``node`` calls a function whose name starts with ``assert`` (``torch.testing.assert_close``)."""
    return isinstance(node, ast.Call) and _name(node.func).startswith("assert")


_CLOCKS = {"perf_counter", "perf_counter_ns", "time", "time_ns", "monotonic", "monotonic_ns", "process_time", "timeit"}


def _reads_clock(node: ast.AST, timed: set[str]) -> bool:
    """Whether ``node`` calls a clock (``time.perf_counter()``, ``timeit.timeit(…)``) or uses a name computed from
    one."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and _name(n.func) in _CLOCKS:
            receiver = n.func.value if isinstance(n.func, ast.Attribute) else None
            if receiver is None or (isinstance(receiver, ast.Name) and receiver.id in {"time", "timeit"}):
                return True
        if isinstance(n, ast.Name) and n.id in timed:
            return True
    return False


def _timed_names(tree: ast.AST) -> set[str]:
    """The names assigned, anywhere in ``tree``, from an expression that reads a clock (transitively)."""
    timed: set[str] = set()
    assignments = [n for n in ast.walk(tree) if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign)]
    while True:
        before = len(timed)
        for a in assignments:
            if a.value is not None and _reads_clock(a.value, timed):
                targets = a.targets if isinstance(a, ast.Assign) else [a.target]
                timed |= {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}
        if len(timed) == before:
            return timed


def _unit(text: str) -> float | None:
    """One unit of the last digit of a number as written: ``0.152`` → 0.001, ``512`` → 1, ``6200`` → 100,
    ``2.5e-7`` → 1e-8; None for anything else."""
    m = re.fullmatch(r"[-+]?(\d[\d_]*)(?:\.(\d+))?(?:[eE]([-+]?\d+))?", text.strip())
    if not m:
        return None
    whole, fraction, exponent = m.groups()
    digits = whole.replace("_", "")
    places = -len(fraction) if fraction else len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0
    return 10.0 ** (int(exponent or 0) + places)


def _numeric(node: ast.expr) -> float | None:
    """The value of a finite numeric constant (``0.152``, ``-3``), or None."""
    ok, value = _constant(node)
    if not ok or not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        return None
    return float(value)


def _number(node: ast.expr, code: str) -> tuple[float, float] | None:
    """(value, one unit of its last written digit) of a numeric constant in ``code``, or None."""
    value = _numeric(node)
    if value is None:
        return None
    unit = _unit(ast.get_source_segment(code, node) or "")
    return None if unit is None else (value, unit)


def _distance_to_constant(node: ast.expr, code: str) -> tuple[float, float] | None:
    """For ``abs(x - C)``, ``abs(C - x)`` or ``(x - C).abs()``: C and one unit of its last digit."""
    if not isinstance(node, ast.Call) or _name(node.func) not in {"abs", "fabs"}:
        return None
    if isinstance(node.func, ast.Attribute) and not node.args:
        inner = node.func.value  # (x - C).abs()
    elif len(node.args) == 1:
        inner = node.args[0]  # abs(x - C), math.fabs(x - C)
    else:
        return None
    if not (isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Sub)):
        return None
    return _number(inner.right, code) or _number(inner.left, code)


def loose(test: ast.expr, code: str) -> str | None:
    """Why the assertion ``assert test`` (in ``code``) is looser than the digits it names, or None."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return next((reason for part in test.values if (reason := loose(part, code))), None)
    found: tuple[float, float] | None = None
    bound = 0.0
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(op, ast.Gt | ast.GtE):
            left, right = right, left
        elif not isinstance(op, ast.Lt | ast.LtE):
            return None
        limit = _number(right, code)
        found = _distance_to_constant(left, code)
        if found is None or limit is None:
            return None
        bound = limit[0]
    elif isinstance(test, ast.Call) and _name(test.func) == "isclose" and len(test.args) == 2:
        found = _number(test.args[1], code) or _number(test.args[0], code)
        tolerances = {k.arg: _constant(k.value)[1] for k in test.keywords}
        if found is None:
            return None
        rel, absolute = tolerances.get("rel_tol", 1e-9), tolerances.get("abs_tol", 0.0)
        if not isinstance(rel, int | float) or not isinstance(absolute, int | float):
            return None
        bound = max(float(rel) * abs(found[0]), float(absolute))
    if found is None or found[0] == 0:
        return None
    value, unit = found
    if bound > 10 * unit:
        return (
            f"a tolerance of {bound:g} around {value:g} is more than ten units of its last digit ({unit:g}): it "
            "does not check the digits it names; tighten it, or state the number with fewer digits"
        )
    return None


def number_in_or(test: ast.expr) -> str | None:
    """Why ``assert test`` can hold without the number it compares: ``… == C or …`` with C a numeric constant."""
    if not (isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or)):
        return None
    for part in test.values:
        for node in ast.walk(part):
            if (
                isinstance(node, ast.Compare)
                and any(isinstance(op, ast.Eq) for op in node.ops)
                and any(_numeric(side) is not None for side in (node.left, *node.comparators))
            ):
                return (
                    f"`{ast.unparse(node)}` sits in an `or`, so the assertion holds without it; assert the number on "
                    "its own"
                )
    return None


def asserts_something(code: str) -> bool:
    """Whether ``code`` holds an ``assert`` statement or calls an ``assert*`` function."""
    return any(isinstance(n, ast.Assert) or is_assert_call(n) for n in ast.walk(_tree(code)))


_DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign, ast.AugAssign)


def unchecked_work(code: str) -> str | None:
    """The first statement of ``code`` that does more than define (an import, a ``def``, a ``class``, an assignment),
    shortened, if ``code`` asserts nothing; else ``None``. A block that only defines is checked where its names are
    used; one that prints or loops and asserts nothing checks nothing, whatever the blocks around it assert."""
    if asserts_something(code):
        return None
    work = [s for s in _tree(code).body if not isinstance(s, _DEFINITIONS)]
    if not work:
        return None
    text = ast.unparse(work[0]).split("\n")[0]
    return text if len(text) <= 60 else text[:57] + "..."


def assertions(code: str) -> list[tuple[int, int, str]]:
    """(first line, last line, the assertion) of every assertion in ``code``, in order: the ``assert`` statements and
    the calls of ``assert*`` functions. The page blocks' tests use it to check that each one ran
    (``tests/harness/block_cache.py``): an assertion in a function never called, or under a branch never taken,
    backs nothing."""
    found = []
    for node in ast.walk(_tree(code)):
        if isinstance(node, ast.Assert):
            found.append((node.lineno, node.end_lineno or node.lineno, f"assert {ast.unparse(node.test)}"))
        elif is_assert_call(node):
            assert isinstance(node, ast.Call)
            found.append((node.lineno, node.end_lineno or node.lineno, ast.unparse(node)))
    return sorted(found)


def weak(code: str, constants: frozenset[str] = frozenset()) -> Iterator[tuple[int, str, str]]:
    """(line within ``code``, the assertion, why it cannot fail) for every assertion of ``code`` that cannot fail,
    checks nothing or times the machine."""
    tree = _tree(code)
    timed = _timed_names(tree)
    for node in ast.walk(tree):
        assertion = isinstance(node, ast.Assert) or is_assert_call(node)
        if isinstance(node, ast.Assert | ast.Call) and assertion and _reads_clock(node, timed):
            text = f"assert {ast.unparse(node.test)}" if isinstance(node, ast.Assert) else ast.unparse(node)
            yield node.lineno, text, "is a timed assertion: the test machines are noisy; measure in benchmarks/"
            continue
        if isinstance(node, ast.Assert):
            text = f"assert {ast.unparse(node.test)}"
            if _checks_nothing(node.test, constants):
                yield node.lineno, text, "checks nothing; compare or call something the page computed"
            elif reason := cannot_fail(node.test):
                yield node.lineno, text, f"cannot fail: {reason}"
            elif reason := loose(node.test, code) or number_in_or(node.test):
                yield node.lineno, text, f"is too loose: {reason}"
        elif is_assert_call(node):
            assert isinstance(node, ast.Call)
            if len(node.args) >= 2 and _same(node.args[0], node.args[1]):
                yield node.lineno, ast.unparse(node), "cannot fail: compares an expression with itself or a copy of it"
