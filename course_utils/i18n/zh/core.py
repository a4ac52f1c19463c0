"""Chinese messages (core)."""

MESSAGES = {
}
