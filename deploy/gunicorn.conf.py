"""gunicorn for Doko-Turnier: ``gunicorn config.wsgi --config deploy/gunicorn.conf.py``.

Sync workers behind nginx (deploy/nginx/doko.conf), which buffers whole requests and answers
before a worker sees them: a slow phone holds an nginx connection, never a worker. Every
setting can be overridden on the command line or with GUNICORN_CMD_ARGS.
"""

import multiprocessing
import os

# Only nginx on this machine talks to gunicorn.
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count() + 1))
worker_class = "sync"
# A request that takes longer than this is a bug or a stuck database: restart the worker.
timeout = 60
graceful_timeout = 30
keepalive = 2
# Recycle workers now and then (WeasyPrint and lxml hold on to memory). nginx spreads
# requests evenly, so the workers reach max_requests together: with a jitter of 200 all
# four restarted within 21 s of each other under a hall's load. Each worker now draws its
# limit from 2000 to 4000 (and again after each restart): at 10 requests a second per
# worker the four first restarts spread over 200 s instead of 20 s.
max_requests = 2000
max_requests_jitter = 2000
# The proxy's X-Forwarded-Proto/-For are trusted from this address only.
forwarded_allow_ips = "127.0.0.1,::1"
# Requests are small; refuse absurd header lines early.
limit_request_line = 8190
limit_request_fields = 100

# Logs to stdout/stderr (journald under systemd). The logger class redacts captain tokens,
# registration tokens and credentials in every atom (config/redaction.py), so the format
# may name any atom: the request line %(r)s, the Referer %(f)s, even headers.
logger_class = "config.redaction.GunicornLogger"
accesslog = "-"
errorlog = "-"
loglevel = "info"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(f)s" "%(a)s"'
