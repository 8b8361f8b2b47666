"""Screens: each draws itself and turns keys into service calls; the session
runs a stack of them."""
