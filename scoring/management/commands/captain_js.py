from django.core.management.base import BaseCommand

from scoring.captain_js import write


class Command(BaseCommand):
    help = (
        "Write static/js/captain.js (the captain page's scripts, minified into one file) and "
        "the minified QR code library (run after changing js/app.js, js/sheet.js or "
        "js/outbox.js)."
    )

    def handle(self, *args: object, **options: object) -> None:
        for target in write():
            self.stdout.write(f"{target}: {target.stat().st_size} bytes")
