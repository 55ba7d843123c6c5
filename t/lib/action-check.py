#!/usr/bin/env python3
"""Check a composite action's metadata (action.yml) against the schema of
the subset speccoder uses (t/lib/action-schema.json), then print its steps
as a workflow (JSON, which is YAML) so that actionlint checks their
expressions and the actions they use: the inputs become workflow_call
inputs, the steps one job's steps.  Exit 1 with the errors on stderr when
the metadata does not validate."""
import json
import os
import sys

import jsonschema
import yaml


def main(path):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "action-schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    with open(path, encoding="utf-8") as f:
        action = yaml.safe_load(f)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(action), key=lambda e: list(e.path))
    for e in errors:
        where = "/".join(str(p) for p in e.path) or "(top)"
        print(f"{path}: {where}: {e.message}", file=sys.stderr)
    if errors:
        return 1
    inputs = {
        name: {"type": "string", "required": bool(spec.get("required", False))}
        for name, spec in (action.get("inputs") or {}).items()
    }
    workflow = {
        "name": action["name"],
        "on": {"workflow_call": {"inputs": inputs}} if inputs else {"workflow_call": {}},
        "jobs": {"action": {"runs-on": "ubuntu-latest", "steps": action["runs"]["steps"]}},
    }
    json.dump(workflow, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: action-check.py ACTION.yml", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
