"""Chinese messages (nb06)."""

MESSAGES = {
}
