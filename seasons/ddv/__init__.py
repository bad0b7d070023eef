"""The DDV ranking tournament (DDV-Ranglistenturnier): whether a tournament qualifies
(``check``), its report to the ranking keeper (``report``, columns in ``columns``, files in
``files``) and that report imported into a season on the keeper's server (``importing``).
See docs/ddv-report.md."""
