"""Chinese messages (nb01)."""

MESSAGES = {
}
