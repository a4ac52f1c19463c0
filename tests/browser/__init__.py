"""Browser tests: the course in JupyterLab, driven in Chromium (``make test-browser``)."""
