"""A task README read statically: port and endpoints, layout, documented fields, the contract and
its checks."""
