"""Browser tests: the pages in Debian's headless chromium, driven by Playwright."""
