"""Chinese messages (nb05)."""

MESSAGES = {
}
