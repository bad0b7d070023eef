from django.core.management.base import BaseCommand

from scoring.captain_css import write


class Command(BaseCommand):
    help = (
        "Write static/css/captain.css: the rules of Pico and css/app.css the captain page "
        "uses (run after changing css/app.css or the captain page's templates)."
    )

    def handle(self, *args: object, **options: object) -> None:
        target = write()
        self.stdout.write(f"{target}: {target.stat().st_size} bytes")
