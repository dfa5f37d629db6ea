"""The rows of a gbx ab comparison as scripts/aa-check sees them: a row's short name, the folder and
the benchmark filter of its run with the sides swapped, and the slowdown planted in it (the plan that
scripts/aa-plant.py writes). Shared by aa-check's swap step and its summary, so that both find the same
folder and agree on which rows are unchanged; Python's standard library only."""
import re


def short_name(name):
    """The row's name without Google Benchmark's /iterations:N suffix."""
    return name.split("/iterations")[0]


def swap_folder(name):
    """The folder, under a planted run's swap/, of the row's run with the sides swapped."""
    return re.sub(r"[^A-Za-z0-9]+", "_", short_name(name))


def row_filter(name):
    """A --benchmark_filter that selects the row alone: its name, escaped for the regular expression."""
    return "^" + re.sub(r"([][\\.*^$+?(){}|])", r"\\\1", short_name(name)) + "/"


def planted_size(plan, name):
    """The slowdown planted in the row's variant (0.0 for an unchanged row)."""
    for variant, size in plan.items():
        if name.startswith(variant + "/"):
            return size
    return 0.0
