"""Chinese messages (nb02)."""

MESSAGES = {
}
