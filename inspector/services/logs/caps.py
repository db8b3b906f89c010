"""How much the harness keeps on disk per sample (a light module: the CLI reads its defaults).

* :data:`DEFAULT_LOG_CAP_MB`: the cap on one phase log (``install.log``, ``start.log`` …);
  its head and its tail are kept, the middle is dropped and a note says how much (see
  :mod:`inspector.services.logs.phase_log`). ``Limits.log_cap_mb``, ``--log-cap-mb``.
* :data:`DEFAULT_KEEP_RERUNS`: re-runs whose logs are kept per sample; older ones are removed
  when a new one starts (see :mod:`inspector.services.logs.rerun_logs`).
  ``DeploymentPool(keep_reruns=…)``, ``--keep-reruns``.
"""

DEFAULT_LOG_CAP_MB = 20.0
DEFAULT_KEEP_RERUNS = 5
