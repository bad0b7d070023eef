from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = pgettext_lazy("organizations", "Clubs")

    def ready(self) -> None:
        from common.changelog import ActionKind, register_actions

        register_actions(
            {
                "clubs.member.invited": ActionKind("member-invited", _("Member invited")),
                "clubs.invitation.withdrawn": ActionKind(
                    "invitation-withdrawn", _("Invitation withdrawn")
                ),
                "clubs.member.joined": ActionKind("member-joined", _("Member joined")),
                "clubs.member.left": ActionKind("member-left", _("Member left")),
                "clubs.member.removed": ActionKind("member-removed", _("Member removed")),
                "clubs.member.role_changed": ActionKind("member-role-changed", _("Role changed")),
                "clubs.club.handed_over": ActionKind("club-handed-over", _("Club handed over")),
                "clubs.club.privacy_changed": ActionKind(
                    "club-privacy-changed", _("Privacy settings changed")
                ),
            }
        )
