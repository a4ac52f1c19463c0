"""Chinese messages (nb04)."""

MESSAGES = {
}
