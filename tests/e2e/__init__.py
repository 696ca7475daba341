"""Browser tests of the table companion (system Chromium through Playwright)."""
