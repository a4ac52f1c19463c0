"""Chinese messages (nb00)."""

MESSAGES = {
}
