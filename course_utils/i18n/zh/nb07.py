"""Chinese messages (nb07)."""

MESSAGES = {
}
