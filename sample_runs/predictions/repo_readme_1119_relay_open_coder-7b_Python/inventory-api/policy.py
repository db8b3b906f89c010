import os

POLICY_FILE = os.path.join(os.path.dirname(__file__), "stock_policy.yaml")


def load_policy():
    """Load the reservation policy from stock_policy.yaml."""
    import yaml

    with open(POLICY_FILE) as f:
        policy = yaml.safe_load(f) or {}
    return {
        "safety_stock": int(policy.get("safety_stock", 0)),
        "max_reserve_per_request": int(policy.get("max_reserve_per_request", 0)),
    }
