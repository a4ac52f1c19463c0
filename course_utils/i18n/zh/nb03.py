"""Chinese messages (nb03)."""

MESSAGES = {
}
