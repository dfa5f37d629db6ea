"""The machine a summary's figures belong to, from a gbx record's environment.host: its CPU, whether
it is a virtual one and on what evidence, its clocksource and huge pages (docs/json-format.md).
Shared by scripts/gpu-summary and scripts/aa-check; Python's standard library only."""


def host_facts(host):
    """The facts as short phrases, in order; a record from before gbx read one says so."""
    facts = [f"{host.get('cpu_model') or 'CPU unknown'}, {host.get('logical_cpus') or '?'} logical CPUs"]
    virtualization = host.get("virtualization")
    if virtualization is None:
        facts.append("virtual machine: not recorded")
    elif virtualization.get("guest") is None:
        facts.append("virtual machine: unknown (" + str(virtualization.get("guest_unavailable") or "no reason") + ")")
    elif virtualization["guest"]:
        facts.append("virtual machine: yes (" + ", ".join(virtualization.get("evidence") or []) + ")")
    else:
        facts.append("virtual machine: no")
    for key, label in (("clocksource", "clocksource"), ("transparent_hugepage", "transparent huge pages")):
        if host.get(key):
            facts.append(f"{label} {host[key]}")
    return facts
