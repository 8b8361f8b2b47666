"""The fronts: telnet, RLogin, the door bridge, the sysop socket and the
terminal. Bytes in and out, keys, sizes and frames; nothing of lobbies or games."""
