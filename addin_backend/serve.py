"""``ledger serve``: the production WSGI server (gunicorn) around the app factory."""
from __future__ import annotations

import argparse

__all__ = ["serve"]


def serve(args: argparse.Namespace) -> int:
    """Run gunicorn in this process with ``args.workers`` workers (HTTPS when cert and key given)."""
    from gunicorn.app.base import BaseApplication

    from .api import create_app

    class _App(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", max(1, args.workers))
            self.cfg.set("threads", max(1, args.threads))
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("timeout", 120)
            if args.cert and args.key:
                self.cfg.set("certfile", args.cert)
                self.cfg.set("keyfile", args.key)

        def load(self):
            return create_app()

    _App().run()
    return 0
