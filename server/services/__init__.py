"""Services that own state: the node registry, the challenge board, lobby
chat and pages, the matches, the store, door jobs. Each is the only code that
changes its state; sessions hear of changes through their inboxes."""
